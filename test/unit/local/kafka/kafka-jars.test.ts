import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedKafkaJars, fetchKafkaJars, renderKafkaPom } from '../../../../local/kafka/kafka-jars.ts';
import { KAFKA_VERSION, LOG4J_VERSION } from '../../../../local/kafka/versions.ts';

let cacheHome: string;

beforeEach(async () => {
  cacheHome = await mkdtemp(join(tmpdir(), 'scorestream-cache-'));
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(cacheHome, { recursive: true, force: true });
});

describe('renderKafkaPom', () => {
  it('asks for the Kafka broker and the slf4j 1.x log4j2 binding Kafka 4.1 logs through', () => {
    const pom = renderKafkaPom();
    expect(pom).toContain(`<artifactId>kafka_2.13</artifactId><version>${KAFKA_VERSION}</version>`);
    expect(pom).toContain(`<artifactId>log4j-slf4j-impl</artifactId><version>${LOG4J_VERSION}</version>`);
    expect(pom).toContain(`<artifactId>log4j-core</artifactId><version>${LOG4J_VERSION}</version>`);
  });
});

describe('fetchKafkaJars', () => {
  it('returns a complete cached download without running Maven', async () => {
    const libs = join(cacheHome, 'scorestream', `kafka-${KAFKA_VERSION}`, 'libs');
    await mkdir(libs, { recursive: true });
    await writeFile(join(libs, '.complete'), 'yes\n');
    vi.stubEnv('PATH', cacheHome); // no mvn reachable: a download attempt would fail
    expect(await fetchKafkaJars(undefined, { XDG_CACHE_HOME: cacheHome })).toBe(libs);
  });

  it('does not count an interrupted download as cached', async () => {
    const libs = join(cacheHome, 'scorestream', `kafka-${KAFKA_VERSION}`, 'libs');
    await mkdir(libs, { recursive: true });
    expect(cachedKafkaJars({ XDG_CACHE_HOME: cacheHome })).toBeUndefined();
  });

  it('says Maven is needed when the jars are not cached and mvn is missing', async () => {
    vi.stubEnv('PATH', cacheHome);
    await expect(fetchKafkaJars(undefined, { XDG_CACHE_HOME: cacheHome })).rejects.toMatchObject({ code: 'KAFKA_PREREQUISITE_MISSING' });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findJava, parseJavaMajorVersion, requireMaven } from '../../../../local/kafka/prerequisites.ts';

describe('parseJavaMajorVersion', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15', 17],
    ['openjdk version "21" 2023-09-19', 21],
    ['java version "1.8.0_392"', 8],
    ['openjdk version "11.0.2-ea"', 11],
  ])('reads %s as %i', (output, major) => {
    expect(parseJavaMajorVersion(output)).toBe(major);
  });

  it('gives undefined for output it does not recognise', () => {
    expect(parseJavaMajorVersion('no java here')).toBeUndefined();
  });
});

describe('missing programs', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('names JAVA_HOME and the install command when JAVA_HOME has no java', async () => {
    await expect(findJava({ JAVA_HOME: '/nonexistent/jdk' })).rejects.toMatchObject({
      code: 'KAFKA_PREREQUISITE_MISSING',
      message: expect.stringMatching(/JAVA_HOME points at \/nonexistent\/jdk.*apt-get install -y openjdk-17-jre-headless maven/),
    });
  });

  it('says Maven is missing and how to install it when mvn is not on PATH', async () => {
    const emptyDirectory = await mkdtemp(join(tmpdir(), 'scorestream-path-'));
    vi.stubEnv('PATH', emptyDirectory);
    try {
      await expect(requireMaven()).rejects.toMatchObject({
        code: 'KAFKA_PREREQUISITE_MISSING',
        message: expect.stringMatching(/Maven \(mvn\) is needed once.*is not on PATH.*apt-get install/),
      });
    } finally {
      await rm(emptyDirectory, { recursive: true, force: true });
    }
  });
});

import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokerStateDirectory, isValidBrokerName, kafkaCacheDirectory, nodeCompileCacheDirectory } from '../../../../local/kafka/paths.ts';
import { KAFKA_VERSION } from '../../../../local/kafka/versions.ts';

describe('paths', () => {
  it('follows XDG_CACHE_HOME and XDG_STATE_HOME', () => {
    expect(kafkaCacheDirectory({ XDG_CACHE_HOME: '/c' })).toBe(`/c/scorestream/kafka-${KAFKA_VERSION}`);
    expect(brokerStateDirectory('demo', { XDG_STATE_HOME: '/s' })).toBe('/s/scorestream/brokers/demo');
  });

  it('falls back to ~/.cache and ~/.local/state when they are unset or blank', () => {
    expect(kafkaCacheDirectory({})).toBe(join(homedir(), '.cache', 'scorestream', `kafka-${KAFKA_VERSION}`));
    expect(brokerStateDirectory('default', { XDG_STATE_HOME: ' ' })).toBe(join(homedir(), '.local', 'state', 'scorestream', 'brokers', 'default'));
  });

  it("puts Node's compile cache where bin/scorestream does, unless NODE_COMPILE_CACHE says where", () => {
    expect(nodeCompileCacheDirectory({ XDG_CACHE_HOME: '/c' })).toBe('/c/scorestream/node-compile-cache');
    expect(nodeCompileCacheDirectory({})).toBe(join(homedir(), '.cache', 'scorestream', 'node-compile-cache'));
    expect(nodeCompileCacheDirectory({ XDG_CACHE_HOME: '/c', NODE_COMPILE_CACHE: '/n' })).toBe('/n');
  });

  it('accepts broker names that are safe as directory and container names only', () => {
    for (const name of ['default', 'it-1a2b', 'bench_1.x']) expect(isValidBrokerName(name)).toBe(true);
    for (const name of ['', '..', '../etc', 'a/b', '-flag', 'x'.repeat(65), 'spa ce']) expect(isValidBrokerName(name)).toBe(false);
  });
});

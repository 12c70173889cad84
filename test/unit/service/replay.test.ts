import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/engine/config/config-error.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { replayRequest, selectScorers } from '../../../service/replay.ts';

const scorer = (id: string) => createScorer({ id, description: 'd' }).generateScore(() => 1);
const config = resolveConfig({ kafka: { brokers: ['localhost:9092'] }, groupId: 'live', scorers: [{ scorer: scorer('a') }, { scorer: scorer('b') }] });

describe('what a replay replays', () => {
  it('takes every binding by default, or the --scorer ids given', () => {
    expect(selectScorers(config, undefined).map((binding) => binding.scorerId)).toEqual(['a', 'b']);
    expect(selectScorers(config, ['b']).map((binding) => binding.scorerId)).toEqual(['b']);
  });

  it('names every unknown scorer id and the known ones', () => {
    expect(() => selectScorers(config, ['a', 'zz', 'yy'])).toThrow(ConfigError);
    try {
      selectScorers(config, ['zz', 'yy']);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        { path: '--scorer', message: "no scorer 'zz' in the config; known: a, b" },
        { path: '--scorer', message: "no scorer 'yy' in the config; known: a, b" },
      ]);
    }
  });

  it('refuses a --to that is not after --from', () => {
    const from = new Date('2026-12-01T10:00:00Z');
    expect(() => replayRequest(config, { from, to: from })).toThrow(/--to .* must be after --from/);
    expect(replayRequest(config, { from, scorers: ['a'] })).toEqual({ groupId: 'live', topic: 'agent-runs', from: { spec: '2026-12-01T10:00:00.000Z', at: from }, scorers: ['a'] });
  });

  it('takes an --id of letters, digits, dots, dashes and underscores only', () => {
    const from = new Date('2026-12-01T10:00:00Z');
    expect(replayRequest(config, { from, id: 'backfill_2026.12-a' }).id).toBe('backfill_2026.12-a');
    expect(() => replayRequest(config, { from, id: 'two words' })).toThrow(/--id/);
  });
});

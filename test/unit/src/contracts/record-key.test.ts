// The key of score and decision records: the pair's scoreId (what compaction keeps one of), and
// the run id as the partition key (a run's records stay on its partition number); an alert
// notice's key: its monitor's name, whatever the notice.
import { describe, expect, it } from 'vitest';
import { alertKeyFor, recordKeyFor } from '../../../../src/contracts/record-key.ts';
import { scoreIdFor } from '../../../../src/contracts/score-id.ts';

describe('recordKeyFor', () => {
  it('keys a pair by its scoreId and partitions it by its run id', () => {
    expect(recordKeyFor({ runId: 'run-1', scorerId: 'completeness' })).toEqual({ key: 'd73f0bf9-cea6-871f-a98c-c6f44c7581a1', partitionKey: 'run-1' });
    expect(recordKeyFor({ runId: 'run-1', scorerId: 'completeness', scorerVersion: '2' }).key).toBe(scoreIdFor({ runId: 'run-1', scorerId: 'completeness', scorerVersion: '2' }));
  });

  it('gives every scorer and version of a run its own key, and the same pair always the same one', () => {
    const keys = ['a', 'b', 'c'].flatMap((scorerId) => [undefined, '1', '2'].map((scorerVersion) => recordKeyFor({ runId: 'run-7', scorerId, scorerVersion }).key));
    expect(new Set(keys).size).toBe(9);
    expect(recordKeyFor({ runId: 'run-7', scorerId: 'a', scorerVersion: '1' })).toEqual(recordKeyFor({ runId: 'run-7', scorerId: 'a', scorerVersion: '1' }));
  });
});

describe('alertKeyFor', () => {
  it("keys every notice of a monitor by the monitor's name, so they share a partition and compaction keeps the last", () => {
    const monitor = { name: 'support-completeness', scorer: 'completeness', aggregation: 'mean' as const, windowMs: 60_000, threshold: { below: 0.5 }, forMs: 0, cooldownMs: 0, noData: 'keep' as const, minSamples: 1 };
    expect(alertKeyFor({ monitor })).toBe('support-completeness');
    expect(alertKeyFor({ monitor: { ...monitor, scorer: 'tone', agent: 'research-agent' } })).toBe(alertKeyFor({ monitor }));
    expect(alertKeyFor({ monitor: { ...monitor, name: 'other' } })).not.toBe(alertKeyFor({ monitor }));
  });
});

// The key of score and decision records: the pair's scoreId (what compaction keeps one of), and
// the run id as the partition key (a run's records stay on its partition number); a thread
// scorer's records by their own id, partitioned by the thread key; an alert notice's key: its
// monitor's name, whatever the notice.
import { describe, expect, it } from 'vitest';
import { alertKeyFor, recordKeyFor, recordKeyOf, threadDecisionKeyFor } from '../../../../../src/kit/contracts/record-key.ts';
import { scoreIdFor } from '../../../../../src/kit/contracts/score-id.ts';
import type { ThreadRef } from '../../../../../src/kit/contracts/thread-ref.ts';
import { threadScoreIdFor } from '../../../../../src/kit/contracts/thread-ids.ts';
import { buildDecisionRecord } from '../../../../../src/engine/pipeline/build-decision-record.ts';
import { runScore } from '../../engine/threads/fixtures.ts';

const source = { topic: 'agent-runs', partition: 0, offset: '7' };

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

describe('recordKeyOf', () => {
  const thread: ThreadRef = { id: 'thread-9', key: 'acme:thread-9', turns: 3, firstRunId: 'run-1', lastRunId: 'run-3', closedBy: 'idle' };
  const version = { ...thread, version: 2, versionId: 'v-2', scope: 'conversation' as const, supersedes: 'v-1' };

  it('keys a run scorer\'s record and decision as recordKeyFor does', () => {
    // A record carries its pair's scoreId, which is its key (not hashed again).
    const record = { ...runScore('run-1', 'completeness', 0.5), scoreId: scoreIdFor({ runId: 'run-1', scorerId: 'completeness' }) };
    expect(recordKeyOf(record)).toEqual(recordKeyFor(record));
    expect(recordKeyOf(record).key).toBe(record.scoreId);
    expect(recordKeyOf(record).partitionKey).toBe('run-1');
    const decision = buildDecisionRecord({ runId: 'run-1', scorerId: 'completeness', source }, { decision: 'skipped', reason: 'filter' }, '2026-11-29T12:00:00.000Z');
    expect(recordKeyOf(decision)).toEqual(recordKeyFor({ runId: 'run-1', scorerId: 'completeness' }));
  });

  it("keys a thread score by its own scoreId (one per version, so compaction keeps every version) and partitions it by the thread key", () => {
    const v1 = { ...runScore('run-3', 'turn-count', 3), scoreId: threadScoreIdFor({ threadKey: thread.key, scorerId: 'turn-count', versionId: 'v-1' }), thread: { ...version, version: 1, versionId: 'v-1', supersedes: undefined } };
    const v2 = { ...runScore('run-3', 'turn-count', 3), scoreId: threadScoreIdFor({ threadKey: thread.key, scorerId: 'turn-count', versionId: 'v-2' }), thread: version };
    expect(recordKeyOf(v2)).toEqual({ key: v2.scoreId, partitionKey: 'acme:thread-9' });
    expect(recordKeyOf(v1).key).not.toBe(recordKeyOf(v2).key);
    // Not the pair key of its last turn's run: that run's own turn-count record would collide with it.
    expect(recordKeyOf(v2).key).not.toBe(recordKeyFor(v2).key);
  });

  it('keys a thread decision by its thread, binding and turns, partitioned by the thread key', () => {
    const decide = (ref: ThreadRef, scorerVersion?: string) => buildDecisionRecord({ runId: ref.lastRunId, scorerId: 'turn-count', scorerVersion, source }, { decision: 'skipped', reason: 'rescore_refused', thread: ref }, '2026-11-29T12:00:00.000Z');
    const first = recordKeyOf(decide(thread));
    expect(first).toEqual({ key: threadDecisionKeyFor({ scorerId: 'turn-count', thread }), partitionKey: 'acme:thread-9' });
    // The same close decided again (a restore) collapses; a later close, another version or another thread does not.
    expect(recordKeyOf(decide({ ...thread, closedBy: 'overflow' })).key).toBe(first.key);
    const others = [decide({ ...thread, turns: 4, lastRunId: 'run-4' }), decide(thread, '2'), decide({ ...thread, key: 'beta:thread-9' })].map((decision) => recordKeyOf(decision).key);
    expect(new Set([first.key, ...others]).size).toBe(4);
    expect(first.key).not.toBe(recordKeyFor({ runId: 'run-3', scorerId: 'turn-count' }).key);
  });
});

import { describe, expect, it } from 'vitest';
import { NO_TENANT, OTHER, ScoreAggregates, UNKNOWN } from '../../../dashboard/aggregates.ts';
import { SCORE_BIN_COUNT, scoreBinIndex } from '../../../dashboard/score-bins.ts';
import { decisionRecord, scoreRecord } from '../../helpers/dashboard-records.ts';

const minute = 60_000;
const now = 100 * minute;

describe('score bins', () => {
  it.each([
    [-0.5, 0],
    [0, 1],
    [0.05, 1],
    [0.1, 2],
    [0.3, 4],
    [0.1 + 0.2, 4],
    [0.7, 8],
    [0.95, 10],
    [1, 10],
    [1.5, 11],
  ])('puts %d in bin %d', (score, bin) => {
    expect(scoreBinIndex(score)).toBe(bin);
  });

  it('has a bin below 0, ten over [0, 1] and one above 1', () => {
    expect(SCORE_BIN_COUNT).toBe(12);
  });
});

describe('ScoreAggregates', () => {
  const aggregates = () => new ScoreAggregates({ bucketMs: minute, windowMs: 10 * minute, maxSeriesPerBucket: 3 });

  it('counts not_scorable and failed as states, never as scores', () => {
    const store = aggregates();
    store.addRecord(scoreRecord({ status: 'scored', score: 0.8 }, { at: now - 1 }), now - 1, now);
    store.addRecord(scoreRecord({ status: 'not_scorable' }, { at: now - 1 }), now - 1, now);
    store.addRecord(scoreRecord({ status: 'failed' }, { at: now - 1 }), now - 1, now);
    const [bucket] = store.view(now);
    expect(bucket!.series).toHaveLength(1);
    const tally = bucket!.series[0]!;
    expect(tally).toMatchObject({ scorer: 'completeness', agent: 'support-agent', tenant: NO_TENANT, scored: 1, notScorable: 1, failed: 1, sum: 0.8 });
    expect(tally.bins.reduce((a, b) => a + b, 0)).toBe(1);
    expect(tally.bins[9]).toBe(1);
    expect(tally.binSums[9]).toBeCloseTo(0.8);
  });

  it('buckets by time and keeps scorer x agent x tenant series apart', () => {
    const store = aggregates();
    store.addRecord(scoreRecord({ status: 'scored', score: 1 }, { tenant: 'acme' }), now - 3 * minute, now);
    store.addRecord(scoreRecord({ status: 'scored', score: 0 }, { tenant: 'globex' }), now - 3 * minute + 10, now);
    store.addRecord(scoreRecord({ status: 'scored', score: 0.5 }, { tenant: 'acme' }), now - minute, now);
    const view = store.view(now);
    expect(view.map((bucket) => bucket.start)).toEqual([now - 3 * minute, now - minute]);
    expect(view[0]!.series.map((tally) => tally.tenant).sort()).toEqual(['acme', 'globex']);
  });

  it('ignores records older than the window and drops buckets that leave it', () => {
    const store = aggregates();
    expect(store.addRecord(scoreRecord({ status: 'scored', score: 1 }), now - 11 * minute, now)).toBeUndefined();
    store.addRecord(scoreRecord({ status: 'scored', score: 1 }), now - 9 * minute, now);
    expect(store.bucketCount).toBe(1);
    expect(store.view(now + 2 * minute)).toEqual([]);
    expect(store.bucketCount).toBe(0);
  });

  it('never holds more series per bucket than its bound: further combinations share one (other) series', () => {
    const store = aggregates();
    for (let agent = 0; agent < 10; agent += 1) store.addRecord(scoreRecord({ status: 'scored', score: 0.5 }, { agent: `agent-${agent}` }), now - 1, now);
    const [bucket] = store.view(now);
    expect(bucket!.series).toHaveLength(4);
    const other = bucket!.series.find((tally) => tally.scorer === OTHER)!;
    expect(other.scored).toBe(7);
  });

  it('never holds more buckets than the window needs, even for records dated in the future', () => {
    const store = aggregates();
    for (let index = 0; index < 100; index += 1) store.addRecord(scoreRecord({ status: 'scored', score: 1 }), now + index * minute, now);
    expect(store.bucketCount).toBeLessThanOrEqual(store.maxBuckets);
  });

  it('tallies skip decisions per scorer, agent, tenant and reason, bounded too', () => {
    const store = new ScoreAggregates({ bucketMs: minute, windowMs: 10 * minute, maxSeriesPerBucket: 3, maxSkipKeysPerBucket: 3 });
    store.addDecision(decisionRecord({ reason: 'sampling', agent: 'support-agent', tenant: 'acme' }), now - 1, now);
    store.addDecision(decisionRecord({ reason: 'sampling', agent: 'support-agent', tenant: 'acme' }), now - 1, now);
    store.addDecision(decisionRecord({ reason: 'sampling', agent: 'support-agent' }), now - 1, now);
    store.addDecision(decisionRecord({ reason: 'filter' }), now - 1, now);
    store.addDecision(decisionRecord({ scorerId: 'other-scorer', reason: 'filter', agent: 'triage' }), now - 1, now);
    const [bucket] = store.view(now);
    expect(bucket!.skips).toEqual([
      { scorer: 'completeness', agent: 'support-agent', tenant: 'acme', reason: 'sampling', count: 2 },
      // The run had no tenant: (none), as on its score records.
      { scorer: 'completeness', agent: 'support-agent', tenant: NO_TENANT, reason: 'sampling', count: 1 },
      // A decision that does not name its run's agent or tenant.
      { scorer: 'completeness', agent: UNKNOWN, tenant: UNKNOWN, reason: 'filter', count: 1 },
      { scorer: OTHER, agent: OTHER, tenant: OTHER, reason: 'filter', count: 1 },
    ]);
  });

  it('keeps versions apart, and sums squares and verdicts of scored records only', () => {
    const store = aggregates();
    store.addRecord(scoreRecord({ status: 'scored', score: 0.5, verdict: 'pass' }, { version: '2' }), now - 1, now);
    store.addRecord(scoreRecord({ status: 'scored', score: 0.2, verdict: 'fail' }, { version: '2' }), now - 1, now);
    store.addRecord(scoreRecord({ status: 'scored', score: 0.4 }, { version: '2' }), now - 1, now);
    store.addRecord(scoreRecord({ status: 'failed' }, { version: '2' }), now - 1, now);
    store.addRecord(scoreRecord({ status: 'scored', score: 1, verdict: 'pass' }), now - 1, now);
    const [bucket] = store.view(now);
    const two = bucket!.series.find((tally) => tally.version === '2')!;
    expect(two).toMatchObject({ scored: 3, failed: 1, pass: 1, fail: 1 });
    expect(two.sum).toBeCloseTo(1.1, 12);
    expect(two.sumSquares).toBeCloseTo(0.25 + 0.04 + 0.16, 12);
    expect(bucket!.series.find((tally) => tally.version === '')).toMatchObject({ scored: 1, pass: 1, sumSquares: 1 });
  });

  it('counts re-scores apart: never as scores, states or verdicts of their scorer', () => {
    const store = aggregates();
    const rescore = { feedbackId: 'fb-1', reason: 'thumbs-down' as const };
    store.addRecord(scoreRecord({ status: 'scored', score: 0.9, verdict: 'pass' }, { scoreId: 'judged' }), now - 1, now);
    store.addRecord(scoreRecord({ status: 'scored', score: 0.1, verdict: 'fail' }, { scoreId: 'again', rescore }), now - 1, now);
    store.addRecord(scoreRecord({ status: 'failed' }, { scoreId: 'again-failed', rescore: { feedbackId: 'fb-2', reason: 'correction' } }), now - 1, now);
    const [bucket] = store.view(now);
    expect(bucket!.series).toHaveLength(1);
    const tally = bucket!.series[0]!;
    expect(tally).toMatchObject({ scored: 1, notScorable: 0, failed: 0, sum: 0.9, sumSquares: 0.81, pass: 1, fail: 0, rescores: 2 });
    expect(tally.bins.reduce((a, b) => a + b, 0)).toBe(1);
    expect(tally.binSums.reduce((a, b) => a + b, 0)).toBeCloseTo(0.9);
  });

  it('refuses a bucket wider than the window', () => {
    expect(() => new ScoreAggregates({ bucketMs: 2 * minute, windowMs: minute, maxSeriesPerBucket: 1 })).toThrow(/bucketMs/);
  });
});

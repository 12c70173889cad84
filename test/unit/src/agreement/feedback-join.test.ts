import { describe, expect, it } from 'vitest';
import type { FeedbackRecord } from '../../../../src/contracts/feedback-record.ts';
import { FeedbackJoin } from '../../../../src/agreement/feedback-join.ts';
import type { JoinScore } from '../../../../src/agreement/feedback-join.ts';

const score = (runId: string, scoreId = `s-${runId}`, scorerId = 'completeness', scorerVersion?: string): JoinScore => ({ scoreId, runId, scorerId, scorerVersion, score: 0.9 });
const feedback = (runId: string, feedbackId = `f-${runId}`, fields: Partial<FeedbackRecord> = {}): FeedbackRecord => ({ schemaVersion: 1, feedbackId, target: { type: 'run', runId }, source: 'end_user', name: 'thumbs', value: true, submittedAt: '2026-01-01T00:00:00.000Z', ...fields });
const options = { ttlMs: 1_000, maxRuns: 3, maxPerRun: 2 };

describe('FeedbackJoin', () => {
  it('pairs feedback with the scores of its run whichever comes first', () => {
    const join = new FeedbackJoin(options);
    expect(join.addFeedback(feedback('a'), 'a', 0, 0)).toEqual([]);
    expect(join.addScore(score('a'), 10, 10).map((pair) => [pair.feedback.feedbackId, pair.score.scoreId])).toEqual([['f-a', 's-a']]);
    expect(join.addScore(score('b'), 20, 20)).toEqual([]);
    expect(join.addFeedback(feedback('b'), 'b', 30, 30).map((pair) => pair.score.scoreId)).toEqual(['s-b']);
    expect(join.addScore(score('a', 's-a2', 'other'), 40, 40).map((pair) => pair.score.scoreId)).toEqual(['s-a2']);
    expect(join.stats()).toMatchObject({ runs: 2, scores: 3, feedback: 2 });
  });

  it('joins a correction only with its scorer and version', () => {
    const join = new FeedbackJoin({ ...options, maxPerRun: 5 });
    join.addScore(score('a', 's1', 'completeness', '1'), 0, 0);
    join.addScore(score('a', 's2', 'completeness', '2'), 0, 0);
    join.addScore(score('a', 's3', 'relevancy'), 0, 0);
    const pairs = join.addFeedback(feedback('a', 'f', { correction: { scorerId: 'completeness', scorerVersion: '2', label: 'fail' } }), 'a', 0, 0);
    expect(pairs.map((pair) => pair.score.scoreId)).toEqual(['s2']);
  });

  it('keeps a re-delivered record once', () => {
    const join = new FeedbackJoin(options);
    join.addScore(score('a'), 0, 0);
    join.addScore(score('a'), 1, 1);
    join.addFeedback(feedback('a'), 'a', 2, 2);
    expect(join.addFeedback(feedback('a'), 'a', 3, 3)).toHaveLength(1);
    expect(join.stats()).toMatchObject({ runs: 1, scores: 1, feedback: 1 });
  });

  it('holds each item ttlMs after its own time, and ignores what is older already', () => {
    const join = new FeedbackJoin(options);
    join.addScore(score('a'), 0, 0);
    join.addFeedback(feedback('a', 'f1'), 'a', 900, 900);
    expect(join.expire(1_001)).toBe(1);
    expect(join.stats()).toMatchObject({ runs: 1, scores: 0, feedback: 1, expiredItems: 1 });
    expect(join.addScore(score('a', 'late'), 0, 1_500)).toEqual([]);
    expect(join.stats().scores).toBe(0);
    join.expire(1_901);
    expect(join.stats()).toMatchObject({ runs: 0, scores: 0, feedback: 0, expiredItems: 2 });
  });

  it('holds at most maxRuns runs and maxPerRun items a side, counting what it pushes out', () => {
    const join = new FeedbackJoin(options);
    for (const runId of ['a', 'b', 'c', 'd']) join.addScore(score(runId), 0, 0);
    expect(join.stats()).toMatchObject({ runs: 3, scores: 3, evictedRuns: 1 });
    expect(join.addFeedback(feedback('a'), 'a', 0, 0), 'run a was pushed out').toEqual([]);
    for (const scoreId of ['x', 'y', 'z']) join.addScore(score('d', scoreId), Number(scoreId.charCodeAt(0)), 200);
    expect(join.stats()).toMatchObject({ evictedItems: 2 });
    expect(join.addFeedback(feedback('d'), 'd', 200, 200).map((pair) => pair.score.scoreId).sort()).toEqual(['y', 'z']);
    // The bound holds under any load: 10,000 runs of one score and one feedback each.
    const big = new FeedbackJoin({ ttlMs: 1_000, maxRuns: 100, maxPerRun: 4 });
    for (let index = 0; index < 10_000; index += 1) {
      big.addScore(score(`r${index}`), 0, 0);
      big.addFeedback(feedback(`r${index}`), `r${index}`, 0, 0);
    }
    expect(big.stats()).toMatchObject({ runs: 100, scores: 100, feedback: 100, evictedRuns: 9_900 });
  });

  it('refuses bounds that are not positive integers', () => {
    expect(() => new FeedbackJoin({ ...options, maxRuns: 0 })).toThrow(/maxRuns must be a positive integer/);
  });
});

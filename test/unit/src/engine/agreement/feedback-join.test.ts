import { describe, expect, it } from 'vitest';
import type { FeedbackRecord } from '../../../../../src/kit/contracts/feedback-record.ts';
import { FeedbackJoin } from '../../../../../src/engine/agreement/feedback-join.ts';
import type { JoinScore } from '../../../../../src/engine/agreement/feedback-join.ts';
import { threadKeyFor } from '../../../../../src/kit/contracts/thread-ids.ts';

const score = (runId: string, scoreId = `s-${runId}`, scorerId = 'completeness', scorerVersion?: string): JoinScore => ({ scoreId, runId, scorerId, scorerVersion, score: 0.9 });
const feedback = (runId: string, feedbackId = `f-${runId}`, fields: Partial<FeedbackRecord> = {}): FeedbackRecord => ({ schemaVersion: 1, feedbackId, target: { type: 'run', runId }, source: 'end_user', name: 'thumbs', value: true, submittedAt: '2026-01-01T00:00:00.000Z', ...fields });
const options = { ttlMs: 1_000, maxRuns: 3, maxPerRun: 2 };

describe('FeedbackJoin', () => {
  it('pairs feedback with the scores of its run whichever comes first', () => {
    const join = new FeedbackJoin(options);
    expect(join.addFeedback(feedback('a'), 0, 0)).toEqual([]);
    expect(join.addScore(score('a'), 10, 10).map((pair) => [pair.feedback.feedbackId, pair.score.scoreId])).toEqual([['f-a', 's-a']]);
    expect(join.addScore(score('b'), 20, 20)).toEqual([]);
    expect(join.addFeedback(feedback('b'), 30, 30).map((pair) => pair.score.scoreId)).toEqual(['s-b']);
    expect(join.addScore(score('a', 's-a2', 'other'), 40, 40).map((pair) => pair.score.scoreId)).toEqual(['s-a2']);
    expect(join.stats()).toMatchObject({ runs: 2, scores: 3, feedback: 2 });
  });

  it('joins a correction only with its scorer and version', () => {
    const join = new FeedbackJoin({ ...options, maxPerRun: 5 });
    join.addScore(score('a', 's1', 'completeness', '1'), 0, 0);
    join.addScore(score('a', 's2', 'completeness', '2'), 0, 0);
    join.addScore(score('a', 's3', 'relevancy'), 0, 0);
    const pairs = join.addFeedback(feedback('a', 'f', { correction: { scorerId: 'completeness', scorerVersion: '2', label: 'fail' } }), 0, 0);
    expect(pairs.map((pair) => pair.score.scoreId)).toEqual(['s2']);
  });

  it('keeps a re-delivered record once', () => {
    const join = new FeedbackJoin(options);
    join.addScore(score('a'), 0, 0);
    join.addScore(score('a'), 1, 1);
    join.addFeedback(feedback('a'), 2, 2);
    expect(join.addFeedback(feedback('a'), 3, 3)).toHaveLength(1);
    expect(join.stats()).toMatchObject({ runs: 1, scores: 1, feedback: 1 });
  });

  it('holds each item ttlMs after its own time, and ignores what is older already', () => {
    const join = new FeedbackJoin(options);
    join.addScore(score('a'), 0, 0);
    join.addFeedback(feedback('a', 'f1'), 900, 900);
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
    expect(join.addFeedback(feedback('a'), 0, 0), 'run a was pushed out').toEqual([]);
    for (const scoreId of ['x', 'y', 'z']) join.addScore(score('d', scoreId), Number(scoreId.charCodeAt(0)), 200);
    expect(join.stats()).toMatchObject({ evictedItems: 2 });
    expect(join.addFeedback(feedback('d'), 200, 200).map((pair) => pair.score.scoreId).sort()).toEqual(['y', 'z']);
    // The bound holds under any load: 10,000 runs of one score and one feedback each.
    const big = new FeedbackJoin({ ttlMs: 1_000, maxRuns: 100, maxPerRun: 4 });
    for (let index = 0; index < 10_000; index += 1) {
      big.addScore(score(`r${index}`), 0, 0);
      big.addFeedback(feedback(`r${index}`), 0, 0);
    }
    expect(big.stats()).toMatchObject({ runs: 100, scores: 100, feedback: 100, evictedRuns: 9_900 });
  });

  describe('thread feedback', () => {
    const at = (minute: number) => Date.parse('2026-12-01T10:00:00.000Z') + minute * 60_000;
    /** Version `version` of a thread scorer's score of `threadId` (tenant `tenant`), scored at minute `minute`. */
    const threadScore = (threadId: string, version: number, minute: number, fields: { tenant?: string | undefined; scorerId?: string } = {}): JoinScore => {
      const key = threadKeyFor('tenant' in fields ? fields.tenant : 'acme', threadId);
      const scorerId = fields.scorerId ?? 'resolution';
      return { scoreId: `${key}/${scorerId}/v${version}`, runId: `${threadId}-run-${version}`, scorerId, score: 0.9, thread: { id: threadId, key, version, scoredAtMs: at(minute) } };
    };
    const threadFeedback = (threadId: string, minute: number, fields: Partial<FeedbackRecord> & { tenant?: string | undefined } = {}): FeedbackRecord => {
      const { tenant, ...rest } = { tenant: 'acme', ...fields };
      return {
        schemaVersion: 1,
        feedbackId: `f-${threadId}-${minute}`,
        target: { type: 'thread', threadId },
        source: 'end_user',
        name: 'thumbs',
        value: false,
        submittedAt: new Date(at(minute)).toISOString(),
        ...(tenant === undefined ? {} : { metadata: { tenantId: tenant } }),
        ...rest,
      };
    };
    const ids = (pairs: { feedback: FeedbackRecord; score: JoinScore }[]) => pairs.map((pair) => `${pair.feedback.feedbackId}×${pair.score.scoreId}`);
    const big = { ttlMs: 3_600_000, maxRuns: 10, maxPerRun: 8 };

    it('pairs with the thread score whichever comes first', () => {
      const join = new FeedbackJoin(big);
      expect(join.addFeedback(threadFeedback('42', 1), 0, 0)).toEqual([]);
      expect(ids(join.addScore(threadScore('42', 1, 2), 1, 1))).toEqual(['f-42-1×acme:42/resolution/v1']);
      expect(ids(join.addFeedback(threadFeedback('42', 3), 2, 2))).toEqual(['f-42-3×acme:42/resolution/v1']);
    });

    it('compares feedback given before a version with that version; a resumed version 2 leaves it', () => {
      const join = new FeedbackJoin(big);
      join.addFeedback(threadFeedback('42', 1), 0, 0);
      expect(ids(join.addScore(threadScore('42', 1, 15), 1, 1))).toEqual(['f-42-1×acme:42/resolution/v1']);
      expect(join.addScore(threadScore('42', 2, 40), 2, 2)).toEqual([]);
    });

    it('compares feedback given after a version with it until a later version is scored, which then takes its place once', () => {
      const join = new FeedbackJoin(big);
      join.addScore(threadScore('42', 1, 15), 0, 0);
      expect(ids(join.addFeedback(threadFeedback('42', 20), 1, 1))).toEqual(['f-42-20×acme:42/resolution/v1']);
      expect(ids(join.addScore(threadScore('42', 2, 40), 2, 2))).toEqual(['f-42-20×acme:42/resolution/v2']);
      expect(join.addScore(threadScore('42', 3, 60), 3, 3)).toEqual([]);
      // Feedback read after all three (a replay): straight to the same version.
      const replay = new FeedbackJoin(big);
      for (const [index, version] of [[1, 15], [2, 40], [3, 60]] as const) replay.addScore(threadScore('42', index, version), index, index);
      expect(ids(replay.addFeedback(threadFeedback('42', 20), 4, 4))).toEqual(['f-42-20×acme:42/resolution/v2']);
    });

    it('compares one version per thread scorer and scorer version, and a correction only with its scorer', () => {
      const join = new FeedbackJoin(big);
      join.addScore(threadScore('42', 1, 15), 0, 0);
      join.addScore(threadScore('42', 2, 40), 0, 0);
      join.addScore(threadScore('42', 1, 15, { scorerId: 'frustration' }), 0, 0);
      expect(ids(join.addFeedback(threadFeedback('42', 20), 1, 1)).sort()).toEqual(['f-42-20×acme:42/frustration/v1', 'f-42-20×acme:42/resolution/v2']);
      const correction = threadFeedback('42', 21, { correction: { scorerId: 'frustration', label: 'fail' } });
      expect(ids(join.addFeedback(correction, 1, 1))).toEqual(['f-42-21×acme:42/frustration/v1']);
    });

    it('returns the same pair again for a re-delivered score or feedback (the ledger counts it once)', () => {
      const join = new FeedbackJoin(big);
      join.addFeedback(threadFeedback('42', 1), 0, 0);
      join.addScore(threadScore('42', 1, 15), 1, 1);
      expect(ids(join.addScore(threadScore('42', 1, 15), 2, 2))).toEqual(['f-42-1×acme:42/resolution/v1']);
      expect(ids(join.addFeedback(threadFeedback('42', 1), 3, 3))).toEqual(['f-42-1×acme:42/resolution/v1']);
      expect(join.stats()).toMatchObject({ runs: 1, scores: 1, feedback: 1 });
    });

    it("keeps two tenants' thread 42 apart, and feedback without a tenant with the thread of the runs without one", () => {
      const join = new FeedbackJoin(big);
      join.addScore(threadScore('42', 1, 15, { tenant: 'globex' }), 0, 0);
      join.addScore(threadScore('42', 1, 15, { tenant: undefined }), 0, 0);
      expect(join.addFeedback(threadFeedback('42', 20), 1, 1), 'acme has no score of thread 42 yet').toEqual([]);
      expect(ids(join.addFeedback(threadFeedback('42', 21, { tenant: 'globex' }), 1, 1))).toEqual(['f-42-21×globex:42/resolution/v1']);
      expect(ids(join.addFeedback(threadFeedback('42', 22, { tenant: undefined }), 1, 1))).toEqual(['f-42-22×:42/resolution/v1']);
      expect(ids(join.addScore(threadScore('42', 1, 30), 2, 2))).toEqual(['f-42-20×acme:42/resolution/v1']);
    });

    it("never pairs a run's feedback with a thread score, or a thread's with a run's score, whatever the ids", () => {
      const join = new FeedbackJoin(big);
      // The thread score's runId is its last turn's; a thumbs on that turn is about the turn.
      join.addScore(threadScore('42', 1, 15), 0, 0);
      expect(join.addFeedback(feedback('42-run-1'), 1, 1)).toEqual([]);
      // A run whose id spells the thread's key.
      join.addScore(score('thread:acme:42'), 0, 0);
      join.addScore(score('acme:42'), 0, 0);
      expect(ids(join.addFeedback(threadFeedback('42', 20), 1, 1))).toEqual(['f-42-20×acme:42/resolution/v1']);
    });
  });

  it('refuses bounds that are not positive integers', () => {
    expect(() => new FeedbackJoin({ ...options, maxRuns: 0 })).toThrow(/maxRuns must be a positive integer/);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../dashboard/dashboard-limits.ts';
import { DashboardState } from '../../../dashboard/dashboard-state.ts';
import { summarize } from '../../../dashboard/record-summary.ts';
import { scoreRecord } from '../../helpers/dashboard-records.ts';

const minute = 60_000;
const now = 1_000 * minute;
const rescore = { feedbackId: 'fb-<b>1</b>', reason: 'thumbs-down' as const };

describe('summarize', () => {
  it('marks a re-score with its feedback and reason, and a first score not at all', () => {
    expect(summarize(scoreRecord({ status: 'scored', score: 0.2 }, { scoreId: 'again', rescore }), undefined)).toMatchObject({ scoreId: 'again', status: 'scored', score: 0.2, rescore });
    expect(summarize(scoreRecord({ status: 'failed' }, { rescore: { feedbackId: 'fb-2', reason: 'correction' } }), undefined).rescore).toEqual({ feedbackId: 'fb-2', reason: 'correction' });
    expect(summarize(scoreRecord({ status: 'scored', score: 0.9 }), undefined)).not.toHaveProperty('rescore');
  });
});

describe('a re-score in the dashboard state', () => {
  it('goes out live marked, with a tally that counts it apart, and "why no score?" lists it marked', () => {
    const dashboard = new DashboardState({ ...DEFAULT_LIMITS, windowMs: 60 * minute, bucketMs: minute }, { now: () => now });
    dashboard.ingestScore(scoreRecord({ status: 'scored', score: 0.9, verdict: 'pass' }, { runId: 'run-1', scoreId: 'judged', at: now - 2 }), 10);
    const event = dashboard.ingestScore(scoreRecord({ status: 'scored', score: 0.1, verdict: 'fail' }, { runId: 'run-1', scoreId: 'again', at: now - 1, rescore }), 10);
    expect(event?.type).toBe('record');
    if (event?.type !== 'record') return;
    expect(event.data.summary.rescore).toEqual(rescore);
    expect(event.data.tally).toMatchObject({ scored: 1, pass: 1, fail: 0, sum: 0.9, rescores: 1 });
    expect(dashboard.snapshot().recent.find((summary) => summary.scoreId === 'again')?.rescore).toEqual(rescore);
    const entries = dashboard.run('run-1')!.entries;
    expect(entries.map((entry) => (entry.kind === 'score' ? [entry.scoreId, entry.rescore] : []))).toEqual([
      ['judged', undefined],
      ['again', rescore],
    ]);
  });
});

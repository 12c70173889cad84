// `scorestream tail` prints one fixed-width line per score record.
import { describe, expect, it } from 'vitest';
import { formatScoreLine } from '../../../cli/format-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';

const traceId = '0af7651916cd43dd8448eb211c80319c';

const base = {
  schemaVersion: 1 as const,
  scoreId: '00000000-0000-8000-8000-000000000000',
  runId: 'run-1',
  scorerId: 'answer-length',
  entity: { type: 'agent' as const, id: 'support-agent' },
  steps: {},
  prompts: {},
  source: { topic: 'agent-runs', partition: 0, offset: '42' },
  scoredAt: '2026-11-29T12:00:01.234Z',
  durationMs: 12,
};

const scored: ScoreRecord = { ...base, status: 'scored', score: 0.8, trace: { traceId } };

describe('formatScoreLine', () => {
  it('prints time, run, scorer, score to three places and the trace id in fixed columns', () => {
    expect(formatScoreLine(scored)).toBe(
      '12:00:01.234  run-1                    answer-length            score 0.800                  trace 0af7651916cd43dd8448eb211c80319c',
    );
  });

  it('prints "trace -" when the record has no trace', () => {
    const { trace: _trace, ...untraced } = scored;
    expect(formatScoreLine(untraced as ScoreRecord)).toBe('12:00:01.234  run-1                    answer-length            score 0.800                  trace -');
  });

  it('turns the trace id into a link when given a trace URL template', () => {
    expect(formatScoreLine(scored, { traceUrl: 'http://localhost:16686/trace/{traceId}?q={traceId}' })).toBe(
      `12:00:01.234  run-1                    answer-length            score 0.800                  http://localhost:16686/trace/${traceId}?q=${traceId}`,
    );
  });

  it('prints the step and reason of a not-scorable record', () => {
    const record: ScoreRecord = { ...base, status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'no answer' } };
    expect(formatScoreLine(record)).toBe('12:00:01.234  run-1                    answer-length            not scorable at preprocess (no answer) trace -');
    const withoutReason: ScoreRecord = { ...base, status: 'not_scorable', notScorable: { step: 'analyze' } };
    expect(formatScoreLine(withoutReason)).toBe('12:00:01.234  run-1                    answer-length            not scorable at analyze      trace -');
  });

  it('prints the failed step and the first line of the error message', () => {
    const record: ScoreRecord = {
      ...base,
      status: 'failed',
      error: { name: 'Error', message: 'the analyzer exploded\n    at analyze (scorer.ts:1:1)', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: false },
    };
    expect(formatScoreLine(record)).toBe('12:00:01.234  run-1                    answer-length            FAILED at analyze: the analyzer exploded trace -');
  });

  it('does not cut long ids', () => {
    const record: ScoreRecord = { ...scored, runId: 'run-with-a-rather-long-identifier', scorerId: 'a-scorer-with-a-long-name-too' };
    expect(formatScoreLine(record)).toBe(
      '12:00:01.234  run-with-a-rather-long-identifier a-scorer-with-a-long-name-too score 0.800                  trace 0af7651916cd43dd8448eb211c80319c',
    );
  });
});

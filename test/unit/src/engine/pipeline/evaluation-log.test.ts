// A score record as an evaluation log record: the GenAI convention's attributes, on the agent run's
// span, from the record as written (its reason under its evidence level), with Scorestream's own
// attributes for what the convention lacks: ids, version, status, what a re-score supersedes.
import { describe, expect, it } from 'vitest';
import { evaluationLogOf } from '../../../../../src/engine/pipeline/evaluation-event.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';
import { scoreIdFor } from '../../../../../src/kit/contracts/score-id.ts';

const base = {
  schemaVersion: 1 as const,
  scoreId: 'score-1',
  runId: 'run-1',
  scorerId: 'answer-relevancy',
  scorerVersion: '2',
  entity: { type: 'agent' as const, id: 'support' },
  steps: {},
  prompts: {},
  source: { topic: 'agent-runs', partition: 0, offset: '7' },
  scoredAt: '2026-12-06T10:00:00.000Z',
  durationMs: 12,
  trace: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: '00f067aa0ba902b7', spanId: '1111111111111111' },
};

describe('evaluationLogOf', () => {
  it('a scored record: name, value, verdict as the label, the reason as the explanation, on the agent span', () => {
    const log = evaluationLogOf({ ...base, status: 'scored', score: 0.8, verdict: 'pass', reason: 'Relevant to the question.' } as ScoreRecord);
    expect(log).toEqual({
      eventName: 'gen_ai.evaluation.result',
      timeMs: Date.parse('2026-12-06T10:00:00.000Z'),
      // The evaluated span is the agent run's (the record's parent span), not the score span.
      trace: { traceId: base.trace.traceId, spanId: '00f067aa0ba902b7', sampled: true },
      attributes: {
        'gen_ai.evaluation.name': 'answer-relevancy',
        'gen_ai.evaluation.score.value': 0.8,
        'gen_ai.evaluation.score.label': 'pass',
        'gen_ai.evaluation.explanation': 'Relevant to the question.',
        'scorestream.score_id': 'score-1',
        'scorestream.run_id': 'run-1',
        'scorestream.status': 'scored',
        'scorestream.scorer.version': '2',
      },
    });
  });

  it('carries no explanation when the record carries no reason (evidence none, or a code scorer without one)', () => {
    const log = evaluationLogOf({ ...base, status: 'scored', score: 1, evidence: 'none' } as ScoreRecord);
    expect(log.attributes).not.toHaveProperty('gen_ai.evaluation.explanation');
    expect(log.attributes).not.toHaveProperty('gen_ai.evaluation.score.label');
  });

  it('failed and not_scorable are evaluations too: the status as the label, where and why as the explanation', () => {
    const failed = evaluationLogOf({ ...base, status: 'failed', error: { name: 'JudgeError', message: 'judge timed out after 30000 ms', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: true } } as ScoreRecord);
    expect(failed.attributes).toMatchObject({ 'gen_ai.evaluation.score.label': 'failed', 'gen_ai.evaluation.explanation': 'analyze: judge timed out after 30000 ms', 'scorestream.status': 'failed' });
    expect(failed.attributes).not.toHaveProperty('gen_ai.evaluation.score.value');
    const notScorable = evaluationLogOf({ ...base, status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'The agent called no tools.' } } as ScoreRecord);
    expect(notScorable.attributes).toMatchObject({ 'gen_ai.evaluation.score.label': 'not_scorable', 'gen_ai.evaluation.explanation': 'preprocess: The agent called no tools.' });
  });

  it("names what a feedback re-score supersedes: the pair's own score id", () => {
    const log = evaluationLogOf({ ...base, scoreId: 'rescore-1', status: 'scored', score: 0.2, rescore: { feedbackId: 'fb-9', reason: 'thumbs-down' } } as ScoreRecord);
    expect(log.attributes).toMatchObject({ 'scorestream.supersedes': scoreIdFor({ runId: 'run-1', scorerId: 'answer-relevancy', scorerVersion: '2' }), 'scorestream.rescore.feedback_id': 'fb-9', 'scorestream.score_id': 'rescore-1' });
  });

  it("says an escalated judge's tier", () => {
    const log = evaluationLogOf({ ...base, status: 'scored', score: 0.3, escalation: { tier: 'sampled', after: ['tool-check'], sample: { rate: 0.05, bucket: 0.01 } } } as ScoreRecord);
    expect(log.attributes['scorestream.escalation.tier']).toBe('sampled');
    expect(evaluationLogOf({ ...base, status: 'scored', score: 0.3 } as ScoreRecord).attributes).not.toHaveProperty('scorestream.escalation.tier');
  });

  it('a thread score: on its last turn, the turns named by run id, the version it supersedes', () => {
    const thread = { id: 't-1', key: 'acme:t-1', turns: 3, firstRunId: 'run-1', lastRunId: 'run-3', closedBy: 'idle' as const, version: 2, versionId: 'v-2', scope: 'conversation' as const, supersedes: 'v-1', runIds: ['run-1', 'run-2', 'run-3'] };
    const log = evaluationLogOf({ ...base, runId: 'run-3', status: 'scored', score: 0.5, thread } as ScoreRecord);
    expect(log.attributes).toMatchObject({ 'scorestream.thread.id': 't-1', 'scorestream.thread.version': 2, 'scorestream.thread.version_id': 'v-2', 'scorestream.thread.turns': 3, 'scorestream.thread.run_ids': ['run-1', 'run-2', 'run-3'], 'scorestream.thread.supersedes': 'v-1' });
  });

  it('has no span to sit on when the run had no trace context, and keeps a declined trace declined', () => {
    const { trace: _trace, ...untraced } = base;
    expect(evaluationLogOf({ ...untraced, status: 'scored', score: 1 } as ScoreRecord).trace).toBeUndefined();
    expect(evaluationLogOf({ ...base, trace: { ...base.trace, sampled: false }, status: 'scored', score: 1 } as ScoreRecord).trace?.sampled).toBe(false);
  });
});

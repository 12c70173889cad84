// Evidence levels on a score record: `full` untouched; `no-content` keeps models, tokens,
// durations, costs, status and score and drops prompts, outputs, step results and the reason;
// `none` drops the judge executions too. Errors and not-scorable reasons stay.
import { describe, expect, it } from 'vitest';
import { applyEvidence } from '../../../../../src/engine/data-handling/apply-evidence.ts';
import { parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import type { JudgeExecution } from '../../../../../src/kit/contracts/judge-execution.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';

const execution: JudgeExecution = {
  status: 'success',
  prompt: 'Rate this answer: the customer alice@example.com asked…',
  judgeModelId: 'gpt-4o-mini',
  judgeProvider: 'openai',
  attemptCount: 1,
  modelCallCount: 1,
  durationMs: 812,
  queuedMs: 3,
  finishReason: 'stop',
  output: { verdict: 'yes', quote: 'alice@example.com' },
  usage: { inputTokens: 120, outputTokens: 14, totalTokens: 134 },
  cost: { amount: 0.0001, unit: 'USD', source: 'price-table' },
};
const failedExecution: JudgeExecution = { ...execution, status: 'failed', rawOutput: 'not json: alice@example.com', error: { name: 'NoObjectGeneratedError', message: 'could not parse' } };

const record: ScoreRecord = {
  schemaVersion: 1,
  scoreId: 'id-1',
  runId: 'run-1',
  scorerId: 'faithfulness',
  entity: { type: 'agent', id: 'support' },
  metadata: { tenantId: 'acme' },
  steps: { preprocess: { claims: ['alice@example.com is the customer'] }, analyze: { verdicts: ['yes'] } },
  prompts: { analyze: 'Judge: …alice@example.com…' },
  judge: { analyze: { executions: [execution] } },
  source: { topic: 'runs', partition: 0, offset: '7' },
  scoredAt: '2026-12-01T00:00:00.000Z',
  durationMs: 900,
  status: 'scored',
  score: 0.8,
  reason: 'The answer names alice@example.com correctly.',
  retries: { firstFailedAt: '2026-11-30T23:00:00.000Z', attempts: [{ failedAt: '2026-11-30T23:00:00.000Z', durationMs: 30_000, error: { name: 'APICallError', message: '503', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: true }, judge: { analyze: { executions: [failedExecution] } } }] },
};

describe('applyEvidence', () => {
  it("returns the record itself at 'full'", () => {
    expect(applyEvidence(record, 'full')).toBe(record);
  });

  it("'no-content': no prompts, step results, outputs or reason; models, tokens, durations, costs, status and score stay", () => {
    const kept = applyEvidence(record, 'no-content');
    expect(parseScoreRecord(kept).success).toBe(true);
    expect(JSON.stringify(kept)).not.toContain('alice@example.com');
    expect(kept).toMatchObject({ status: 'scored', score: 0.8, steps: {}, prompts: {}, evidence: 'no-content', metadata: { tenantId: 'acme' } });
    expect('reason' in kept).toBe(false);
    expect(kept.judge).toEqual({
      analyze: { executions: [{ status: 'success', judgeModelId: 'gpt-4o-mini', judgeProvider: 'openai', attemptCount: 1, modelCallCount: 1, durationMs: 812, queuedMs: 3, finishReason: 'stop', usage: { inputTokens: 120, outputTokens: 14, totalTokens: 134 }, cost: { amount: 0.0001, unit: 'USD', source: 'price-table' } }] },
    });
    // The earlier attempts keep their errors and their judges' figures, not their content.
    const attempt = kept.retries!.attempts[0]!;
    expect(attempt.error.message).toBe('503');
    expect(attempt.judge!.analyze!.executions[0]).toMatchObject({ status: 'failed', usage: { inputTokens: 120 }, error: { name: 'NoObjectGeneratedError' } });
    expect(attempt.judge!.analyze!.executions[0]).not.toHaveProperty('rawOutput');
  });

  it("'none': no judge evidence either; the score, the ids and the errors stay", () => {
    const kept = applyEvidence(record, 'none');
    expect(parseScoreRecord(kept).success).toBe(true);
    expect(kept).toMatchObject({ status: 'scored', score: 0.8, runId: 'run-1', scoreId: 'id-1', steps: {}, prompts: {}, evidence: 'none' });
    expect(kept).not.toHaveProperty('judge');
    expect(kept.retries!.attempts[0]).not.toHaveProperty('judge');
    expect(kept.retries!.attempts[0]!.error.retryable).toBe(true);
  });

  it('keeps why a record has no score: a not-scorable reason and a failure', () => {
    const notScorable = { ...record, status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'no claims to check' } } as unknown as ScoreRecord;
    delete (notScorable as { score?: number }).score;
    expect(applyEvidence(notScorable, 'none')).toMatchObject({ status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'no claims to check' } });
  });
});

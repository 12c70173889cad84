// Score and decision records for the dashboard tests, valid by the contracts (docs/contracts.md).
import type { DecisionRecord } from '../../src/contracts/decision-record.ts';
import type { ScoreRecord } from '../../src/contracts/score-record.ts';

type Outcome = { status: 'scored'; score: number } | { status: 'not_scorable' } | { status: 'failed' };

export function scoreRecord(outcome: Outcome, fields: { scoreId?: string; runId?: string; scorerId?: string; agent?: string; tenant?: string; at?: number; trace?: { traceId: string; spanId?: string } } = {}): ScoreRecord {
  const base = {
    schemaVersion: 1 as const,
    scoreId: fields.scoreId ?? `score-${Math.random().toString(36).slice(2)}`,
    runId: fields.runId ?? 'run-1',
    scorerId: fields.scorerId ?? 'completeness',
    entity: { type: 'agent' as const, id: fields.agent ?? 'support-agent' },
    ...(fields.tenant === undefined ? {} : { metadata: { tenantId: fields.tenant } }),
    steps: {},
    prompts: {},
    ...(fields.trace === undefined ? {} : { trace: fields.trace }),
    source: { topic: 'agent-runs', partition: 0, offset: '0' },
    scoredAt: new Date(fields.at ?? 1_000_000).toISOString(),
    durationMs: 5,
  };
  if (outcome.status === 'scored') return { ...base, status: 'scored', score: outcome.score, reason: 'fine' };
  if (outcome.status === 'not_scorable') return { ...base, status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'no tool calls' } };
  return { ...base, status: 'failed', error: { name: 'JudgeError', message: 'the judge timed out', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: true } };
}

export function decisionRecord(fields: { runId?: string; scorerId?: string; reason?: DecisionRecord['reason']; at?: number } = {}): DecisionRecord {
  return {
    schemaVersion: 1,
    runId: fields.runId ?? 'run-1',
    scorerId: fields.scorerId ?? 'completeness',
    decision: 'skipped',
    reason: fields.reason ?? 'sampling',
    source: { topic: 'agent-runs', partition: 0, offset: '0' },
    decidedAt: new Date(fields.at ?? 1_000_000).toISOString(),
  };
}

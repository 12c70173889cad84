// Score, decision and agreement records for the dashboard tests, valid by the contracts (docs/contracts.md).
import type { AgreementPair, AgreementWindow } from '../../src/kit/contracts/agreement-record.ts';
import type { DecisionRecord } from '../../src/kit/contracts/decision-record.ts';
import type { RescoreMark } from '../../src/kit/contracts/rescore-request.ts';
import type { ScoreRecord } from '../../src/kit/contracts/score-record.ts';

type Outcome = { status: 'scored'; score: number; verdict?: 'pass' | 'fail' } | { status: 'not_scorable' } | { status: 'failed' };

export function scoreRecord(
  outcome: Outcome,
  fields: { scoreId?: string; runId?: string; scorerId?: string; version?: string; agent?: string; tenant?: string; at?: number; trace?: { traceId: string; spanId?: string }; rescore?: RescoreMark } = {},
): ScoreRecord {
  const base = {
    schemaVersion: 1 as const,
    scoreId: fields.scoreId ?? `score-${Math.random().toString(36).slice(2)}`,
    runId: fields.runId ?? 'run-1',
    scorerId: fields.scorerId ?? 'completeness',
    ...(fields.version === undefined ? {} : { scorerVersion: fields.version }),
    entity: { type: 'agent' as const, id: fields.agent ?? 'support-agent' },
    ...(fields.tenant === undefined ? {} : { metadata: { tenantId: fields.tenant } }),
    steps: {},
    prompts: {},
    ...(fields.trace === undefined ? {} : { trace: fields.trace }),
    ...(fields.rescore === undefined ? {} : { rescore: fields.rescore }),
    source: { topic: 'agent-runs', partition: 0, offset: '0' },
    scoredAt: new Date(fields.at ?? 1_000_000).toISOString(),
    durationMs: 5,
  };
  if (outcome.status === 'scored') return { ...base, status: 'scored', score: outcome.score, reason: 'fine', ...(outcome.verdict === undefined ? {} : { verdict: outcome.verdict }) };
  if (outcome.status === 'not_scorable') return { ...base, status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'no tool calls' } };
  return { ...base, status: 'failed', error: { name: 'JudgeError', message: 'the judge timed out', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: true } };
}

/** A skip decision; `agent` (and `tenant`) give it the run's entity and metadata, as decisions of current services carry. */
export function decisionRecord(fields: { runId?: string; scorerId?: string; reason?: DecisionRecord['reason']; at?: number; agent?: string; tenant?: string } = {}): DecisionRecord {
  return {
    schemaVersion: 1,
    runId: fields.runId ?? 'run-1',
    scorerId: fields.scorerId ?? 'completeness',
    ...(fields.agent === undefined ? {} : { entity: { type: 'agent' as const, id: fields.agent } }),
    ...(fields.tenant === undefined ? {} : { metadata: { tenantId: fields.tenant } }),
    decision: 'skipped',
    reason: fields.reason ?? 'sampling',
    source: { topic: 'agent-runs', partition: 0, offset: '0' },
    decidedAt: new Date(fields.at ?? 1_000_000).toISOString(),
  };
}

/** An agreement pair (AgreementRecord v1) between a score record and a person's feedback. */
export function agreementPair(
  fields: { agreementId?: string; scoreId?: string; runId?: string; scorerId?: string; version?: string; agent?: string; tenant?: string; agree?: boolean; judge?: { score: number; label: string }; human?: Partial<AgreementPair['human']>; at?: number } = {},
): AgreementPair {
  return {
    schemaVersion: 1,
    kind: 'pair',
    agreementId: fields.agreementId ?? `agreement-${Math.random().toString(36).slice(2)}`,
    feedbackId: 'feedback-1',
    scoreId: fields.scoreId ?? 'score-1',
    runId: fields.runId ?? 'run-1',
    scorerId: fields.scorerId ?? 'answer-relevancy',
    ...(fields.version === undefined ? {} : { scorerVersion: fields.version }),
    ...(fields.agent === undefined ? {} : { entity: { type: 'agent' as const, id: fields.agent } }),
    ...(fields.tenant === undefined ? {} : { metadata: { tenantId: fields.tenant } }),
    judge: fields.judge ?? { score: 0.9, label: 'pass' },
    human: { name: 'thumbs', value: false, label: 'fail', source: 'end_user', ...fields.human },
    agree: fields.agree ?? false,
    measuredAt: new Date(fields.at ?? 1_000_000).toISOString(),
  };
}

/** A window summary (AgreementRecord v1) of a scorer version, from a confusion matrix over pass/fail or the given labels. */
export function agreementWindow(
  fields: { scorerId?: string; version?: string; start: number; end: number; labels?: string[]; counts: number[][]; kappa: number | null; accuracy: number | null; weightedKappa?: { linear: number | null; quadratic: number | null }; measuredAt?: number },
): AgreementWindow {
  const n = fields.counts.flat().reduce((sum, count) => sum + count, 0);
  return {
    schemaVersion: 1,
    kind: 'window',
    scorerId: fields.scorerId ?? 'answer-relevancy',
    ...(fields.version === undefined ? {} : { scorerVersion: fields.version }),
    windowStart: new Date(fields.start).toISOString(),
    windowEnd: new Date(fields.end).toISOString(),
    n,
    agreements: fields.counts.reduce((sum, row, index) => sum + row[index]!, 0),
    accuracy: fields.accuracy,
    kappa: fields.kappa,
    ...(fields.weightedKappa === undefined ? {} : { weightedKappa: fields.weightedKappa }),
    confusion: { labels: fields.labels ?? ['pass', 'fail'], counts: fields.counts },
    measuredAt: new Date(fields.measuredAt ?? fields.end).toISOString(),
  };
}

/** A thread scorer's score record: version `version` of thread `threadId` (tenant `tenant`), `turns` turns ending with `lastRunId`. */
export function threadScoreRecord(
  outcome: Outcome,
  fields: { threadId: string; tenant?: string; version: number; turns: number; scorerId?: string; at?: number; closedBy?: 'idle' | 'ended' | 'max_turns'; supersedes?: string; agent?: string },
): ScoreRecord {
  const key = `${fields.tenant ?? ''}:${fields.threadId}`;
  const versionId = `${key}-v${fields.version}`;
  const record = scoreRecord(outcome, { scoreId: `${versionId}-${fields.scorerId ?? 'turn-count'}`, runId: `${fields.threadId}-run-${fields.turns}`, scorerId: fields.scorerId ?? 'turn-count', at: fields.at, tenant: fields.tenant, agent: fields.agent });
  return {
    ...record,
    thread: {
      id: fields.threadId,
      key,
      turns: fields.turns,
      firstRunId: `${fields.threadId}-run-1`,
      lastRunId: `${fields.threadId}-run-${fields.turns}`,
      closedBy: fields.closedBy ?? 'idle',
      version: fields.version,
      versionId,
      scope: 'conversation',
      ...(fields.supersedes === undefined ? {} : { supersedes: fields.supersedes }),
      runIds: Array.from({ length: fields.turns }, (_, index) => `${fields.threadId}-run-${index + 1}`),
    },
  };
}

/** A thread scorer's decision about thread `threadId` (tenant `tenant`): why a close of `turns` turns gave no score. */
export function threadDecisionRecord(fields: { threadId: string; tenant?: string; turns: number; reason: DecisionRecord['reason']; scorerId?: string; at?: number; detail?: string }): DecisionRecord {
  const record = decisionRecord({ runId: `${fields.threadId}-run-${fields.turns}`, scorerId: fields.scorerId ?? 'turn-count', reason: fields.reason, at: fields.at, agent: 'support-agent', tenant: fields.tenant });
  return {
    ...record,
    ...(fields.detail === undefined ? {} : { detail: fields.detail }),
    thread: { id: fields.threadId, key: `${fields.tenant ?? ''}:${fields.threadId}`, turns: fields.turns, firstRunId: `${fields.threadId}-run-1`, lastRunId: `${fields.threadId}-run-${fields.turns}`, closedBy: 'idle' },
  };
}

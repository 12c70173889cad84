// A pair's attempt, finished: its outcome. A score, a not-scorable and a final failure are the
// record (with the earlier attempts under `retries` when there were any); a transient failure
// that retries allow (planRetry) is deferred instead — the retry message with the run event, the
// binding's identity, sampling and escalation tier, every attempt's evidence, the latency and the
// judge spend so far, its `deferred` decision, and the
// failed record to publish as final should the retry message not be writable (docs/delivery.md,
// retries). Pure: the caller brings the clock reading.
import type { RetryMessage } from '../../kit/contracts/retry-message.ts';
import { RETRY_MESSAGE_SCHEMA_VERSION } from '../../kit/contracts/retry-message.ts';
import type { FailedScoreRecord, RetryAttempt, ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { BatchRequest } from '../judge-batch/batch-request.ts';
import type { KeyedBatchAnswer } from '../judge-batch/batch-judge.ts';
import { buildDecisionRecord } from './build-decision-record.ts';
import { planRetry } from './retry-plan.ts';
import type { RetryPolicy } from './retry-plan.ts';
import type { RunFacts } from './run-facts.ts';
import type { ScoringOutcome } from './scoring-outcome.ts';
import { isoTime } from '../../kit/contracts/iso-time.ts';

/** What earlier attempts left: nothing on a first attempt; the retry message's history on a retry. */
export type PairHistory = { firstFailedAt?: string; attempts: readonly RetryAttempt[] };

export const noHistory: PairHistory = Object.freeze({ attempts: [] });

function attemptOf(record: FailedScoreRecord): RetryAttempt {
  return { failedAt: record.scoredAt, durationMs: record.durationMs, error: record.error, ...(record.judge === undefined ? {} : { judge: record.judge }) };
}

export function withHistory<Record extends ScoreRecord>(record: Record, history: PairHistory): Record {
  if (history.attempts.length === 0 || history.firstFailedAt === undefined) return record;
  return { ...record, retries: { firstFailedAt: history.firstFailedAt, attempts: [...history.attempts] } };
}

export function pairOutcome(record: ScoreRecord, facts: RunFacts, history: PairHistory, retries: RetryPolicy | undefined, nowMs: number, answers?: BatchAnswered): ScoringOutcome {
  // Only a failure can be deferred: a scored or not-scorable record goes straight out.
  if (record.status !== 'failed' || retries === undefined) return { kind: 'record', record: withHistory(record, history) };
  const firstFailedAt = history.firstFailedAt ?? record.scoredAt;
  const plan = planRetry(record, retries, history.attempts.length, Date.parse(firstFailedAt), nowMs);
  if (plan.action === 'final') return { kind: 'record', record: withHistory(record, history) };
  const dueAt = isoTime(plan.dueAtMs);
  // A batch-mode pair keeps what earlier batches answered: the retry asks only what failed again.
  const reusable = reusableAnswers(answers);
  const batch = reusable === undefined || reusable.answers.length === 0 ? undefined : { ...reusable, requests: [], answers: [...reusable.answers] };
  const retry = retryMessageOf(record, facts, { attempt: plan.attempt, firstFailedAt, dueAt, attempts: [...history.attempts, attemptOf(record)], batch });
  const decision = buildDecisionRecord(pairOf(record, facts), { decision: 'deferred', reason: 'deferred_retry', detail: `${record.error.name}: ${record.error.message}`.slice(0, 500), ...(record.sampling === undefined ? {} : { sampling: record.sampling }), retry: { attempt: plan.attempt, dueAt } }, isoTime(nowMs));
  return { kind: 'deferred', retry, delayMs: plan.tierDelayMs, decision, final: withHistory(record, history) };
}

/** What a batch-mode pair's earlier batches answered (the retry message's `batch`), carried through its attempts. */
export type BatchAnswered = { readonly deferredAt: string; readonly answers: readonly KeyedBatchAnswer[]; readonly counted?: readonly string[] };

/** The answers a later attempt may reuse (a failed answer was given to its attempt only), each now counted in the spend. */
export function reusableAnswers(answered: BatchAnswered | undefined): (BatchAnswered & { counted: string[] }) | undefined {
  if (answered === undefined) return undefined;
  const answers = answered.answers.filter((answer) => answer.status === 'succeeded');
  return { deferredAt: answered.deferredAt, answers, counted: answers.map((answer) => answer.customId) };
}

/**
 * A batch-mode pair's judge call was deferred to the batch tier (its binding's judge mode is
 * 'batch', src/engine/judge-batch/): not a failure — no attempt is counted — but a wait for
 * `requests`, with the answers earlier rounds gave and those its live fallback got this round
 * (both counted already). `record` is the attempt's failed record (the deferral's error),
 * published as final should the batch message not be writable.
 */
export function batchOutcome(deferral: { record: FailedScoreRecord; requests: readonly BatchRequest[]; liveAnswers: readonly KeyedBatchAnswer[] }, facts: RunFacts, history: PairHistory, answered: BatchAnswered | undefined, nowMs: number): ScoringOutcome {
  const { record, requests } = deferral;
  const reusable = reusableAnswers(answered);
  const answers = [...(reusable?.answers ?? []).filter((answer) => !deferral.liveAnswers.some((live) => live.customId === answer.customId)), ...deferral.liveAnswers];
  const batch = { deferredAt: answered?.deferredAt ?? isoTime(nowMs), requests: [...requests], answers, counted: answers.map((answer) => answer.customId) };
  // No spend of its own: the next round answers this attempt's calls again and its record prices them all.
  const retry = retryMessageOf({ ...record, spend: undefined }, facts, { attempt: history.attempts.length, firstFailedAt: history.firstFailedAt, dueAt: isoTime(nowMs), attempts: [...history.attempts], batch });
  const round = batch.answers.length === 0 ? '' : ` (round ${batch.answers.length + 1}: earlier rounds answered ${batch.answers.length})`;
  const detail = `waiting on a judge batch for ${requests.length} request${requests.length === 1 ? '' : 's'}${round}`;
  const decision = buildDecisionRecord(pairOf(record, facts), { decision: 'deferred', reason: 'deferred_batch', detail, ...(record.sampling === undefined ? {} : { sampling: record.sampling }) }, isoTime(nowMs));
  return { kind: 'deferred', retry, delayMs: 0, batch: true, decision, final: withHistory(record, history) };
}

function pairOf(record: ScoreRecord, facts: RunFacts) {
  return { runId: record.runId, event: facts.event, scorerId: record.scorerId, scorerVersion: record.scorerVersion, trace: record.trace, source: record.source };
}

type RetryPlace = { attempt: number; firstFailedAt: string | undefined; dueAt: string; attempts: RetryAttempt[]; batch: RetryMessage['batch'] };

function retryMessageOf(record: ScoreRecord, facts: RunFacts, place: RetryPlace): RetryMessage {
  return {
    schemaVersion: RETRY_MESSAGE_SCHEMA_VERSION,
    runId: record.runId,
    scorerId: record.scorerId,
    ...(record.scorerVersion === undefined ? {} : { scorerVersion: record.scorerVersion }),
    attempt: place.attempt,
    ...(place.firstFailedAt === undefined ? {} : { firstFailedAt: place.firstFailedAt }),
    dueAt: place.dueAt,
    source: record.source,
    trace: facts.trace,
    ...(record.sampling === undefined ? {} : { sampling: record.sampling }),
    ...(record.escalation === undefined ? {} : { escalation: record.escalation }),
    attempts: place.attempts,
    event: facts.event,
    ...(record.latency === undefined ? {} : { latency: record.latency }),
    ...(record.spend === undefined ? {} : { spend: record.spend }),
    ...(place.batch === undefined ? {} : { batch: place.batch }),
  };
}

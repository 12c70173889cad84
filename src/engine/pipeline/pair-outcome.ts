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

export function pairOutcome(record: ScoreRecord, facts: RunFacts, history: PairHistory, retries: RetryPolicy | undefined, nowMs: number): ScoringOutcome {
  // Only a failure can be deferred: a scored or not-scorable record goes straight out.
  if (record.status !== 'failed' || retries === undefined) return { kind: 'record', record: withHistory(record, history) };
  const firstFailedAt = history.firstFailedAt ?? record.scoredAt;
  const plan = planRetry(record, retries, history.attempts.length, Date.parse(firstFailedAt), nowMs);
  if (plan.action === 'final') return { kind: 'record', record: withHistory(record, history) };
  const dueAt = isoTime(plan.dueAtMs);
  const retry: RetryMessage = {
    schemaVersion: RETRY_MESSAGE_SCHEMA_VERSION,
    runId: record.runId,
    scorerId: record.scorerId,
    ...(record.scorerVersion === undefined ? {} : { scorerVersion: record.scorerVersion }),
    attempt: plan.attempt,
    firstFailedAt,
    dueAt,
    source: record.source,
    trace: facts.trace,
    ...(record.sampling === undefined ? {} : { sampling: record.sampling }),
    ...(record.escalation === undefined ? {} : { escalation: record.escalation }),
    attempts: [...history.attempts, attemptOf(record)],
    event: facts.event,
    ...(record.latency === undefined ? {} : { latency: record.latency }),
    ...(record.spend === undefined ? {} : { spend: record.spend }),
  };
  const decision = buildDecisionRecord(
    { runId: record.runId, event: facts.event, scorerId: record.scorerId, scorerVersion: record.scorerVersion, trace: record.trace, source: record.source },
    {
      decision: 'deferred',
      reason: 'deferred_retry',
      detail: `${record.error.name}: ${record.error.message}`.slice(0, 500),
      ...(record.sampling === undefined ? {} : { sampling: record.sampling }),
      retry: { attempt: plan.attempt, dueAt },
    },
    isoTime(nowMs),
  );
  return { kind: 'deferred', retry, delayMs: plan.tierDelayMs, decision, final: withHistory(record, history) };
}

// A finished pair's way out (docs/delivery.md, retries): its score record is published, unless it
// failed transiently and retries allow another attempt (planRetry). Then a retry message goes to
// the retry topic instead — with the run event, the binding's identity and sampling, and every
// attempt's evidence — and, with a decisions topic, a `deferred` decision record. Both go through
// the message's output like any record, so they are acknowledged before the offset is committed
// (at-least-once) or land in the same transaction as it (exactly-once). A retry message that would
// not fit `maxMessageBytes` even without its older attempts' judge evidence is not deferred: the
// failure is published as final rather than risk a message the broker refuses for ever.
import type { IHeaders } from 'kafkajs';
import type { AgentRunEvent } from '../src/contracts/agent-run-event.ts';
import type { Source } from '../src/contracts/common.ts';
import { recordKeyFor } from '../src/contracts/record-key.ts';
import { dataHandlingOf } from '../src/data-handling/data-handling.ts';
import type { DecisionRecord } from '../src/contracts/decision-record.ts';
import { RETRY_DUE_HEADER, RETRY_MESSAGE_SCHEMA_VERSION } from '../src/contracts/retry-message.ts';
import type { RetryMessage } from '../src/contracts/retry-message.ts';
import type { FailedScoreRecord, RetryAttempt, ScoreRecord } from '../src/contracts/score-record.ts';
import type { RunTraceFacts } from '../src/pipeline/run-facts.ts';
import { planRetry } from '../src/pipeline/retry-plan.ts';
import { originHeaders } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import { publishScoreRecord } from './publish-score-record.ts';
import { publishUntilAcknowledged } from './publish-until-acknowledged.ts';
import type { MessageOutput } from './record-sink.ts';

/** What earlier attempts left: nothing on the runs topic; the retry message's history on the retry topic. */
export type PairHistory = { firstFailedAt?: string; attempts: readonly RetryAttempt[] };

export const noHistory: PairHistory = Object.freeze({ attempts: [] });

export type FinishedPair = {
  record: ScoreRecord;
  event: AgentRunEvent;
  trace: RunTraceFacts;
  history: PairHistory;
  /** The message being processed (runs or retry topic), for logs. */
  source: Source;
};

function attemptOf(record: FailedScoreRecord): RetryAttempt {
  return { failedAt: record.scoredAt, durationMs: record.durationMs, error: record.error, ...(record.judge === undefined ? {} : { judge: record.judge }) };
}

function withHistory(record: ScoreRecord, history: PairHistory): ScoreRecord {
  if (history.attempts.length === 0 || history.firstFailedAt === undefined) return record;
  return { ...record, retries: { firstFailedAt: history.firstFailedAt, attempts: [...history.attempts] } };
}

/** The retry message's JSON, or undefined when even the slimmed message exceeds `maxBytes`. */
function serializeRetry(message: RetryMessage, maxBytes: number): string | undefined {
  const full = JSON.stringify(message);
  if (Buffer.byteLength(full) <= maxBytes) return full;
  // Older attempts' judge evidence (prompts included) is what grows; the latest stays.
  const attempts = message.attempts.map((attempt, index) => (index === message.attempts.length - 1 ? attempt : { ...attempt, judge: undefined }));
  const slim = JSON.stringify({ ...message, attempts });
  return Buffer.byteLength(slim) <= maxBytes ? slim : undefined;
}

export async function publishOrDefer(pair: FinishedPair, output: MessageOutput, context: MessageContext): Promise<void> {
  const { record, history } = pair;
  const { config, stats } = context;
  // Only a failure can be deferred: a scored or not-scorable record goes straight out.
  if (record.status === 'failed') {
    const nowMs = context.now();
    const firstFailedAt = history.firstFailedAt ?? record.scoredAt;
    const plan = planRetry(record, config.retries, history.attempts.length, Date.parse(firstFailedAt), nowMs);
    if (plan.action === 'defer') {
      const dueAt = new Date(plan.dueAtMs).toISOString();
      const message: RetryMessage = {
        schemaVersion: RETRY_MESSAGE_SCHEMA_VERSION,
        runId: record.runId,
        scorerId: record.scorerId,
        ...(record.scorerVersion === undefined ? {} : { scorerVersion: record.scorerVersion }),
        attempt: plan.attempt,
        firstFailedAt,
        dueAt,
        source: record.source,
        trace: pair.trace,
        ...(record.sampling === undefined ? {} : { sampling: record.sampling }),
        attempts: [...history.attempts, attemptOf(record)],
        event: pair.event,
      };
      const value = serializeRetry(message, config.maxMessageBytes);
      if (value !== undefined) {
        const headers: IHeaders = { ...originHeaders, [RETRY_DUE_HEADER]: String(plan.dueAtMs) };
        const records = [{ topic: config.topics.retry, key: record.runId, value, headers }];
        const decisionsTopic = config.topics.decisions;
        if (decisionsTopic !== undefined) records.push({ topic: decisionsTopic, ...recordKeyFor(record), value: JSON.stringify(dataHandlingOf(config).decisionRecord(deferredDecision(record, plan.attempt, dueAt, nowMs))), headers: originHeaders });
        await publishUntilAcknowledged(output, records, pair.source, context);
        stats.retriesDeferred += 1;
        context.logger.debug({ source: pair.source, runId: record.runId, scorerId: record.scorerId, attempt: plan.attempt, dueAt }, 'deferred a transiently failed pair to the retry topic');
        return;
      }
      context.logger.warn({ source: pair.source, runId: record.runId, scorerId: record.scorerId }, 'a retry message would exceed maxMessageBytes; publishing the failure as final');
    }
  }
  if (record.status === 'failed' && record.error.retryable && history.attempts.length > 0) stats.retriesExhausted += 1;
  await publishScoreRecord(withHistory(record, history), Date.parse(pair.event.timestamp), pair.source, output, context);
}

function deferredDecision(record: FailedScoreRecord, attempt: number, dueAt: string, nowMs: number): DecisionRecord {
  return {
    schemaVersion: 1,
    runId: record.runId,
    scorerId: record.scorerId,
    ...(record.scorerVersion === undefined ? {} : { scorerVersion: record.scorerVersion }),
    decision: 'deferred',
    reason: 'deferred_retry',
    detail: `${record.error.name}: ${record.error.message}`.slice(0, 500),
    ...(record.sampling === undefined ? {} : { sampling: record.sampling }),
    ...(record.trace === undefined ? {} : { trace: record.trace }),
    source: record.source,
    decidedAt: new Date(nowMs).toISOString(),
    retry: { attempt, dueAt },
  };
}

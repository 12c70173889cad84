// What every role applies to everything it sends out of the process (docs/data-handling.md):
// per binding the evidence level of its score records, then redaction of every string a record
// carries but the ids Kafka keys and readers join on — a person's feedback comment in an agreement
// record included. Compiled once per resolved config (a config is immutable once resolved) and
// memoised by it, so the one call on the way out — `handling.outgoing(payload)` in
// consumers/emitter/record-emitter.ts, before records are keyed, marked and sized — needs nothing
// wired. The same redactor goes to the logger and to the spans (otel/).
import type { AgreementRecord } from '../../kit/contracts/agreement-record.ts';
import type { AlertRecord } from '../../kit/contracts/alert-record.ts';
import type { DeadLetter } from '../../kit/contracts/dead-letter.ts';
import type { DecisionRecord } from '../../kit/contracts/decision-record.ts';
import type { RetryMessage } from '../../kit/contracts/retry-message.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { ScoringOutcome } from '../pipeline/scoring-outcome.ts';
import { applyEvidence, attemptsAt } from './apply-evidence.ts';
import { createRedactor, noRedaction } from './create-redactor.ts';
import type { Redactor } from './create-redactor.ts';
import { redactValue } from './redact-value.ts';
import type { EvidenceLevel, RedactionSettings } from './redaction-schema.ts';

/**
 * Everything the emitter writes, as it hands it over: a scoring outcome (a score record; a skip's
 * decision; a deferral's retry message, decision and final record); a message to dead-letter, of
 * which only the reason is ours (the message itself is parked as received); the feedback join's
 * agreement records and re-score requests; a monitor's notices; the thread transport's own working
 * state (turns re-keyed, changelog writes), which carries run content as it came, as retry
 * messages carry their run event.
 */
export type OutgoingPayload =
  | ScoringOutcome
  | { readonly kind: 'dead-letter'; readonly error: DeadLetter['error'] }
  | { readonly kind: 'agreement'; readonly record: AgreementRecord }
  | { readonly kind: 'alert'; readonly notice: AlertRecord }
  | { readonly kind: 'rescore-request' | 'thread-turn' | 'thread-state' | 'batch-state' };

export type DataHandling = {
  /**
   * The payload as it may leave the process, every part of it handled: a score record (a
   * deferral's final one too) at its binding's evidence level with everything but its ids
   * redacted; a decision's detail redacted; a retry message's attempts like the record they
   * become, its run event whole (the input, scored again from it, as the runs topic holds it); a
   * dead letter's reason redacted. Extra fields of the payload pass through untouched.
   */
  outgoing<Payload extends OutgoingPayload>(payload: Payload): Payload;
  /** The redactor itself: for log lines and spans. */
  readonly text: Redactor;
};

/** The part of a resolved config this reads. */
export type DataHandlingConfig = {
  evidence: EvidenceLevel;
  redaction: RedactionSettings;
  scorers: readonly { scorerId: string; version?: string | undefined; evidence?: EvidenceLevel | undefined }[];
};

/**
 * Fields kept exactly as they are: the ids that key, partition and join records, and the machine-made
 * ones. `thread` is a thread score's ids (thread id and key, version ids, its turns' run ids): an
 * OTLP run id is hex, and about one in ten holds a digit run the card-number pattern would take.
 */
const VERBATIM = new Set(['schemaVersion', 'scoreId', 'runId', 'scorerId', 'scorerVersion', 'status', 'score', 'entity', 'source', 'trace', 'sampling', 'replay', 'thread', 'scoredAt', 'decidedAt', 'durationMs', 'latency', 'escalation', 'spend', 'evidence', 'decision', 'reason', 'budget', 'retry']);

function redactFields<T extends object>(record: T, redact: Redactor, verbatim: ReadonlySet<string>): T {
  if (redact === noRedaction) return record;
  const source = record as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  // Every record the service writes passes here: keys, not entry pairs.
  for (const key of Object.keys(source)) {
    if (verbatim.has(key)) continue;
    const value = source[key];
    const redacted = redactValue(value, redact);
    if (redacted !== value) (copy ??= { ...source })[key] = redacted;
  }
  return (copy ?? record) as T;
}

/**
 * An agreement record's fields kept as they are: ids, the judge's side (a score and the label it
 * means), the figures of a window. The person's side — the feedback's value, label, submitter and
 * free-text comment — and the run's metadata are redacted like a score record's content.
 */
const AGREEMENT_VERBATIM = new Set(['schemaVersion', 'kind', 'agreementId', 'feedbackId', 'scoreId', 'runId', 'thread', 'scorerId', 'scorerVersion', 'entity', 'judge', 'agree', 'measuredAt', 'truncated', 'windowStart', 'windowEnd', 'n', 'agreements', 'accuracy', 'kappa', 'weightedKappa']);

/** An alert notice's machine-made fields; its monitor (a config's names) is redacted like everything else. */
const ALERT_VERBATIM = new Set(['schemaVersion', 'alertId', 'kind', 'value', 'samples', 'noData', 'since', 'at']);

const bindingKey = (scorerId: string, version: string | undefined) => `${scorerId}\u0000${version ?? ''}`;

export function createDataHandling(config: DataHandlingConfig): DataHandling {
  const text = createRedactor(config.redaction);
  const levels = new Map(config.scorers.map((binding) => [bindingKey(binding.scorerId, binding.version), binding.evidence ?? config.evidence]));
  // A scorer no longer bound (a retry's binding_removed record) gets the config's level.
  const levelOf = (pair: { scorerId: string; scorerVersion?: string | undefined }) => levels.get(bindingKey(pair.scorerId, pair.scorerVersion)) ?? config.evidence;
  // A score record's `reason` is the scorer's own text (evidence, redacted); a decision's is a fixed code.
  const scoreVerbatim = new Set([...VERBATIM].filter((key) => key !== 'reason'));
  const scoreRecord = <Record extends ScoreRecord>(record: Record): Record => redactFields(applyEvidence(record, levelOf(record)), text, scoreVerbatim) as Record;
  const decisionRecord = (record: DecisionRecord): DecisionRecord => redactFields(record, text, VERBATIM);
  const retryMessage = (message: RetryMessage): RetryMessage => {
    const attempts = redactValue(attemptsAt(message.attempts, levelOf(message)), text);
    return attempts === message.attempts ? message : { ...message, attempts };
  };
  const untouched = text === noRedaction && config.evidence === 'full' && [...levels.values()].every((level) => level === 'full');
  return {
    text,
    outgoing(payload) {
      if (untouched) return payload;
      // Nothing to redact (the common case) hands the payload back as it came: no copy per record.
      switch (payload.kind) {
        case 'record': {
          const record = scoreRecord(payload.record);
          return record === payload.record ? payload : { ...payload, record };
        }
        case 'skipped': {
          const decision = decisionRecord(payload.decision);
          return decision === payload.decision ? payload : { ...payload, decision };
        }
        case 'deferred':
          return { ...payload, retry: retryMessage(payload.retry), decision: decisionRecord(payload.decision), final: scoreRecord(payload.final) };
        case 'dead-letter':
          return { ...payload, error: redactValue(payload.error, text) };
        case 'agreement': {
          const record = redactFields(payload.record, text, AGREEMENT_VERBATIM);
          return record === payload.record ? payload : { ...payload, record };
        }
        case 'alert': {
          const notice = redactFields(payload.notice, text, ALERT_VERBATIM);
          return notice === payload.notice ? payload : { ...payload, notice };
        }
        case 'rescore-request':
        case 'thread-turn':
        case 'thread-state':
        case 'batch-state':
          return payload;
      }
    },
  };
}

const compiled = new WeakMap<DataHandlingConfig, DataHandling>();

/** The data handling of a resolved config, compiled on first use. */
export function dataHandlingOf(config: DataHandlingConfig): DataHandling {
  let handling = compiled.get(config);
  if (handling === undefined) compiled.set(config, (handling = createDataHandling(config)));
  return handling;
}

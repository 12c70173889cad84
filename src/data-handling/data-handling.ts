// What the service applies to everything it sends out of the process (docs/data-handling.md):
// per binding the evidence level of its score records, then redaction of every string a record
// carries but the ids Kafka keys and readers join on. Compiled once per resolved config (a config
// is immutable once resolved) and memoised by it, so the one call on the way out —
// `dataHandlingOf(config).scoreRecord(record)` where a record is published — needs nothing wired.
// The same redactor goes to the logger and to the spans (otel/).
import type { DeadLetter } from '../contracts/dead-letter.ts';
import type { DecisionRecord } from '../contracts/decision-record.ts';
import type { ScoreRecord } from '../contracts/score-record.ts';
import { applyEvidence } from './apply-evidence.ts';
import { createRedactor, noRedaction } from './create-redactor.ts';
import type { Redactor } from './create-redactor.ts';
import { redactValue } from './redact-value.ts';
import type { EvidenceLevel, RedactionSettings } from './redaction-schema.ts';

export type DataHandling = {
  /** The record at its binding's evidence level, with everything but its ids redacted. */
  scoreRecord(record: ScoreRecord): ScoreRecord;
  /** The decision with its detail (and anything else free-form) redacted. */
  decisionRecord(record: DecisionRecord): DecisionRecord;
  /** The dead letter's error message and problems redacted; the original key, value and headers stay as received. */
  deadLetter(letter: DeadLetter): DeadLetter;
  /** The redactor itself: for log lines and spans. */
  readonly text: Redactor;
};

/** The part of a resolved config this reads. */
export type DataHandlingConfig = {
  evidence: EvidenceLevel;
  redaction: RedactionSettings;
  scorers: readonly { scorerId: string; version?: string | undefined; evidence?: EvidenceLevel | undefined }[];
};

/** Fields kept exactly as they are: the ids that key, partition and join records, and the machine-made ones. */
const VERBATIM = new Set(['schemaVersion', 'scoreId', 'runId', 'scorerId', 'scorerVersion', 'status', 'score', 'entity', 'source', 'trace', 'sampling', 'replay', 'scoredAt', 'decidedAt', 'durationMs', 'evidence', 'decision', 'reason', 'budget', 'retry']);

function redactFields<T extends object>(record: T, redact: Redactor, verbatim: ReadonlySet<string>): T {
  if (redact === noRedaction) return record;
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (verbatim.has(key)) continue;
    const redacted = redactValue(value, redact);
    if (redacted !== value) (copy ??= { ...(record as Record<string, unknown>) })[key] = redacted;
  }
  return (copy ?? record) as T;
}

const bindingKey = (scorerId: string, version: string | undefined) => `${scorerId}\u0000${version ?? ''}`;

export function createDataHandling(config: DataHandlingConfig): DataHandling {
  const text = createRedactor(config.redaction);
  const levels = new Map(config.scorers.map((binding) => [bindingKey(binding.scorerId, binding.version), binding.evidence ?? config.evidence]));
  // A score record's `reason` is the scorer's own text (evidence, redacted); a decision's is a fixed code.
  const scoreVerbatim = new Set([...VERBATIM].filter((key) => key !== 'reason'));
  return {
    text,
    scoreRecord(record) {
      const level = levels.get(bindingKey(record.scorerId, record.scorerVersion)) ?? config.evidence;
      return redactFields(applyEvidence(record, level), text, scoreVerbatim);
    },
    decisionRecord: (record) => redactFields(record, text, VERBATIM),
    deadLetter(letter) {
      if (text === noRedaction) return letter;
      const error = redactValue(letter.error, text);
      return error === letter.error ? letter : { ...letter, error };
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

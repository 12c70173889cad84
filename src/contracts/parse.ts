// Parsing at the edge: every contract has a parse function that returns either the typed value or
// every problem with its path, and the consumer's `decodeAgentRunEvent` also tells undecodable
// bytes (invalid UTF-8 or JSON) apart from well-formed JSON that breaks the contract.
import type { z } from 'zod';
import type { AlertRecord } from './alert-record.ts';
import { alertRecordSchema } from './alert-record.ts';
import type { AgentRunEvent } from './agent-run-event.ts';
import { AGENT_RUN_EVENT_SCHEMA_VERSION, agentRunEventSchema } from './agent-run-event.ts';
import type { DeadLetter } from './dead-letter.ts';
import { deadLetterSchema } from './dead-letter.ts';
import type { DecisionRecord } from './decision-record.ts';
import { decisionRecordSchema } from './decision-record.ts';
import { decodeUtf8 } from './encoded-bytes.ts';
import type { Problem } from './problems.ts';
import { formatProblems, problemsFromIssues } from './problems.ts';
import type { ScoreRecord } from './score-record.ts';
import { scoreRecordSchema } from './score-record.ts';

export type ParseResult<T> = { success: true; data: T } | { success: false; problems: Problem[] };

export function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown): ParseResult<z.output<Schema>> {
  const result = schema.safeParse(value);
  return result.success ? { success: true, data: result.data } : { success: false, problems: problemsFromIssues(result.error.issues) };
}

export const parseAgentRunEvent = (value: unknown): ParseResult<AgentRunEvent> => parseWith(agentRunEventSchema, value);
export const parseScoreRecord = (value: unknown): ParseResult<ScoreRecord> => parseWith(scoreRecordSchema, value);
export const parseDecisionRecord = (value: unknown): ParseResult<DecisionRecord> => parseWith(decisionRecordSchema, value);
export const parseDeadLetter = (value: unknown): ParseResult<DeadLetter> => parseWith(deadLetterSchema, value);
export const parseAlertRecord = (value: unknown): ParseResult<AlertRecord> => parseWith(alertRecordSchema, value);

export type DecodeFailureCode = 'invalid_json' | 'schema_violation' | 'unsupported_schema_version' | 'oversized';

export type DecodeResult =
  | { success: true; data: AgentRunEvent }
  | { success: false; code: DecodeFailureCode; message: string; problems: Problem[] };

export type DecodeOptions = {
  /** Reject values larger than this many bytes before parsing them. */
  maxBytes?: number;
};

/** Decodes a Kafka message value into an AgentRunEvent, classifying why it could not be. */
export function decodeAgentRunEvent(bytes: Buffer | string | null, options: DecodeOptions = {}): DecodeResult {
  if (bytes === null) {
    return failure('invalid_json', 'the message has no value (a null or tombstone message); expected a JSON agent run event');
  }
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.byteLength;
  if (options.maxBytes !== undefined && size > options.maxBytes) {
    return failure('oversized', `the message value is ${size} bytes, over the limit of ${options.maxBytes} bytes`);
  }
  const text = typeof bytes === 'string' ? bytes : decodeUtf8(bytes);
  if (text === undefined) return failure('invalid_json', 'the message value is not valid UTF-8, so it cannot be JSON');

  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return failure('invalid_json', `the message value is not valid JSON: ${(error as Error).message}`);
  }

  const version = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).schemaVersion : undefined;
  if (typeof version === 'number' && version !== AGENT_RUN_EVENT_SCHEMA_VERSION) {
    const message = `schemaVersion ${version} is not supported (this consumer reads AgentRunEvent v${AGENT_RUN_EVENT_SCHEMA_VERSION}); upgrade the consumer or publish v${AGENT_RUN_EVENT_SCHEMA_VERSION} events`;
    return failure('unsupported_schema_version', message, [{ path: 'schemaVersion', message }]);
  }

  const parsed = parseAgentRunEvent(value);
  if (parsed.success) return parsed;
  const count = parsed.problems.length;
  const message = `the agent run event breaks the AgentRunEvent v${AGENT_RUN_EVENT_SCHEMA_VERSION} contract (${count} problem${count === 1 ? '' : 's'}):\n${formatProblems(parsed.problems)}`;
  return failure('schema_violation', message, parsed.problems);
}

function failure(code: DecodeFailureCode, message: string, problems: Problem[] = []): DecodeResult {
  return { success: false, code, message, problems };
}

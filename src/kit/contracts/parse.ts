// Parsing at the edge: every contract has a parse function that returns either the typed value or
// every problem with its path, and the decoders of the input contracts (`decodeAgentRunEvent`,
// `decodeFeedbackRecord`, through decode-record.ts) also tell undecodable bytes (invalid UTF-8 or
// JSON) apart from well-formed JSON that breaks the contract.
import type { z } from 'zod';
import type { AlertRecord } from './alert-record.ts';
import { alertRecordSchema } from './alert-record.ts';
import type { AgentRunEvent } from './agent-run-event.ts';
import { AGENT_RUN_EVENT_SCHEMA_VERSION, agentRunEventSchema } from './agent-run-event.ts';
import { decodeOwnedRunEvent } from './compiled-run-event.ts';
import type { DeadLetter } from './dead-letter.ts';
import { deadLetterSchema } from './dead-letter.ts';
import type { AgreementRecord } from './agreement-record.ts';
import { agreementRecordSchema } from './agreement-record.ts';
import type { DecisionRecord } from './decision-record.ts';
import { decisionRecordSchema } from './decision-record.ts';
import type { Decoded, DecodeOptions } from './decode-record.ts';
import { decodeRecord } from './decode-record.ts';
import type { FeedbackRecord } from './feedback-record.ts';
import { FEEDBACK_RECORD_SCHEMA_VERSION, feedbackRecordSchema } from './feedback-record.ts';
import type { ParseResult } from './problems.ts';
import { problemsFromIssues } from './problems.ts';
import type { ScoreRecord } from './score-record.ts';
import { scoreRecordSchema } from './score-record.ts';


export function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown): ParseResult<z.output<Schema>> {
  const result = schema.safeParse(value);
  return result.success ? { success: true, data: result.data } : { success: false, problems: problemsFromIssues(result.error.issues) };
}

export const parseAgentRunEvent = (value: unknown): ParseResult<AgentRunEvent> => parseWith(agentRunEventSchema, value);
export const parseScoreRecord = (value: unknown): ParseResult<ScoreRecord> => parseWith(scoreRecordSchema, value);
export const parseDecisionRecord = (value: unknown): ParseResult<DecisionRecord> => parseWith(decisionRecordSchema, value);
export const parseDeadLetter = (value: unknown): ParseResult<DeadLetter> => parseWith(deadLetterSchema, value);
export const parseAlertRecord = (value: unknown): ParseResult<AlertRecord> => parseWith(alertRecordSchema, value);
export const parseFeedbackRecord = (value: unknown): ParseResult<FeedbackRecord> => parseWith(feedbackRecordSchema, value);
export const parseAgreementRecord = (value: unknown): ParseResult<AgreementRecord> => parseWith(agreementRecordSchema, value);

export type { DecodeFailureCode, DecodeOptions } from './decode-record.ts';

export type DecodeResult = Decoded<AgentRunEvent>;

/**
 * A run event only the caller holds — its own JSON.parse's, or one it built of its own objects
 * (the OTLP input's runs): the compiled path decodes it in place, without zod's copy, and zod
 * parses what that path refuses, so a broken event's problems are zod's. The value may be changed
 * (decodeOwnedRunEvent): for a value others hold, parseAgentRunEvent.
 */
export function parseOwnedAgentRunEvent(value: unknown): ParseResult<AgentRunEvent> {
  const data = decodeOwnedRunEvent(value);
  return data === undefined ? parseAgentRunEvent(value) : { success: true, data };
}

/** Decodes a Kafka message value into an AgentRunEvent, classifying why it could not be. */
export function decodeAgentRunEvent(bytes: Buffer | string | null, options: DecodeOptions = {}): DecodeResult {
  return decodeRecord(bytes, options, { name: 'AgentRunEvent', noun: 'agent run event', version: AGENT_RUN_EVENT_SCHEMA_VERSION, parse: parseOwnedAgentRunEvent });
}

/** Decodes a Kafka message value into a FeedbackRecord, classifying why it could not be (the reason a dead letter carries). */
export function decodeFeedbackRecord(bytes: Buffer | string | null, options: DecodeOptions = {}): Decoded<FeedbackRecord> {
  return decodeRecord(bytes, options, { name: 'FeedbackRecord', noun: 'feedback record', version: FEEDBACK_RECORD_SCHEMA_VERSION, parse: parseFeedbackRecord });
}

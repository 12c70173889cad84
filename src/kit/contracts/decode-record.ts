// Bytes of a Kafka message value → a contract value, or why not: the one decoding path of every
// input (agent run events, feedback, retry messages, re-score requests, thread turns; OTLP traces
// share the result shape), so each tells undecodable bytes (a tombstone, invalid UTF-8 or JSON,
// too large) from well-formed JSON of another schema version or that breaks the contract, and the
// reason becomes a dead letter with the same codes.
import { decodeUtf8 } from './encoded-bytes.ts';
import type { ParseResult, Problem } from './problems.ts';
import { formatProblems } from './problems.ts';

export type DecodeFailureCode = 'invalid_json' | 'schema_violation' | 'unsupported_schema_version' | 'oversized';

/** Why a value could not be decoded: its code (a dead letter's), a message for people, and the contract's problems by path. */
export type DecodeFailure<Code extends string = DecodeFailureCode> = { success: false; code: Code; message: string; problems: Problem[] };

/** Decoded, or why not: the one result shape of every input's decoder. */
export type Decoded<T, Code extends string = DecodeFailureCode> = { success: true; data: T } | DecodeFailure<Code>;

export type DecodeOptions = {
  /** Reject values larger than this many bytes before parsing them. */
  maxBytes?: number;
};

export type DecodableContract<T> = {
  /** The contract's name, e.g. `AgentRunEvent`. */
  name: string;
  /** What one value is, in words: `agent run event`. */
  noun: string;
  version: number;
  /** Given the value this module's JSON.parse made, which nothing else holds: it may decode it in place. */
  parse: (value: unknown) => ParseResult<T>;
};

export function decodeRecord<T>(bytes: Buffer | string | null, options: DecodeOptions, contract: DecodableContract<T>): Decoded<T> {
  const json = decodeJsonValue(bytes, options, `a JSON ${contract.noun}`);
  if (!json.success) return json;
  const value = json.data.value;
  const version = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).schemaVersion : undefined;
  const contractName = `${contract.name} v${contract.version}`;
  if (typeof version === 'number' && version !== contract.version) {
    const message = `schemaVersion ${version} is not supported (this consumer reads ${contractName}); upgrade the consumer or publish v${contract.version} ${contract.noun}s`;
    return decodeFailure('unsupported_schema_version', message, [{ path: 'schemaVersion', message }]);
  }

  const parsed = contract.parse(value);
  if (parsed.success) return parsed;
  const count = parsed.problems.length;
  const message = `the ${contract.noun} breaks the ${contractName} contract (${count} problem${count === 1 ? '' : 's'}):\n${formatProblems(parsed.problems)}`;
  return decodeFailure('schema_violation', message, parsed.problems);
}

/**
 * The first half of every decoder: a value that is there, within `maxBytes`, UTF-8 and JSON —
 * the parsed value with its text (a decoder that keeps the text as it came, a thread turn, reads
 * it here). `expected` says what it should have been: `a JSON agent run event`.
 */
export function decodeJsonValue(bytes: Buffer | string | null, options: DecodeOptions, expected: string): Decoded<{ value: unknown; text: string }> {
  if (bytes === null) return decodeFailure('invalid_json', `the message has no value (a null or tombstone message); expected ${expected}`);
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.byteLength;
  if (options.maxBytes !== undefined && size > options.maxBytes) {
    return decodeFailure('oversized', `the message value is ${size} bytes, over the limit of ${options.maxBytes} bytes`);
  }
  const text = typeof bytes === 'string' ? bytes : decodeUtf8(bytes);
  if (text === undefined) return decodeFailure('invalid_json', 'the message value is not valid UTF-8, so it cannot be JSON');
  try {
    return { success: true, data: { value: JSON.parse(text), text } };
  } catch (error) {
    return decodeFailure('invalid_json', `the message value is not valid JSON: ${(error as Error).message}`);
  }
}

export function decodeFailure<Code extends string>(code: Code, message: string, problems: Problem[] = []): DecodeFailure<Code> {
  return { success: false, code, message, problems };
}

// Bytes of a Kafka message value → a contract value, or why not: the one decoding path of every
// input contract (agent run events, feedback), so each tells undecodable bytes (a tombstone,
// invalid UTF-8 or JSON, too large) from well-formed JSON of another schema version or that
// breaks the contract, and the reason becomes a dead letter with the same codes.
import { decodeUtf8 } from './encoded-bytes.ts';
import type { ParseResult, Problem } from './problems.ts';
import { formatProblems } from './problems.ts';

export type DecodeFailureCode = 'invalid_json' | 'schema_violation' | 'unsupported_schema_version' | 'oversized';

export type Decoded<T> = { success: true; data: T } | { success: false; code: DecodeFailureCode; message: string; problems: Problem[] };

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
  if (bytes === null) {
    return failure('invalid_json', `the message has no value (a null or tombstone message); expected a JSON ${contract.noun}`);
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
  const contractName = `${contract.name} v${contract.version}`;
  if (typeof version === 'number' && version !== contract.version) {
    const message = `schemaVersion ${version} is not supported (this consumer reads ${contractName}); upgrade the consumer or publish v${contract.version} ${contract.noun}s`;
    return failure('unsupported_schema_version', message, [{ path: 'schemaVersion', message }]);
  }

  const parsed = contract.parse(value);
  if (parsed.success) return parsed;
  const count = parsed.problems.length;
  const message = `the ${contract.noun} breaks the ${contractName} contract (${count} problem${count === 1 ? '' : 's'}):\n${formatProblems(parsed.problems)}`;
  return failure('schema_violation', message, parsed.problems);
}

function failure(code: DecodeFailureCode, message: string, problems: Problem[] = []): { success: false; code: DecodeFailureCode; message: string; problems: Problem[] } {
  return { success: false, code, message, problems };
}

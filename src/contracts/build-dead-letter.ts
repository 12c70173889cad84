// Builds a DeadLetter from the raw parts of a consumed Kafka message (kafkajs shapes: Buffers,
// header values that may repeat). Pure: the caller passes the clock reading.
import type { DeadLetter, DeadLetterCode, EncodedBytes } from './dead-letter.ts';
import { DEAD_LETTER_SCHEMA_VERSION } from './dead-letter.ts';
import { encodeBytes } from './encoded-bytes.ts';
import type { Problem } from './problems.ts';

/** kafkajs `IHeaders`: a value per key, an array when the key repeats, undefined when unset. */
export type RawHeaders = Record<string, Buffer | string | Array<Buffer | string> | undefined>;

export type RawMessage = {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  headers?: RawHeaders;
};

export type BuildDeadLetterOptions = {
  message: RawMessage;
  source: { topic: string; partition: number; offset: string; timestamp?: string };
  error: { code: DeadLetterCode; message: string; problems?: Problem[] };
  now: Date;
};

export function buildDeadLetter(options: BuildDeadLetterOptions): DeadLetter {
  const { message, source, error, now } = options;
  const headers: Record<string, EncodedBytes | EncodedBytes[]> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.map(encodeBytes) : encodeBytes(value);
  }
  return {
    schemaVersion: DEAD_LETTER_SCHEMA_VERSION,
    key: message.key === undefined || message.key === null ? null : encodeBytes(message.key),
    value: message.value === null ? null : encodeBytes(message.value),
    headers,
    source: {
      topic: source.topic,
      partition: source.partition,
      offset: source.offset,
      ...(source.timestamp === undefined ? {} : { timestamp: source.timestamp }),
    },
    error: {
      code: error.code,
      message: error.message,
      ...(error.problems === undefined ? {} : { problems: error.problems }),
    },
    deadLetteredAt: now.toISOString(),
  };
}

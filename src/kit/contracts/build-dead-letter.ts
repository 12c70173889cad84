// Builds a DeadLetter from the raw parts of a consumed Kafka message (kafkajs shapes: Buffers,
// header values that may repeat), and its JSON within the dead-letter topic's size limit: a value
// that does not fit is cut to the bytes that do, the dead letter says how many it kept and
// dropped, and it always carries the SHA-256 of the whole value, so that a dead letter can always
// be written and still identifies its message (docs/contracts.md, the dead letter). Pure: the
// caller passes the clock reading.
import { createHash } from 'node:crypto';
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
    ...(message.value === null ? {} : { valueSha256: createHash('sha256').update(message.value).digest('hex') }),
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

export type FittedDeadLetter = { deadLetter: DeadLetter; json: string; bytes: number };

/**
 * The dead letter's JSON within `limitBytes`: whole when it fits; else the value's first bytes
 * (UTF-8 text cut at a character boundary, or base64), as many as fit beside everything else;
 * when even the rest does not fit, without its headers too. Undefined only when not even a dead
 * letter without value and headers fits (a key or an error message of about the limit).
 */
export function fitDeadLetter(options: BuildDeadLetterOptions, limitBytes: number): FittedDeadLetter | undefined {
  const whole = buildDeadLetter(options);
  const json = JSON.stringify(whole);
  const bytes = Buffer.byteLength(json);
  if (bytes <= limitBytes) return { deadLetter: whole, json, bytes };
  const value = options.message.value === null ? Buffer.alloc(0) : Buffer.from(options.message.value);
  return truncatedDeadLetter(whole, value, limitBytes, false) ?? truncatedDeadLetter({ ...whole, headers: {} }, value, limitBytes, true);
}

function truncatedDeadLetter(whole: DeadLetter, value: Buffer, limitBytes: number, headersDropped: boolean): FittedDeadLetter | undefined {
  const withPrefix = (wanted: number): FittedDeadLetter => {
    const encoding = whole.value?.encoding ?? 'utf8';
    const kept = encoding === 'utf8' ? characterBoundary(value, wanted) : wanted;
    const deadLetter: DeadLetter = {
      ...whole,
      value: whole.value === null ? null : { encoding, data: encoding === 'base64' ? value.subarray(0, kept).toString('base64') : value.subarray(0, kept).toString('utf8') },
      truncated: { keptBytes: kept, droppedBytes: value.length - kept, ...(headersDropped ? { headersDropped } : {}) },
    };
    const json = JSON.stringify(deadLetter);
    return { deadLetter, json, bytes: Buffer.byteLength(json) };
  };
  const empty = withPrefix(0);
  if (empty.bytes > limitBytes) return undefined;
  // Room for the value's text; base64 takes 4 bytes per 3, escaped UTF-8 may take more than its bytes.
  const room = limitBytes - empty.bytes;
  let kept = Math.min(value.length, whole.value?.encoding === 'base64' ? Math.floor(room / 4) * 3 : room);
  for (let attempt = 0; attempt < 20 && kept > 0; attempt += 1) {
    const candidate = withPrefix(kept);
    if (candidate.bytes <= limitBytes) return candidate;
    kept = Math.max(0, kept - Math.max(1, Math.ceil((candidate.bytes - limitBytes) * (attempt < 10 ? 1 : 2))));
  }
  return kept === 0 ? empty : undefined;
}

/** The largest cut at or below `wanted` that falls between UTF-8 characters (not before a continuation byte, 10xxxxxx). */
function characterBoundary(value: Buffer, wanted: number): number {
  let end = Math.min(wanted, value.length);
  while (end > 0 && end < value.length && (value[end]! & 0xc0) === 0x80) end -= 1;
  return end;
}

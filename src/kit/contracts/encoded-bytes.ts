// Bytes ↔ the `{ encoding, data }` form used by dead letters: UTF-8 text when the bytes are valid
// UTF-8 (readable in any topic viewer), base64 otherwise (lossless).
import type { EncodedBytes } from './dead-letter.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as UTF-8 text, or undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function encodeBytes(value: Buffer | string): EncodedBytes {
  if (typeof value === 'string') return { encoding: 'utf8', data: value };
  const text = decodeUtf8(value);
  return text === undefined ? { encoding: 'base64', data: value.toString('base64') } : { encoding: 'utf8', data: text };
}

/** The original bytes back, e.g. of a dead letter's payload. */
export function decodeBytes(encoded: EncodedBytes): Buffer {
  return Buffer.from(encoded.data, encoded.encoding === 'utf8' ? 'utf8' : 'base64');
}

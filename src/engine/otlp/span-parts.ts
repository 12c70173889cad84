// What both readers of OTLP (read-otlp-proto.ts for otlp_proto, decode-otlp.ts for otlp_json)
// put into a span the same way: its times, the shared empty lists, the status, and how an attribute is set.
import type { OtlpAttributes, OtlpSpanEvent, OtlpValue, OtlpStatus } from './otlp-span.ts';

/**
 * Nanoseconds since the epoch, as the two unsigned 32-bit halves of OTLP's fixed64, → milliseconds
 * with the whole milliseconds exact. A double of the nanoseconds (high · 2^32 + low) is 256 ns
 * coarse at today's times, so a span that ended on a millisecond could read as 0.9998 of the one
 * before, and its ISO time (which drops the fraction) a millisecond early. 2^32 ns is 4,294 ms and
 * 967,296 ns, so `rest` below stays an exact integer (< 2^53) for every time a fixed64 can hold.
 */
export function nanosToMs(high: number, low: number): number {
  const rest = high * 967_296 + low;
  const restNanos = rest % 1e6;
  return high * 4_294 + (rest - restNanos) / 1e6 + restNanos / 1e6;
}

/** Attributes are only read once decoded: a span or event without any shares this one (a held span is smaller by an object). */
export const NO_ATTRIBUTES: OtlpAttributes = Object.freeze({});

/** A span without events shares this list. */
export const NO_EVENTS: readonly OtlpSpanEvent[] = Object.freeze([]);

const UNSET_STATUS: OtlpStatus = Object.freeze({ code: 0 });

/** OTLP's status code (anything but 1 ok and 2 error is unset) and message (empty: none). */
export function spanStatus(code: number, message: string): OtlpStatus {
  if (message === '') return code === 1 || code === 2 ? { code } : UNSET_STATUS;
  return { code: code === 1 || code === 2 ? code : 0, message };
}

/**
 * Sets one attribute (a later value of a key wins). A key named `__proto__` — anything can come
 * over the wire — becomes an attribute like any other instead of replacing the object's prototype.
 */
export function setAttribute(into: OtlpAttributes, key: string, value: OtlpValue): void {
  if (key === '__proto__') Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else into[key] = value;
}

/** A span's name as an error quotes it: escaped, and cut at 80 characters (a name is whatever the sender wrote). */
export function quotedSpanName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

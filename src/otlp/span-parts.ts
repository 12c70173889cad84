// What both readers of OTLP (read-otlp-proto.ts for otlp_proto, decode-otlp.ts for otlp_json)
// put into a span the same way: the shared empty lists, the status, and how an attribute is set.
import type { OtlpAttributes, OtlpSpanEvent, OtlpValue, OtlpStatus } from './otlp-span.ts';

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

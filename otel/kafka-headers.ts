// The OpenTelemetry carrier over Kafka record headers. Written headers are strings; consumed headers
// arrive as Buffers, and as an array when a key repeats. The getter reads both, looks a key up
// exactly and then case-insensitively, and never throws: a header it cannot read is a header
// that is not there, so a bad carrier means "no parent", never a failed message.
//
// Repeated keys: list-valued W3C headers (`tracestate`, `baggage`) may legally be split across
// several headers and the W3C propagators join arrays, so all their values are returned; for
// every other key (e.g. `traceparent`) the first value wins.
import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';

/** Kafka record headers as consumed or published: bytes or text, an array when a key repeats (every client library's shape). */
export type MessageHeaders = Record<string, Buffer | string | Array<Buffer | string> | undefined>;

const LIST_VALUED = new Set(['tracestate', 'baggage']);

function text(value: Buffer | string): string {
  return typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

function lookup(carrier: MessageHeaders, key: string): MessageHeaders[string] {
  if (Object.hasOwn(carrier, key)) return carrier[key];
  const wanted = key.toLowerCase();
  for (const name of Object.keys(carrier)) {
    if (name.toLowerCase() === wanted) return carrier[name];
  }
  return undefined;
}

export const kafkaHeaderGetter: TextMapGetter<MessageHeaders | undefined | null> = {
  keys(carrier) {
    try {
      return carrier === undefined || carrier === null ? [] : Object.keys(carrier);
    } catch {
      return [];
    }
  },
  get(carrier, key) {
    try {
      if (carrier === undefined || carrier === null) return undefined;
      const value = lookup(carrier, key);
      if (value === undefined || value === null) return undefined;
      if (!Array.isArray(value)) return text(value);
      const values = value.filter((entry) => entry !== undefined && entry !== null).map(text);
      if (values.length === 0) return undefined;
      return LIST_VALUED.has(key.toLowerCase()) ? values : values[0];
    } catch {
      return undefined;
    }
  },
};

export const kafkaHeaderSetter: TextMapSetter<MessageHeaders> = {
  set(carrier, key, value) {
    try {
      carrier[key] = value;
    } catch {
      // A frozen or exotic carrier: telemetry never breaks the publish.
    }
  },
};

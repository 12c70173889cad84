// Records between the project's shapes (kafka-records.ts) and @platformatic/kafka's: a consumed
// Message (bigint offsets, header entries of Buffers) becomes a ConsumedMessage, and an
// OutgoingRecord a MessageToProduce of Buffers, placed by key-partitioner.ts's rule.
import type { Message, MessageToProduce } from '@platformatic/kafka';
import type { ConsumedMessage, MessageHeaders, OutgoingRecord } from './kafka-records.ts';
import { placementHash } from './key-partitioner.ts';

/** A consumed message as the per-message path reads it; a repeated header key becomes an array. */
export function toConsumedMessage(message: Pick<Message, 'key' | 'value' | 'headerEntries' | 'offset' | 'timestamp'>): ConsumedMessage {
  let headers: MessageHeaders | undefined;
  for (const [rawName, value] of message.headerEntries) {
    const name = rawName.toString('utf8');
    headers ??= {};
    const existing = headers[name];
    headers[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return {
    key: message.key ?? null,
    value: message.value ?? null,
    ...(headers === undefined ? {} : { headers }),
    offset: message.offset.toString(),
    timestamp: message.timestamp.toString(),
  };
}

const bytes = (value: string | Buffer): Buffer => (typeof value === 'string' ? Buffer.from(value) : value);

/**
 * A record to produce. The partition is chosen here (an explicit one, else the placement hash of
 * partitionKey or key, which the client reduces modulo the topic's partition count, as kafkajs'
 * partitioner does); a record with neither goes round-robin. A repeated header is sent once per value.
 */
export function toMessageToProduce(record: OutgoingRecord): MessageToProduce {
  const placedBy = record.partitionKey ?? record.key;
  const partition = record.partition ?? (placedBy === null ? undefined : placementHash(placedBy));
  const headers = record.headers === undefined ? undefined : encodedHeaders(record.headers);
  return {
    topic: record.topic,
    ...(record.key === null ? {} : { key: Buffer.from(record.key) }),
    // A tombstone: no value at all (the client writes a null value).
    ...(record.value === null ? {} : { value: bytes(record.value) }),
    ...(headers === undefined ? {} : { headers }),
    ...(partition === undefined ? {} : { partition }),
  };
}

/** Encoded once per frozen headers object (every score record shares the service's origin header); the client only reads them. */
const encodedFrozenHeaders = new WeakMap<MessageHeaders, Map<Buffer, Buffer> | undefined>();

function encodedHeaders(headers: MessageHeaders): Map<Buffer, Buffer> | undefined {
  const frozen = Object.isFrozen(headers);
  if (frozen && encodedFrozenHeaders.has(headers)) return encodedFrozenHeaders.get(headers);
  let encoded: Map<Buffer, Buffer> | undefined;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    encoded ??= new Map();
    // A Map keyed by Buffer keeps every entry (each Buffer is its own key): repeats survive.
    for (const one of Array.isArray(value) ? value : [value]) encoded.set(Buffer.from(name), bytes(one));
  }
  if (frozen) encodedFrozenHeaders.set(headers, encoded);
  return encoded;
}

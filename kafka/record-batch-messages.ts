// The messages of fetched record batches, in the project's shape (kafka-records.ts), for the
// group-less reads (read-range.ts, fetch-at.ts) that see batches rather than the library's
// streamed messages (those go through platformatic-records.ts). As the library's message stream
// does it: a record's offset is its batch's first offset plus its offset delta, its timestamp the
// batch's first timestamp plus its timestamp delta, control batches (transaction markers) hold
// no message, and a batch that begins before the offset asked for is skipped up to it.
import { IS_CONTROL } from '@platformatic/kafka';
import type { KafkaRecord, RecordsBatch } from '@platformatic/kafka';
import type { ConsumedMessage, MessageHeaders } from './kafka-records.ts';

export type MessageBatch = Pick<RecordsBatch, 'firstOffset' | 'firstTimestamp' | 'attributes'> & { readonly records: readonly KafkaRecord[] };

/** The messages of `batches` at or after `from` and, when given, before `before`, in offset order. */
export function messagesOfBatches(batches: readonly MessageBatch[], range: { from: bigint; before?: bigint | undefined }): ConsumedMessage[] {
  const messages: ConsumedMessage[] = [];
  for (const batch of batches) {
    if ((batch.attributes & IS_CONTROL) !== 0) continue;
    for (const record of batch.records) {
      const offset = batch.firstOffset + BigInt(record.offsetDelta);
      if (offset < range.from) continue;
      if (range.before !== undefined && offset >= range.before) return messages;
      messages.push(consumedMessage(record, offset, batch.firstTimestamp + record.timestampDelta));
    }
  }
  return messages;
}

/** The message of one record; a repeated header name becomes an array, as toConsumedMessage does. */
export function consumedMessage(record: KafkaRecord, offset: bigint, timestamp: bigint): ConsumedMessage {
  let headers: MessageHeaders | undefined;
  for (const [rawName, rawValue] of record.headers) {
    // A header without a name cannot be looked up; one without a value reads as empty bytes.
    if (rawName === null) continue;
    const name = rawName.toString('utf8');
    const value = rawValue ?? Buffer.alloc(0);
    headers ??= {};
    const existing = headers[name];
    headers[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return { key: record.key, value: record.value, ...(headers === undefined ? {} : { headers }), offset: offset.toString(), timestamp: timestamp.toString() };
}

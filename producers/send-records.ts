// Sends records so that a record the broker refuses fails alone: the records go out in requests
// of at most `maxRequestBytes` (the broker limits a partition's batch as it limits one record); a
// request refused for what a record is (kafka/publish-refusal.ts) is sent again one record at a
// time, and each record refused on its own is replaced by its stand-in (`fallback`: a smaller
// form, or a `failed` record saying why) until one is accepted or none is left — then the record
// is dropped and reported, never retried for ever. A transient error (connection, leader,
// coordinator) fails the records of its request as before, for the caller to retry. Shared by the
// at-least-once publisher (record-publisher.ts) and the exactly-once transactions
// (consumers/transactional-claim.ts).
import { publishRefusalOf } from '../kafka/publish-refusal.ts';
import type { PublishRefusal } from '../kafka/publish-refusal.ts';
import type { OutgoingRecord } from '../kafka/kafka-records.ts';
import { chunksInOrder } from '../src/kit/chunks-in-order.ts';

/** A refused record, and what was written instead (undefined: nothing; the record was dropped). */
export type OnRefused = (record: OutgoingRecord, refusal: PublishRefusal, replacement: OutgoingRecord | undefined) => void;

export type SendRecordsOptions = {
  maxRequestBytes: number;
  maxRequestRecords: number;
  onRefused: OnRefused;
  /** Skip the batched first try and send one record per request (a transaction redone after a refusal). */
  oneByOne?: boolean;
  /**
   * Reject with the refusal instead of sending the request's records again one by one (default
   * false). In a transaction the records of a refused request's other partitions may be written
   * already, so the transaction is aborted and redone one record at a time instead.
   */
  rejectRefusedRequest?: boolean;
};

/** What one record cost in a request: its key, value and headers, and a record's framing. */
export function recordBytes(record: OutgoingRecord): number {
  let bytes = 64 + (record.value === null ? 0 : typeof record.value === 'string' ? Buffer.byteLength(record.value) : record.value.length);
  if (record.key !== null) bytes += Buffer.byteLength(record.key);
  for (const name in record.headers) {
    const value = record.headers[name];
    bytes += name.length + (typeof value === 'string' ? Buffer.byteLength(value) : Buffer.isBuffer(value) ? value.length : 32);
  }
  return bytes;
}

/** The records in order, cut into requests of at most `maxBytes` (a larger record goes alone) and `maxRecords`. */
export function splitRequests<T extends { record: OutgoingRecord }>(entries: readonly T[], maxBytes: number, maxRecords: number): T[][] {
  return chunksInOrder(entries, (entry) => recordBytes(entry.record), maxBytes, maxRecords);
}

/**
 * Sends `records` through `send` (one request per call); resolves with one result per record, in
 * order: undefined when it (or its stand-in) was written or dropped as refused, else the transient
 * error that failed it.
 */
export async function sendRecords(send: (records: OutgoingRecord[]) => Promise<unknown>, records: readonly OutgoingRecord[], options: SendRecordsOptions): Promise<unknown[]> {
  const results: unknown[] = new Array(records.length).fill(undefined);
  const entries = records.map((record, index) => ({ record, index }));
  for (const request of options.oneByOne === true ? entries.map((entry) => [entry]) : splitRequests(entries, options.maxRequestBytes, options.maxRequestRecords)) {
    let refusal: PublishRefusal | undefined;
    try {
      await send(request.map((entry) => entry.record));
      continue;
    } catch (error) {
      refusal = publishRefusalOf(error);
      if (refusal === undefined) {
        for (const entry of request) results[entry.index] = error;
        continue;
      }
      if (options.rejectRefusedRequest === true && request.length > 1) throw error;
    }
    // A record refused alone goes to its stand-ins. In a larger request which record was refused is
    // not known (nor which partitions' batches were written), so each goes again alone; at-least-
    // once, a record written the first time is then written twice (with the same id).
    if (request.length === 1) results[request[0]!.index] = await replaceRefused(send, request[0]!.record, refusal, options.onRefused);
    else for (const entry of request) results[entry.index] = await sendAlone(send, entry.record, options.onRefused);
  }
  return results;
}

async function sendAlone(send: (records: OutgoingRecord[]) => Promise<unknown>, record: OutgoingRecord, onRefused: OnRefused): Promise<unknown> {
  try {
    await send([record]);
    return undefined;
  } catch (error) {
    const refusal = publishRefusalOf(error);
    return refusal === undefined ? error : replaceRefused(send, record, refusal, onRefused);
  }
}

/** The refused record's stand-ins, in turn, until one is accepted or none is left (then it is dropped). */
async function replaceRefused(send: (records: OutgoingRecord[]) => Promise<unknown>, refused: OutgoingRecord, firstRefusal: PublishRefusal, onRefused: OnRefused): Promise<unknown> {
  let record = refused;
  let refusal = firstRefusal;
  for (;;) {
    const replacement = record.fallback?.(refusal);
    onRefused(record, refusal, replacement);
    if (replacement === undefined) return undefined;
    try {
      await send([replacement]);
      return undefined;
    } catch (error) {
      const again = publishRefusalOf(error);
      if (again === undefined) return error;
      record = replacement;
      refusal = again;
    }
  }
}

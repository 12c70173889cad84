// Reads a whole topic that nobody writes to any more, at a chosen isolation level, applying the
// transaction markers itself (kafkajs' read_committed can show aborted records; see readAll).
import type { Kafka } from 'kafkajs';
import { testKafka, uniqueGroupId } from './kafka.ts';

export type Isolation = 'read_committed' | 'read_uncommitted';

/** A record as kafkajs decodes it into a fetched batch, transaction markers (control records) included. */
type FetchedRecord = {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  isControlRecord?: boolean;
  batchContext: { producerId: string; inTransaction: boolean };
};

/** A control record's key is its version (int16) and type (int16): 0 aborts the transaction, 1 commits it. */
const commitsTransaction = (marker: FetchedRecord) => marker.key !== null && marker.key.length >= 4 && marker.key.readInt16BE(2) === 1;

export type ReadAllOptions = {
  isolation: Isolation;
  timeoutMs?: number;
  kafka?: Kafka;
  /** The offsets to read up to, per partition, instead of the topic's end offsets when the read starts. */
  upTo?: Map<number, number>;
  /** The most a fetch brings per partition; the broker still sends one record batch larger than it. */
  fetchBytes?: number;
};

/**
 * Reads `topic` from the beginning up to the end offsets it has when the read starts (or `upTo`), and returns
 * the records parsed: every record (read_uncommitted), or only those of committed transactions and
 * those written outside transactions (read_committed). Meant for topics nobody writes to any more
 * (the service was stopped or killed): the end is known, so there is no waiting for quiet.
 *
 * read_committed is applied here, from the transaction markers, and not by kafkajs: kafkajs 2.2.4
 * expects the broker's list of aborted transactions in the order they began, but the broker lists
 * them in the order they ended, so a transaction aborted after a later-begun one shows its records
 * to kafkajs' read_committed readers (seen when a killed service left several open transactions).
 */
export async function readAll<T = Record<string, unknown>>(topic: string, options: ReadAllOptions): Promise<T[]> {
  return (await readAllKeyed<T>(topic, options)).map((message) => message.value);
}

/** readAll, with each record's Kafka key (null without one) and whether it was written in a transaction. */
export async function readAllKeyed<T = Record<string, unknown>>(topic: string, options: ReadAllOptions): Promise<{ key: string | null; value: T; transactional: boolean }[]> {
  const kafka = options.kafka ?? testKafka('scorestream-test-read-all');
  const ends = options.upTo ?? (await highWatermarks(topic, kafka));
  // Big fetches, so that a fetch seldom brings markers only: kafkajs passes such a batch to no
  // eachBatch, and the outcome of the transactions it ends stays unknown (checked below).
  const fetchBytes = options.fetchBytes ?? 50 * 1024 * 1024;
  const consumer = kafka.consumer({ groupId: uniqueGroupId('read-all'), maxWaitTimeInMs: 100, readUncommitted: true, maxBytes: fetchBytes, maxBytesPerPartition: fetchBytes });
  type Keyed = { key: string | null; value: T; transactional: boolean };
  const visible: Keyed[] = [];
  /** Records of transactions whose marker has not come yet, by `${partition}:${producerId}`. */
  const pending = new Map<string, Keyed[]>();
  const seen = new Set<string>();
  /** Per partition, the offset after the last one a fetch passed. */
  const position = new Map<number, number>();
  const markersOnly: string[] = [];
  // The consumer goes on fetching while the read waits for its end, so on a topic still written to
  // it can bring records and markers past the end: a transaction whose marker is past it was not
  // decided when the read started, and read_committed does not show it.
  const beforeEnd = (partition: number, offset: string | null) => offset !== null && Number(offset) < (ends.get(partition) ?? 0);
  // A tombstone (a compacted topic's delete) is read as null.
  const parse = (record: FetchedRecord): Keyed => ({ key: record.key === null ? null : record.key.toString('utf8'), value: (record.value === null ? null : JSON.parse(record.value.toString('utf8'))) as T, transactional: record.batchContext.inTransaction });
  const take = (partition: number, record: FetchedRecord) => {
    if (!beforeEnd(partition, record.offset)) return;
    if (seen.has(`${partition}:${record.offset}`)) return; // fetched again after a rebalance of the reader's group
    seen.add(`${partition}:${record.offset}`);
    const transaction = `${partition}:${record.batchContext.producerId}`;
    if (record.isControlRecord) {
      if (options.isolation === 'read_committed' && commitsTransaction(record)) visible.push(...(pending.get(transaction) ?? []));
      pending.delete(transaction);
    } else if (options.isolation === 'read_committed' && record.batchContext.inTransaction) {
      const records = pending.get(transaction) ?? [];
      records.push(parse(record));
      pending.set(transaction, records);
    } else {
      visible.push(parse(record));
    }
  };
  const behind = () => [...ends].filter(([partition, end]) => (position.get(partition) ?? 0) < end);
  await consumer.connect();
  try {
    consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) => {
      if (payload.batchSize === 0 && beforeEnd(payload.partition, payload.firstOffset)) markersOnly.push(`partition ${payload.partition} offsets ${payload.firstOffset}-${payload.lastOffset}`);
    });
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => position.set(payload.partition, Number(payload.lastOffset) + 1));
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        // kafkajs keeps the batch's decoded records, markers included, as messagesWithinOffset.
        for (const record of (batch as unknown as { messagesWithinOffset: FetchedRecord[] }).messagesWithinOffset) take(batch.partition, record);
      },
    });
    const timeoutMs = options.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    while (behind().length > 0) {
      if (Date.now() > deadline) {
        const where = behind().map(([partition, end]) => `partition ${partition} at ${position.get(partition) ?? 0} of ${end}`);
        throw new Error(`readAll(${topic}): not at the end within ${timeoutMs} ms (${where.join(', ')}; ${visible.length} records)`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (pending.size > 0 && markersOnly.length > 0) {
      throw new Error(`readAll(${topic}): kafkajs passed batches of transaction markers only to no handler (${markersOnly.join(', ')}), so ${pending.size} transactions have no known outcome`);
    }
    return visible;
  } finally {
    await consumer.disconnect();
  }
}

/** The high watermark per partition of `topic`. */
export async function highWatermarks(topic: string, kafka: Kafka = testKafka('scorestream-test-admin')): Promise<Map<number, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(offsets.map(({ partition, high }) => [partition, Number(high)]));
  } finally {
    await admin.disconnect();
  }
}

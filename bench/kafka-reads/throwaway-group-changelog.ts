// The baseline of bench/kafka-reads.bench.ts: how the service did reading a changelog partition to its end before the one Kafka
// edge (kafka/read-range.ts, kafka/fetch-at.ts) — kafkajs, a throwaway consumer group joined and
// deleted per read — kept here, as it was, so that the bench measures both in the same run.
// Reads one partition of a compacted changelog topic from its beginning to the end it had when the
// read started — the restore of a claimed partition's state (docs/threads.md, the transport). kafkajs
// cannot assign a partition without a group, so the read joins a throwaway consumer group of its own
// (`<prefix><hex>`, deleted afterwards; the ACL table grants the prefix), pauses every other
// partition, and stops once a batch reached the end. Transactional writes end in commit markers the
// consumer never delivers; their batches still report their last offset, which is what ends the read.
// Under read_committed (kafkajs' default) an aborted write is never seen.
import { randomBytes } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { whileLeadersSettle } from '../../kafka/while-leaders-settle.ts';

export type ChangelogRecord = { key: string; value: string | null };

export type ReadChangelogOptions = {
  topic: string;
  partition: number;
  /** The throwaway group's name starts with this (`<group>.thread-restore-`). */
  groupPrefix: string;
  /** Each record, in offset order. */
  onRecord: (record: ChangelogRecord) => void;
  /** Gives up after this long (default 120 s): the caller tries again. */
  timeoutMs?: number;
  logger: Logger;
};

/** Resolves with the number of records read once the partition was read to its end. */
export async function readChangelogPartition(kafka: Kafka, options: ReadChangelogOptions): Promise<number> {
  const { topic, partition, logger } = options;
  const admin = kafka.admin();
  await admin.connect();
  let groupId: string | undefined;
  try {
    const offsets = await whileLeadersSettle(() => admin.fetchTopicOffsets(topic));
    const end = offsets.find((entry) => entry.partition === partition);
    if (end === undefined) throw new Error(`the changelog topic '${topic}' has no partition ${partition}: it must have as many partitions as the topic it mirrors`);
    const high = Number(end.high);
    if (high <= Number(end.low)) return 0;
    groupId = `${options.groupPrefix}${randomBytes(4).toString('hex')}`;
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, retry: { retries: 3 } });
    let read = 0;
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`could not read partition ${partition} of the changelog topic '${topic}' to its end (offset ${high}) within ${options.timeoutMs ?? 120_000} ms`)), options.timeoutMs ?? 120_000);
        consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
          if (payload.partition === partition && Number(payload.lastOffset) >= high - 1) resolve();
        });
        consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
        consumer
          .run({
            autoCommit: false,
            eachBatchAutoResolve: true,
            eachBatch: async ({ batch }) => {
              if (batch.partition !== partition) {
                consumer.pause([{ topic, partitions: [batch.partition] }]);
                return;
              }
              for (const message of batch.messages) {
                if (Number(message.offset) >= high) break;
                if (message.key === null) continue;
                options.onRecord({ key: message.key.toString('utf8'), value: message.value === null ? null : message.value.toString('utf8') });
                read += 1;
              }
            },
          })
          .catch(reject);
      }).finally(() => clearTimeout(timer));
    } finally {
      await consumer.disconnect().catch(() => undefined);
    }
    return read;
  } finally {
    if (groupId !== undefined) await admin.deleteGroups([groupId]).catch((error: unknown) => logger.warn({ err: error, groupId }, 'could not delete the throwaway group that restored a changelog partition'));
    await admin.disconnect();
  }
}

// The baseline of bench/kafka-reads.bench.ts: how the service did reading one message back by position before the one Kafka
// edge (kafka/read-range.ts, kafka/fetch-at.ts) — kafkajs, a throwaway consumer group joined and
// deleted per read — kept here, as it was, so that the bench measures both in the same run.
// Reads one message back from a topic by its position — a re-score's run event, named by the
// judged record's `source` (docs/feedback.md, re-scoring). kafkajs cannot fetch without a consumer
// group, so each read joins a throwaway group of its own (`<prefix><hex>`, deleted afterwards; the
// ACL table grants the prefix, kafka/acl-roles.ts), seeks the partition to the offset and takes the
// first message at or after it. An offset below the partition's start (retention deleted it) or at
// or past its end is answered at once, without a group. Reads are made one at a time per reader:
// feedback is a small stream, and a group join per read is the cost (a second or two on a broker
// whose group.initial.rebalance.delay.ms is 0), which re-scores pay, not the scoring of live runs.
import { randomBytes } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { Source } from '../../src/kit/contracts/common.ts';
import type { ConsumedMessage } from '../../kafka/kafka-records.ts';
import { whileLeadersSettle } from '../../kafka/while-leaders-settle.ts';

export type FetchedMessage = { readonly found: true; readonly message: ConsumedMessage } | { readonly found: false; readonly detail: string };

/** Reads the message at `source`; resolves `found: false` saying why when it is not there; rejects when Kafka could not be read. */
export type FetchMessage = (source: Source) => Promise<FetchedMessage>;

export type MessageFetcherOptions = {
  /** The throwaway groups' names start with this (`<group>.run-fetch-`). */
  groupPrefix: string;
  /** Gives up after this long (default 60 s): the re-score is then abandoned and read again later. */
  timeoutMs?: number;
  logger: Logger;
};

export function createMessageFetcher(kafka: Kafka, options: MessageFetcherOptions): FetchMessage {
  let queue: Promise<unknown> = Promise.resolve();
  return (source) => {
    const fetched = queue.then(() => fetchOne(kafka, source, options));
    queue = fetched.catch(() => undefined);
    return fetched;
  };
}

async function fetchOne(kafka: Kafka, source: Source, options: MessageFetcherOptions): Promise<FetchedMessage> {
  const { topic, partition } = source;
  const offset = BigInt(source.offset);
  const admin = kafka.admin();
  await admin.connect();
  let groupId: string | undefined;
  try {
    const offsets = await whileLeadersSettle(() => admin.fetchTopicOffsets(topic));
    const bounds = offsets.find((entry) => entry.partition === partition);
    if (bounds === undefined) return { found: false, detail: `the topic '${topic}' has no partition ${partition}` };
    if (offset < BigInt(bounds.low)) return { found: false, detail: `offset ${offset} of ${topic}[${partition}] is no longer on the topic (the partition now starts at ${bounds.low}): retention deleted it` };
    if (offset >= BigInt(bounds.high)) return { found: false, detail: `offset ${offset} of ${topic}[${partition}] was never written (the partition ends at ${bounds.high})` };
    groupId = `${options.groupPrefix}${randomBytes(4).toString('hex')}`;
    return await readAt(kafka, groupId, source, BigInt(bounds.high), options.timeoutMs ?? 60_000);
  } finally {
    if (groupId !== undefined) await admin.deleteGroups([groupId]).catch((error: unknown) => options.logger.warn({ err: error, groupId }, 'could not delete the throwaway group that read a run event back'));
    await admin.disconnect();
  }
}

async function readAt(kafka: Kafka, groupId: string, source: Source, high: bigint, timeoutMs: number): Promise<FetchedMessage> {
  const { topic, partition } = source;
  const offset = BigInt(source.offset);
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, retry: { retries: 3 } });
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: false });
    return await new Promise<FetchedMessage>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`could not read offset ${offset} of ${topic}[${partition}] back within ${timeoutMs} ms`)), timeoutMs);
      consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            if (batch.partition !== partition) {
              consumer.pause([{ topic, partitions: [batch.partition] }]);
              return;
            }
            // The first message at or after the offset: a compacted or transactional partition has gaps.
            const message = batch.messages.find((candidate) => BigInt(candidate.offset) >= offset);
            if (message !== undefined) {
              resolve(BigInt(message.offset) === offset ? { found: true, message } : { found: false, detail: `offset ${offset} of ${topic}[${partition}] holds no message any more (compacted, or a transaction marker)` });
              return;
            }
            if (BigInt(batch.lastOffset()) + 1n >= high) resolve({ found: false, detail: `offset ${offset} of ${topic}[${partition}] holds no message any more` });
          },
        })
        .catch(reject);
      // Seeking right after run(): kafkajs applies it when the partition is first fetched.
      consumer.seek({ topic, partition, offset: source.offset });
    });
  } finally {
    clearTimeout(timer);
    await consumer.disconnect().catch(() => undefined);
  }
}

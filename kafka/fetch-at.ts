// Reads one message back by its position — a re-score's run event, named by the judged record's
// `source` (docs/feedback.md, re-scoring) — with one Fetch request to the partition's leader: no
// consumer group (kafka/fetch-run-message.ts, which this replaces, joined a throwaway one per read,
// a second or two), one Consumer and its connections kept across reads. The answers, and their
// words, are fetch-run-message.ts's: found; no such partition; below the partition's start
// (retention deleted it); at or past its end (never written); or a position that holds no message
// any more (compacted away, a transaction marker, an aborted transaction's record). What is past
// the answer of the one fetch — where the partition starts and ends — is asked only for a
// message not found. Fetches to one broker go one at a time (a fetch session per broker).
import { createAbortedTransactionFilter, lastOffsetOf } from './aborted-transactions.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import { KafkaReadError } from './kafka-read-error.ts';
import type { ConsumedMessage } from './kafka-records.ts';
import { createGroupLessConsumer, isolationLevelOf, listPartitionBounds } from './group-less-consumer.ts';
import type { FetchResponsePartition, GroupLessConsumer, ReadIsolation } from './group-less-consumer.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { hasPlatformaticErrorId } from './platformatic-errors.ts';
import { whilePlatformaticLeadersSettle } from './platformatic-leaders-settle.ts';
import { messagesOfBatches } from './record-batch-messages.ts';

/** Where a message is: a Source (src/kit/contracts/common.ts) fits, its offset a decimal string. */
export type MessagePosition = { readonly topic: string; readonly partition: number; readonly offset: string | bigint };

export type FetchAtResult = { readonly found: true; readonly message: ConsumedMessage } | { readonly found: false; readonly detail: string };

export type FetchAtOptions = {
  /** A read gives up after this long (default KAFKA_DEFAULTS.groupLessReads.fetchAtTimeoutMs): it rejects, and the caller reads again later. */
  timeoutMs?: number;
  /** Default read_committed: an aborted transaction's record is not found, and the end is the last stable offset. */
  isolation?: ReadIsolation;
};

export type MessageReader = {
  /** Resolves `found: false` saying why when the message is not there; rejects (a KafkaReadError) when Kafka could not be read. */
  fetchAt(position: MessagePosition): Promise<FetchAtResult>;
  close(): Promise<void>;
};

export function createFetchAt(connection: PlatformaticConnection, options: FetchAtOptions = {}): MessageReader {
  const isolation = options.isolation ?? 'read_committed';
  const timeoutMs = options.timeoutMs ?? KAFKA_DEFAULTS.groupLessReads.fetchAtTimeoutMs;
  const consumer = createGroupLessConsumer(connection, isolation);
  const fetchesByNode = new Map<number, Promise<unknown>>();
  const oneAtATime = <T>(node: number, work: () => Promise<T>): Promise<T> => {
    const result = (fetchesByNode.get(node) ?? Promise.resolve()).then(work);
    fetchesByNode.set(node, result.catch(() => undefined));
    return result;
  };
  return {
    async fetchAt(position) {
      const offset = BigInt(position.offset);
      const where = `offset ${offset} of ${position.topic}[${position.partition}]`;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new KafkaReadError(`could not read ${where} back within ${timeoutMs} ms`, { topic: position.topic, partition: position.partition, canRetry: true })), timeoutMs);
      });
      const reading = readAt(consumer, { ...position, offset }, { isolation, deadline: Date.now() + timeoutMs, oneAtATime });
      reading.catch(() => undefined);
      try {
        return await Promise.race([reading, timedOut]);
      } catch (error) {
        if (KafkaReadError.isInstance(error)) throw error;
        throw new KafkaReadError(`could not read ${where}: ${error instanceof Error ? error.message : String(error)}`, { topic: position.topic, partition: position.partition, canRetry: true, cause: error });
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => consumer.close(),
  };
}

type ReadAtContext = {
  isolation: ReadIsolation;
  deadline: number;
  oneAtATime: <T>(node: number, work: () => Promise<T>) => Promise<T>;
};

async function readAt(consumer: GroupLessConsumer, position: { topic: string; partition: number; offset: bigint }, context: ReadAtContext): Promise<FetchAtResult> {
  const { topic, partition, offset } = position;
  const where = `offset ${offset} of ${topic}[${partition}]`;
  const settle = <T>(request: () => Promise<T>) => whilePlatformaticLeadersSettle(request, { timeoutMs: Math.max(0, context.deadline - Date.now()) });
  // The client's cached metadata first (a read is one fetch then); the broker's after a failure,
  // or when the cache knows no such partition (partitions may have been added).
  let forceUpdate = false;
  const answer = await settle(async () => {
    let topicMetadata = (await consumer.metadata({ topics: [topic], forceUpdate })).topics.get(topic);
    if (!forceUpdate && (topicMetadata === undefined || partition >= topicMetadata.partitionsCount)) topicMetadata = (await consumer.metadata({ topics: [topic], forceUpdate: true })).topics.get(topic);
    forceUpdate = true;
    if (topicMetadata === undefined || partition < 0 || partition >= topicMetadata.partitionsCount) return { noPartition: true } as const;
    const node = topicMetadata.partitions[partition]?.leader ?? -1;
    // canRetry, as the library marks what is worth another try: the leader is being elected.
    if (node < 0) throw Object.assign(new Error(`no leader is known for ${topic}[${partition}] yet`), { canRetry: true });
    // Tracked during the fetch only, and only once known to exist (every fetch of the reader asks
    // the metadata of the tracked topics): names ↔ ids on brokers whose Fetch predates topic ids.
    consumer.topics.track(topic);
    try {
      const response = await context.oneAtATime(node, () =>
        consumer.fetch({
          node,
          topics: [{ topicId: topicMetadata.id, partitions: [{ partition, fetchOffset: offset, partitionMaxBytes: KAFKA_DEFAULTS.groupLessReads.maxBytesPerPartition, currentLeaderEpoch: -1, lastFetchedEpoch: -1 }] }],
          // What is readable at once: a position at the end is answered, not waited on.
          maxWaitTime: 0,
          minBytes: 1,
          maxBytes: KAFKA_DEFAULTS.groupLessReads.maxBytesPerPartition,
          isolationLevel: isolationLevelOf(context.isolation),
        }),
      );
      return { partition: response.responses.find((entry) => entry.topicId === topicMetadata.id)?.partitions.find((entry) => entry.partitionIndex === partition) };
    } catch (error) {
      if (hasPlatformaticErrorId(error, 'OFFSET_OUT_OF_RANGE')) return { outOfRange: true } as const;
      throw error;
    } finally {
      consumer.topics.untrack(topic);
    }
  });
  if ('noPartition' in answer) return { found: false, detail: `the topic '${topic}' has no partition ${partition}` };
  if ('partition' in answer) {
    const found = messageAt(answer.partition, offset, context.isolation, where);
    if (found !== undefined) return found;
  }
  // Not found in the fetch's answer: where the partition starts and ends says why.
  const bounds = (await settle(() => listPartitionBounds(consumer, { [topic]: [partition] }))).get(topic)?.get(partition);
  if (bounds === undefined) throw new Error(`Kafka listed no offsets for ${topic}[${partition}]`);
  if (offset < bounds.low) return { found: false, detail: `${where} is no longer on the topic (the partition now starts at ${bounds.low}): retention deleted it` };
  if (offset >= bounds.high) return { found: false, detail: `${where} was never written (the partition ends at ${bounds.high})` };
  return { found: false, detail: `${where} holds no message any more` };
}

/**
 * The answer of a fetch at `offset` (its first batch holds the offset or follows it): the
 * message, or why there is none; undefined when the answer brought nothing to judge by.
 * `where` names the position in the detail ('offset 7 of runs[2]').
 */
export function messageAt(answer: FetchResponsePartition | undefined, offset: bigint, isolation: ReadIsolation, where: string): FetchAtResult | undefined {
  const batches = answer?.records ?? [];
  const last = batches.at(-1);
  if (last === undefined || lastOffsetOf(last) < offset) return undefined;
  const visible = isolation === 'read_committed' ? createAbortedTransactionFilter().committedBatches(batches, answer?.abortedTransactions) : batches;
  const [message] = messagesOfBatches(visible, { from: offset, before: offset + 1n });
  if (message !== undefined) return { found: true, message };
  return { found: false, detail: `${where} holds no message any more (compacted, or a transaction marker)` };
}

// Layout (B) of the exactly-once benchmark: one transactional producer for the whole instance, as
// Kafka Streams' exactly-once v2 (KIP-447). Behind the same RecordSink seam as the shipped
// per-partition sink (consumers/transactional-sink.ts) and on its cadence — a commit every
// interval, and at once when half the run slots hold finished messages — but every claim's
// finished prefix goes into ONE transaction, one at a time for the instance: the records of all
// partitions, then each partition's offset committed under the consumer's group metadata
// (generation id and member id), which is what lets the group coordinator fence a zombie instead
// of a transactional id per partition. The benchmark injects no faults: a failed transaction is
// aborted and counted, and the run does not count (a real sink would rewind every partition of
// the instance here; docs/benchmarks.md, the exactly-once section, says what that would take).
import type { Consumer, Message } from '@platformatic/kafka';
import { ProduceAcks } from '@platformatic/kafka';
import type { OutgoingRecord } from '../../kafka/kafka-records.ts';
import { KAFKA_DEFAULTS } from '../../kafka/kafka-defaults.ts';
import type { ClientApiProducer } from '../../kafka/platformatic-client-api-producer.ts';
import { toMessageToProduce } from '../../kafka/platformatic-records.ts';
import type { PartitionClaim, RecordSink } from '../../consumers/record-sink.ts';
import type { ServiceStats } from '../../consumers/service-stats.ts';
import { sendRecords } from '../../producers/send-records.ts';
import { InstanceClaim } from './instance-claim.ts';
import type { ClaimPrefix, HeldMessage } from './instance-claim.ts';
import type { TransactionTimings } from './transaction-timings.ts';

/** The consumer's group metadata at commit time (Java's consumer.groupMetadata()), in the shape 2.12.1 reads from a consumed message. */
export type GroupMetadata = { groupId: string; generationId: number; memberId: string; coordinatorId: number };

export type InstanceSinkOptions = {
  producer: ClientApiProducer;
  groupMetadata: () => GroupMetadata;
  /** Commit at once (not waiting for the interval) when this many finished messages are held. */
  pressureThreshold: number;
  stats: ServiceStats;
  timings: TransactionTimings;
  /** Told of a transaction that failed (it was aborted): the benchmark's run ends. */
  failed: (error: unknown) => void;
};

type Part = { claim: InstanceClaim; prefix: ClaimPrefix };
/** 2.12.1 does not export its Transaction class. */
type Transaction = Awaited<ReturnType<ClientApiProducer['beginTransaction']>>;

const send = { maxRequestBytes: KAFKA_DEFAULTS.publish.maxRequestBytes, maxRequestRecords: KAFKA_DEFAULTS.publish.maxBatchRecords, onRefused: () => undefined, rejectRefusedRequest: true };

export function createInstanceTransactionalSink(options: InstanceSinkOptions): RecordSink {
  const { producer, stats, timings } = options;
  let claims = new Map<string, InstanceClaim>();
  let transaction: Promise<'committed' | 'failed'> | undefined;
  let inTransaction = new Set<HeldMessage>();
  let commitScheduled = false;
  let initialised: Promise<void> | undefined;

  const heldMessages = () => {
    let count = 0;
    for (const claim of claims.values()) count += claim.heldMessages;
    return count;
  };

  /** The first claim initialises the transactional id once for the instance (InitProducerId), as the first claim of each partition does today. */
  const initialise = () =>
    (initialised ??= (async () => {
      const first = await producer.beginTransaction();
      await first.cancel(); // nothing was sent: ends locally
    })());

  const runTransaction = async (parts: readonly Part[]): Promise<'committed' | 'failed'> => {
    const begunAt = performance.now();
    let current: Transaction | undefined;
    try {
      current = await producer.beginTransaction();
      const open = current;
      const records: OutgoingRecord[] = parts.flatMap(({ prefix }) => prefix.messages.flatMap((entry) => entry.records));
      const sendStartedAt = performance.now();
      const failed = (await sendRecords((request) => open.send({ messages: request.map(toMessageToProduce), acks: ProduceAcks.ALL }), records, send)).find((result) => result !== undefined);
      if (failed !== undefined) throw failed;
      const offsetsStartedAt = performance.now();
      const metadata = options.groupMetadata();
      await open.addConsumer({ groupId: metadata.groupId } as Consumer);
      // One TxnOffsetCommit per partition, one after another: 2.12.1 takes offsets only as consumed
      // messages, one per request, and deduplicates a producer's concurrent ones (its in-flight key
      // is 'commit'), so a second one sent at once would be answered by the first's request.
      for (const { claim, prefix } of parts) {
        const consumed = { topic: claim.topic, partition: claim.partition, offset: BigInt(prefix.offset) - 1n, metadata: { consumer: metadata } };
        await open.addOffset(consumed as unknown as Message);
      }
      const endStartedAt = performance.now();
      await open.commit();
      const endedAt = performance.now();
      timings.record({ totalMs: endedAt - begunAt, sendMs: offsetsStartedAt - sendStartedAt, offsetsMs: endStartedAt - offsetsStartedAt, endMs: endedAt - endStartedAt, records: records.length, partitions: parts.length });
      stats.transactions += 1;
      stats.commits += 1;
      return 'committed';
    } catch (error) {
      await current?.abort().catch(() => undefined);
      stats.transactionFailures += 1;
      options.failed(error);
      return 'failed';
    }
  };

  const commit = async (): Promise<void> => {
    if (transaction !== undefined) return; // busy: one transaction at a time for the instance
    const parts: Part[] = [];
    for (const claim of claims.values()) {
      if (!claim.active) continue;
      const prefix = claim.takePrefix();
      if (prefix !== undefined) parts.push({ claim, prefix });
    }
    if (parts.length === 0) return;
    inTransaction = new Set(parts.flatMap(({ prefix }) => prefix.messages));
    transaction = runTransaction(parts);
    const outcome = await transaction;
    // Committed or not, these messages leave memory: committed, or to be read again.
    for (const { claim, prefix } of parts) claim.settle(prefix, outcome === 'committed');
    transaction = undefined;
    inTransaction = new Set();
    // Only after progress: nothing to commit must not spin.
    if (outcome === 'committed' && heldMessages() >= options.pressureThreshold) scheduleCommit();
  };

  function scheduleCommit() {
    if (commitScheduled) return;
    commitScheduled = true;
    setImmediate(() => {
      commitScheduled = false;
      void commit();
    });
  }

  const onHeld = () => {
    if (heldMessages() >= options.pressureThreshold) scheduleCommit();
  };

  return {
    delivery: 'exactly-once',
    async claim(topic, partition): Promise<PartitionClaim> {
      const key = `${topic}[${partition}]`;
      const existing = claims.get(key);
      if (existing !== undefined) return existing;
      const claim = new InstanceClaim(topic, partition, onHeld);
      claims.set(key, claim);
      await initialise();
      return claim;
    },
    commit,
    assignmentEnded() {
      // Under KIP-447 the open transaction must be committed (or aborted) before the partitions are
      // revoked; the benchmark has no rebalance, so this only drops what was not in a transaction.
      for (const claim of claims.values()) claim.end(inTransaction);
      claims = new Map();
    },
    async close() {
      while (transaction !== undefined) await transaction;
      await commit();
      for (const claim of claims.values()) claim.end(inTransaction);
      claims = new Map();
      await producer.close(true);
    },
  };
}

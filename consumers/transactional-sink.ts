// Exactly-once delivery (config `delivery: 'exactly-once'`): each partition's finished prefix is
// published in one Kafka transaction together with the prefix's consumed offset, so a
// `read_committed` reader sees each record exactly once, whatever crashes or rebalances happen.
//
//   claim     on a partition's first batch under an assignment: a fresh transactional producer
//             for the partition's id fences every earlier owner (completing or aborting its open
//             transaction), then the group's committed offset is read back; messages below it
//             were committed by that owner after our consumer fetched its position, so they are
//             skipped rather than scored twice.
//   hold      records of a message wait in memory until it is inside the contiguous prefix.
//   commit    every commit interval, and at once when half the run slots hold finished messages:
//             one transaction per partition with an advanced prefix (partitions in parallel).
//   failure   the transaction is aborted and the claim reset: its held and in-flight work is
//             dropped, the consumer seeks back to the last committed offset, and the next batch
//             claims the partition afresh (new producer, fencing the failed one). The runs are
//             scored again; only the committed transaction's records are ever visible.
//   rebalance every claim ends (RecordSink.assignmentEnded); a transaction in flight may still
//             commit (it was started while we owned the partition) unless the new owner's claim
//             fenced it first.
//
// The consumer never commits offsets itself in this mode: sendOffsets inside the transaction does.
import type { Logger } from 'pino';
import type { PartitionClaim, RecordSink } from './record-sink.ts';
import type { ServiceStats } from './service-stats.ts';
import { TransactionalClaim } from './transactional-claim.ts';
import type { TransactionalClaimOptions } from './transactional-claim.ts';
import type { GroupConsumer, TransactionalKafka } from '../kafka/kafka-transport.ts';
import { transactionalIdFor } from '../kafka/transactional-kafka.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';

export type TransactionalSinkOptions = {
  kafka: TransactionalKafka;
  consumer: Pick<GroupConsumer, 'seek'>;
  groupId: string;
  stats: ServiceStats;
  logger: Logger;
  /** Commit at once (not waiting for the interval) when this many finished messages are held. */
  pressureThreshold: number;
  /** How a transaction's records are cut into requests, and what happens to a refused one. */
  send?: TransactionalClaimOptions['send'];
  /** Bound on the final commit at close (default KAFKA_DEFAULTS.transactions.closeTimeoutMs). */
  closeTimeoutMs?: number;
};

type Entry = { claim: TransactionalClaim; ready: Promise<TransactionalClaim> };

export function createTransactionalSink(options: TransactionalSinkOptions): RecordSink {
  const { kafka, consumer, groupId, stats, logger } = options;
  let claims = new Map<string, Entry>();
  const disposals = new Set<Promise<void>>();
  let commitScheduled = false;

  const heldMessages = () => {
    let count = 0;
    for (const { claim } of claims.values()) count += claim.heldMessages;
    return count;
  };

  /** Ends nothing by itself: waits for the claim's fencing and transaction in flight, then disconnects its producer. */
  const dispose = (entry: Entry) => {
    const disposal = entry.ready
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => entry.claim.dispose())
      .finally(() => disposals.delete(disposal));
    disposals.add(disposal);
  };

  const reset = (key: string, entry: Entry) => {
    const { claim } = entry;
    if (claims.get(key) !== entry || !claim.active) return; // the assignment ended meanwhile
    claims.delete(key);
    const resumeOffset = claim.resumeOffset;
    claim.end();
    dispose(entry);
    if (resumeOffset !== undefined) consumer.seek({ topic: claim.topic, partition: claim.partition, offset: String(resumeOffset) });
  };

  const commitClaim = async (key: string, entry: Entry): Promise<void> => {
    const outcome = await entry.claim.commit();
    if (outcome === 'failed') reset(key, entry);
    // Only after progress: a claim that is busy or has nothing to commit must not spin.
    else if (outcome === 'committed' && heldMessages() >= options.pressureThreshold) scheduleCommit();
  };

  const commit = async (): Promise<void> => {
    const active = [...claims].filter(([, entry]) => entry.claim.active);
    await Promise.all(
      active.map(([key, entry]) =>
        entry.ready.then(
          () => commitClaim(key, entry),
          () => undefined, // reported where the claim failed
        ),
      ),
    );
  };

  /** An early commit when held messages take many run slots (bounded memory must not mean a stall until the next tick). */
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
    claim(topic, partition): Promise<PartitionClaim> {
      const key = `${topic}[${partition}]`;
      const existing = claims.get(key);
      if (existing !== undefined) return existing.ready;
      const claim = new TransactionalClaim({ topic, partition, groupId, producer: kafka.producer(transactionalIdFor(groupId, topic, partition)), stats, logger, onHeld, send: options.send });
      const entry: Entry = {
        claim,
        ready: (async () => {
          await claim.fence();
          claim.fromOffset = await kafka.committedOffset(topic, partition);
          return claim;
        })(),
      };
      claims.set(key, entry);
      entry.ready.catch((error: unknown) => {
        logger.warn({ err: error, topic, partition }, 'claiming the partition for transactions failed; its batch is retried');
        if (claims.get(key) === entry) claims.delete(key);
        claim.end();
        dispose(entry);
      });
      return entry.ready;
    },
    commit,
    assignmentEnded() {
      let dropped = 0;
      for (const entry of claims.values()) {
        dropped += entry.claim.end();
        dispose(entry);
      }
      claims = new Map();
      if (dropped > 0) logger.info({ dropped }, 'assignment ended: finished runs not yet in a transaction are dropped; the partitions’ owners score them again');
    },
    async close() {
      const timeoutMs = options.closeTimeoutMs ?? KAFKA_DEFAULTS.transactions.closeTimeoutMs;
      const finalCommit = (async () => {
        for (const { claim } of claims.values()) await claim.settled();
        await commit();
        for (const entry of claims.values()) {
          entry.claim.end();
          dispose(entry);
        }
        claims = new Map();
        await Promise.all([...disposals]);
      })();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        finalCommit.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      if (!finished) logger.warn({ timeoutMs }, 'the final transactions did not finish in time; runs not committed are scored again after restart');
      await kafka.close().catch((error: unknown) => logger.debug({ err: error }, 'closing the transactional admin client failed'));
    },
  };
}

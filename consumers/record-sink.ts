// Where a consumed message's records go and how its offset becomes committed: the delivery
// strategy behind the scoring consumer. The consumer dispatches; the sink decides what "done"
// means. Two implementations:
//   - at-least-once (this file): records are published as each scorer finishes; offsets are
//     committed with the consumer, behind the acknowledged records (the contiguous prefix);
//   - exactly-once (transactional-sink.ts): records are held until their message is in the
//     prefix, then published together with the prefix's offset in one Kafka transaction.
// A claim is one partition under one assignment; what ending an assignment means is
// RecordSink.assignmentEnded's rule, below.
import type { Logger } from 'pino';
import type { DeliveryMode } from '../src/engine/config/config-types.ts';
import type { RecordPublisher } from '../producers/record-publisher.ts';
import { PartitionProgress } from './partition-progress.ts';
import type { ServiceStats } from './service-stats.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import type { GroupConsumer } from '../kafka/kafka-transport.ts';

/** What a message's records are published through (its ticket's). */
export type MessageOutput = Pick<RecordPublisher, 'publish'>;

export type MessageTicket = {
  readonly output: MessageOutput;
  /** Every record of the message went to `output`: its offset may be committed once all before it are. */
  finished(): void;
  /** The message will never finish (hard stop, or not even dead-lettering worked): its offset stays uncommitted. */
  abandoned(): void;
};

export type PartitionClaim = {
  readonly topic: string;
  readonly partition: number;
  /** False once the assignment ended (or the partition was reset): dispatch nothing more under it. */
  readonly active: boolean;
  /**
   * Where records that belong to no message go (a thread closed by its timer, thread-source.ts),
   * written after the work of the message at offset `after` (undefined: before any message):
   * at-least-once the publisher; exactly-once the partition's next transaction that covers that
   * message, right after its records.
   */
  detached(after: string | undefined): MessageOutput;
  /** Messages below this offset were committed already (exactly-once: by a fenced previous owner): skip them. */
  readonly fromOffset: number | undefined;
  /**
   * Called for each dispatched message, in offset order. `release` frees the message's run slot;
   * the sink calls it once the message no longer takes memory (finished, committed or dropped).
   */
  open(offset: string, release: () => void): MessageTicket;
  /**
   * Called once when the claim ends — its assignment ended, or (exactly-once) its transaction
   * failed and the partition is read again from its last commit — so that state fed by the claim's
   * messages (a source's, run-source.ts) ends with it. At once when it has ended already.
   */
  onEnd(listener: () => void): void;
};

export type RecordSink = {
  readonly delivery: DeliveryMode;
  /** The claim on a partition under the current assignment, made on its first batch. */
  claim(topic: string, partition: number): Promise<PartitionClaim>;
  /** Commits what finished (called periodically). */
  commit(): Promise<void>;
  /**
   * The assignment ended (a rebalance, a new join): every claim ends with it. Work of an ended
   * claim may still finish — and, at-least-once, publish its records: a duplicate with the same
   * scoreId — but its offsets are never committed by this instance; such a message counts as a
   * stale completion (ServiceStats.staleCompletions) and the partition's owner scores it again
   * from the last commit. That is the rule that keeps a commit from outrunning its records when
   * partitions move (docs/delivery.md, offsets, claims and rebalances). Both sinks enforce it
   * here and in their tickets' `finished()`.
   */
  assignmentEnded(): void;
  /** At shutdown, once in-flight work settled: the final commit, then resources are released. */
  close(): Promise<void>;
};

export type AtLeastOnceSinkOptions = {
  consumer: Pick<GroupConsumer, 'commitOffsets'>;
  publisher: RecordPublisher;
  stats: ServiceStats;
  logger: Logger;
  /** Bound on waiting for the publisher's stragglers at close (default KAFKA_DEFAULTS.publish.flushTimeoutMs). */
  flushTimeoutMs?: number;
};

type AtLeastOnceClaim = PartitionClaim & { readonly progress: PartitionProgress; end(): void };

export function createAtLeastOnceSink(options: AtLeastOnceSinkOptions): RecordSink {
  const { consumer, publisher, stats, logger } = options;
  let claims = new Map<string, AtLeastOnceClaim>();
  let committing: Promise<void> = Promise.resolve();

  const newClaim = (topic: string, partition: number): AtLeastOnceClaim => {
    const progress = new PartitionProgress(topic, partition);
    let active = true;
    const listeners: Array<() => void> = [];
    return {
      topic,
      partition,
      progress,
      detached: () => publisher,
      fromOffset: undefined,
      get active() {
        return active;
      },
      end() {
        active = false;
        for (const listener of listeners.splice(0)) listener();
      },
      onEnd(listener) {
        if (active) listeners.push(listener);
        else listener();
      },
      open(offset, release) {
        progress.dispatched(offset);
        let settled = false;
        return {
          output: publisher,
          finished() {
            if (settled) return;
            settled = true;
            release();
            if (active) progress.completed(offset);
            else stats.staleCompletions += 1;
          },
          abandoned() {
            if (settled) return;
            settled = true;
            release();
          },
        };
      },
    };
  };

  const commitFinished = async (): Promise<void> => {
    const offsets: Array<{ topic: string; partition: number; offset: string }> = [];
    const owners: AtLeastOnceClaim[] = [];
    for (const claim of claims.values()) {
      const offset = claim.progress.commitCandidate();
      if (offset === undefined) continue;
      offsets.push({ topic: claim.topic, partition: claim.partition, offset });
      owners.push(claim);
    }
    if (offsets.length === 0) return;
    try {
      // Only claims of the current assignment are here (they are dropped the moment it ends).
      // Sent between REBALANCING and our re-join, a commit is still legitimate: the generation is
      // ours until the JoinGroup completes, and the new owners read offsets after it. Once the
      // generation moved on, the broker rejects it (ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS:
      // kafkajs does not retry those). One window remains: a commit failing on a retriable error
      // (connection, coordinator moved) is retried by the client with whatever generation is current
      // then, and neither kafkajs nor the broker checks ownership (revoked-commit.test.ts); it can
      // only move a new owner's offset back (re-scoring), never past unacknowledged records.
      await consumer.commitOffsets(offsets);
      owners.forEach((claim, index) => claim.progress.markCommitted(offsets[index]!.offset));
      stats.commits += 1;
    } catch (error) {
      logger.warn({ err: error, offsets }, 'committing offsets failed; will retry on the next tick (a new owner re-scores from the last commit)');
    }
  };

  return {
    delivery: 'at-least-once',
    async claim(topic, partition) {
      const key = `${topic}[${partition}]`;
      let claim = claims.get(key);
      if (claim === undefined) claims.set(key, (claim = newClaim(topic, partition)));
      return claim;
    },
    commit() {
      committing = committing.then(commitFinished);
      return committing;
    },
    assignmentEnded() {
      for (const claim of claims.values()) claim.end();
      claims = new Map();
    },
    async close() {
      // Whatever finished is acknowledged already; flushing only hurries stragglers. Bounded,
      // because with the broker gone the idempotent producer would retry for ever.
      await Promise.race([publisher.flush(), new Promise((resolve) => setTimeout(resolve, options.flushTimeoutMs ?? KAFKA_DEFAULTS.publish.flushTimeoutMs).unref())]);
      await this.commit();
    },
  };
}

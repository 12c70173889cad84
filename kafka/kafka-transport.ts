// The scoring path's Kafka seam: a group consumer that hands over batches per partition, an
// idempotent record producer and transactional producers, in the project's own terms
// (kafka-records.ts), so that the scoring consumer, the sinks and the publisher depend on these
// types and not on one client library's. platformatic-transport.ts implements it on the shipped
// client; kafkajs-transport.ts on kafkajs, the documented alternative, loaded only when
// `kafka.client` names it. Admin work, topic creation, the pre-flight and every group-less read
// (replay ranges, restores, re-score reads, the dashboard, tail, the monitor) go through the same
// edge on the shipped client (kafka-edge.ts).
import type { KafkaClientName } from '../src/engine/config/config-types.ts';
import type { ConsumedMessage, OutgoingRecord } from './kafka-records.ts';

/** A position in a partition: the next offset to read, as a decimal string. */
export type PartitionOffset = { readonly topic: string; readonly partition: number; readonly offset: string };

/** Messages of one partition, in offset order, as one fetch returned them. */
export type ConsumedBatch = {
  readonly topic: string;
  readonly partition: number;
  readonly messages: readonly ConsumedMessage[];
  /** The partition's high watermark at the fetch; undefined when the client does not report it. */
  readonly highWatermark: string | undefined;
};

/** What a batch handler may do to its partition while it holds the batch. */
export type BatchControl = {
  /** Stops fetching and delivering this partition; the function returned resumes it. */
  pause(): () => void;
  /** Keeps the group membership alive during a long wait (a no-op where the client heartbeats by itself). */
  heartbeat(): Promise<void>;
  /** False once the consumer is stopping. */
  isRunning(): boolean;
  /** True once the batch is out of date: the partition was sought, or the group was re-joined. */
  isStale(): boolean;
  /** The message at `offset` was taken; the messages after the last one resolved are delivered again. */
  resolveOffset(offset: string): void;
};

export type GroupConsumerEvents = {
  /** The group is rebalancing: this member re-joins (the assignment it had is ending). */
  rebalancing?(): void;
  /** This member joined the group with these partitions, by topic. */
  joined?(assignment: Record<string, number[] | undefined>): void;
  /** The consumer failed; `restarting` false means for good. */
  crashed?(error: Error, restarting: boolean): void;
};

export type GroupConsumerOptions = {
  groupId: string;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** At least this per partition per fetch (and always one message of maxMessageBytes). */
  maxBytesPerPartition: number;
  /** How often a failed fetch or join is retried before the consumer crashes. */
  retries: number;
  events: GroupConsumerEvents;
};

export type GroupConsumerRun = {
  topics: readonly string[];
  /** Where a partition without a committed offset starts: its earliest offset, else the latest. */
  fromBeginning: boolean;
  /** How many partitions' batches may be handled at once. */
  partitionsConsumedConcurrently: number;
  eachBatch(batch: ConsumedBatch, control: BatchControl): Promise<void>;
};

export type GroupConsumer = {
  /** Connects, subscribes and starts delivering batches. */
  run(options: GroupConsumerRun): Promise<void>;
  /** Stops fetching these topics (every partition when none are named). */
  pause(topics: ReadonlyArray<{ topic: string; partitions?: number[] }>): void;
  /**
   * The next fetch of the partition starts at `offset`. Never throws for a consumer that is not
   * running (stopped, or restarting after a crash): it starts from the group's commits when it runs.
   */
  seek(position: PartitionOffset): void;
  /** Commits these positions for the group (offset = the next message to read). */
  commitOffsets(offsets: readonly PartitionOffset[]): Promise<void>;
  /** Leaves the group and closes the connections. */
  disconnect(): Promise<void>;
};

/** An idempotent producer, acks from every in-sync replica, placing records by key-partitioner.ts's rule. */
export type RecordProducer = {
  connect(): Promise<void>;
  /** One request: resolves when the broker acknowledged every record, rejects with the client's error. */
  send(records: readonly OutgoingRecord[]): Promise<void>;
  disconnect(): Promise<void>;
};

export type ProducerTransaction = {
  send(records: readonly OutgoingRecord[]): Promise<void>;
  /** The group's offset of the consumed partition, committed with the transaction. */
  sendOffsets(offset: PartitionOffset & { groupId: string }): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
};

export type TransactionalProducer = {
  connect(): Promise<void>;
  /** Begins a transaction; the first one initialises the transactional id, which fences every earlier producer of the id. */
  transaction(): Promise<ProducerTransaction>;
  disconnect(): Promise<void>;
};

export type TransactionalKafka = {
  /** A new, unconnected transactional producer for this id. */
  producer(transactionalId: string): TransactionalProducer;
  /** The group's committed offset of a partition (the next offset to consume), or undefined when none. */
  committedOffset(topic: string, partition: number): Promise<number | undefined>;
  close(): Promise<void>;
};

export type TransactionalKafkaOptions = {
  groupId: string;
  /**
   * How long the broker lets a transaction stay open before aborting it itself: what a
   * `read_committed` reader waits at most behind a dead owner's transaction when nobody claims its
   * partition sooner (a restart or the new owner aborts it at once).
   */
  transactionTimeoutMs?: number;
};

export type KafkaTransport = {
  /** Which client library this is (logged at start-up). */
  readonly client: KafkaClientName;
  consumer(options: GroupConsumerOptions): GroupConsumer;
  producer(): RecordProducer;
  transactional(options: TransactionalKafkaOptions): TransactionalKafka;
};

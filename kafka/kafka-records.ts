// The shapes of Kafka records as the rest of the service sees them — a consumed message, a record
// to publish, their headers — so that the per-message path, the sources, the emitter and the sinks
// depend on these small types and not on one client library's (kafkajs today; another client
// plugs in behind kafka/ by producing and taking the same).
import type { PublishRefusal } from './publish-refusal.ts';

import type { MessageHeaders } from '../otel/kafka-headers.ts';

export type { MessageHeaders } from '../otel/kafka-headers.ts';

/** One consumed message (kafkajs' KafkaMessage has this shape). */
export type ConsumedMessage = {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers?: MessageHeaders;
  /** A 64-bit offset as a decimal string. */
  readonly offset: string;
  /** The record's timestamp, epoch milliseconds as a decimal string. */
  readonly timestamp: string;
};

/** One record to publish. */
export type OutgoingRecord = {
  readonly topic: string;
  readonly key: string | null;
  /**
   * What the partition is chosen by when it differs from the key (score and decision records and
   * retry messages: keyed by their scoreId, partitioned by run id or thread key; src/kit/contracts/record-key.ts).
   * Handed to the partitioner with the message (key-partitioner.ts), never written to Kafka.
   */
  readonly partitionKey?: string;
  /** null: a tombstone (a compacted topic forgets the key). */
  readonly value: string | Buffer | null;
  readonly headers?: MessageHeaders;
  /** A partition chosen by the writer (a changelog partition mirrors its input's); else by key. */
  readonly partition?: number;
  /**
   * What to write instead when the broker refuses this record for what it is (its size, its
   * content; publish-refusal.ts): a smaller form, or a record saying why. None: the record is
   * dropped and reported (producers/send-records.ts).
   */
  readonly fallback?: (refusal: PublishRefusal) => OutgoingRecord | undefined;
};

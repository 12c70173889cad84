// The one way out of a side role — the feedback join, the monitor: its records go through the same
// emitter as the service's (consumers/emitter/), so they get the deployment's data handling (a
// person's comment is redacted like a judge's reason), their topology entry's key, sizing to
// maxRecordBytes with a smaller stand-in, the classification of a broker's refusal (a record
// refused for what it is fails alone and is replaced, never retried for ever) and the origin
// header. They are published with Kafka's acknowledgement through the role's idempotent producer,
// batched as the service's are, and retried until accepted — or until the role stops.
import type { Logger } from 'pino';
import type { Source } from '../src/kit/contracts/common.ts';
import type { DataHandling } from '../src/engine/data-handling/data-handling.ts';
import type { Topology } from '../src/engine/topology/topology.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import type { OutgoingRecord } from '../kafka/kafka-records.ts';
import type { RecordProducer } from '../kafka/kafka-transport.ts';
import type { PublishRefusal } from '../kafka/publish-refusal.ts';
import { createEmitter } from '../consumers/emitter/record-emitter.ts';
import type { Emission } from '../consumers/emitter/emission.ts';
import { defaultPublishRetry } from '../consumers/publish-until-acknowledged.ts';
import { ServiceStats } from '../consumers/service-stats.ts';
import { createRecordPublisher } from '../producers/record-publisher.ts';

export type RoleOutputOptions = {
  /** An unconnected idempotent producer of the role's client. */
  producer: RecordProducer;
  topology: Topology;
  handling: DataHandling;
  maxRecordBytes: number;
  /** Where the role's dead letters go. */
  deadLetterTopic: string;
  logger: Logger;
  now?: () => number;
};

export type RoleOutput = {
  /** Resolves once Kafka acknowledged the emission's records (or they were dropped and reported: too large in every form). */
  emit(emission: Emission, source?: Source): Promise<void>;
  /** What the emitter counted: records cut, refused, dropped; dead letters; publish retries. */
  readonly stats: ServiceStats;
  /** Stops retrying (an emission still waiting rejects) and disconnects. */
  close(): Promise<void>;
};

/** Where a side role's record comes from when no consumed message owns it (a window update on a timer). */
const roleSource = (topic: string): Source => ({ topic, partition: 0, offset: '0' });

export async function startRoleOutput(options: RoleOutputOptions): Promise<RoleOutput> {
  const { logger } = options;
  const stats = new ServiceStats();
  const stopped = new AbortController();
  await options.producer.connect();
  const publisher = createRecordPublisher(options.producer, {
    maxRequestBytes: options.maxRecordBytes,
    maxBatchRecords: KAFKA_DEFAULTS.publish.maxBatchRecords,
    onRefused: (record: OutgoingRecord, refusal: PublishRefusal, replacement: OutgoingRecord | undefined) => {
      stats.recordsRefused += 1;
      if (replacement === undefined) stats.recordsDropped += 1;
      const what = { topic: record.topic, key: record.key?.slice(0, 200), refusal: refusal.type };
      if (replacement === undefined) logger.error(what, `Kafka refused a record (${refusal.type}) and no smaller form of it is left: dropped`);
      else logger.warn(what, `Kafka refused a record (${refusal.type}); writing a smaller form of it instead (lower maxRecordBytes to the topic's max.message.bytes)`);
    },
  });
  const emitter = createEmitter({
    topology: options.topology,
    handling: options.handling,
    maxRecordBytes: options.maxRecordBytes,
    deadLetterTopic: options.deadLetterTopic,
    stats,
    logger,
    now: options.now ?? Date.now,
    hardStop: stopped.signal,
    publishRetry: defaultPublishRetry,
  });
  return {
    stats,
    async emit(emission, source) {
      await emitter.emit(emission, publisher, { source: source ?? roleSource(options.deadLetterTopic), eventTime: Number.NaN });
    },
    async close() {
      await Promise.race([publisher.flush(), new Promise((resolve) => setTimeout(resolve, KAFKA_DEFAULTS.publish.flushTimeoutMs).unref())]);
      stopped.abort(new Error('the role stopped'));
      await options.producer.disconnect();
    },
  };
}

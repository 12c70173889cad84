// The two transaction layouts the exactly-once benchmark compares, each as the RecordSink a run
// drives (consume-through-sink.ts), with the counters and clock it reports:
//   (A) today's: the shipped sink (consumers/transactional-sink.ts) on the shipped producers
//       (kafka/platformatic-producers.ts) — a transactional producer per input partition, id
//       `{groupId}-{topic}-{partition}`, offsets committed with generation -1 and no member id;
//   (B) KIP-447's: one transactional producer for the instance (instance-transactional-sink.ts),
//       offsets committed under the consumer's group metadata.
import type { Consumer } from '@platformatic/kafka';
import pino from 'pino';
import type { PlatformaticConnection } from '../../kafka/platformatic-options.ts';
import { platformaticTransactionalKafka } from '../../kafka/platformatic-producers.ts';
import type { RecordSink } from '../../consumers/record-sink.ts';
import { ServiceStats } from '../../consumers/service-stats.ts';
import { createTransactionalSink } from '../../consumers/transactional-sink.ts';
import { instanceTransactionalProducer } from './instance-producer.ts';
import { createInstanceTransactionalSink } from './instance-transactional-sink.ts';
import type { GroupMetadata } from './instance-transactional-sink.ts';
import { timedTransactionalKafka } from './timed-transactional-kafka.ts';
import { TransactionTimings } from './transaction-timings.ts';

export type LayoutName = 'A' | 'B';

export const layoutTitles: Record<LayoutName, string> = {
  A: '(A) a producer per partition (today)',
  B: '(B) one producer per instance (KIP-447)',
};

export type LayoutUnderTest = {
  stats: ServiceStats;
  timings: TransactionTimings;
  sink: (consumer: Consumer<Buffer, Buffer, Buffer, Buffer>, fail: (error: unknown) => void) => RecordSink;
};

export type LayoutOptions = {
  connection: PlatformaticConnection;
  groupId: string;
  /** Held messages that trigger an early commit: half the run slots, as service/delivery-sink.ts sets it. */
  pressureThreshold: number;
};

/** Java's consumer.groupMetadata(): what the group coordinator checks a transaction's offsets against. */
function groupMetadataOf(consumer: Consumer<Buffer, Buffer, Buffer, Buffer>): GroupMetadata {
  const { coordinatorId } = consumer;
  if (coordinatorId === null) throw new Error(`the consumer of group ${consumer.groupId} knows no group coordinator yet`);
  return { groupId: consumer.groupId, generationId: consumer.generationId, memberId: consumer.memberId ?? '', coordinatorId };
}

export function layoutUnderTest(name: LayoutName, options: LayoutOptions): LayoutUnderTest {
  const stats = new ServiceStats();
  const timings = new TransactionTimings();
  const { connection, groupId, pressureThreshold } = options;
  if (name === 'A') {
    return {
      stats,
      timings,
      sink: (_consumer, fail) =>
        createTransactionalSink({
          kafka: timedTransactionalKafka(platformaticTransactionalKafka(connection, { groupId }), timings),
          // Called only when a transaction failed and its partition is rewound.
          consumer: { seek: (position) => fail(new Error(`layout (A) rewound ${position.topic}[${position.partition}] to ${position.offset}: a transaction failed`)) },
          groupId,
          stats,
          logger: pino({ level: 'warn' }, pino.destination(2)),
          pressureThreshold,
        }),
    };
  }
  return {
    stats,
    timings,
    sink: (consumer, fail) =>
      createInstanceTransactionalSink({
        producer: instanceTransactionalProducer(connection, `${groupId}-instance`),
        groupMetadata: () => groupMetadataOf(consumer),
        pressureThreshold,
        stats,
        timings,
        failed: fail,
      }),
  };
}

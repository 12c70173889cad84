// The benchmark's checks, outside every clock: how many records the input topic holds, and after
// each run that a read_committed reader of the output topic sees every input record's output record
// exactly once (no transaction lost, none visible twice), so that a layout that is fast because it
// is wrong cannot win.
import type { Kafka } from 'kafkajs';
import type { PlatformaticConnection } from '../../kafka/platformatic-options.ts';
import { readRange } from '../../kafka/read-range.ts';

/** The records a topic holds: the sum of its partitions' high watermarks (nothing was deleted). */
export async function recordsOn(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(topic)).reduce((sum, partition) => sum + Number(partition.high), 0);
  } finally {
    await admin.disconnect();
  }
}

export async function verifyOutput(connection: PlatformaticConnection, outputTopic: string, expected: number): Promise<void> {
  const sources = new Set<string>();
  let read = 0;
  const reading = readRange(connection, {
    topics: [outputTopic],
    from: 'beginning',
    until: 'end-at-start',
    onBatch: (_topic, _partition, messages) => {
      for (const message of messages) {
        read += 1;
        sources.add(message.value?.toString('utf8') ?? '');
      }
    },
  });
  await reading.done;
  if (read !== expected || sources.size !== expected) {
    throw new Error(`${outputTopic}: a read_committed reader saw ${read} records (${sources.size} distinct), not ${expected} once each`);
  }
}

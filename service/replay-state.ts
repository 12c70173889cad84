// Where a replay's range is fixed: the compacted replays topic (`topics.replays`, one partition,
// key = replay id; src/kit/contracts/replay-state.ts). The first run of a replay resolves its range
// (`--from 10m` against the clock of that moment) and records it here before it seeds its group's
// offsets; every later run of the same replay reads it back and replays exactly those offsets —
// so rerunning the same command continues the same replay, whenever it runs and on whichever
// machine (docs/spend-and-replay.md, replay). Read with a throwaway consumer group under the
// replay's own prefix (`<group>.<id>.state-<hex>`, deleted afterwards), as a dry run reads.
import { randomBytes } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { replayStateSchema } from '../src/kit/contracts/replay-state.ts';
import type { ReplayState } from '../src/kit/contracts/replay-state.ts';
import { ensureTopics } from '../kafka/ensure-topics.ts';
import { keyPartitioner } from '../kafka/key-partitioner.ts';
import { whileLeadersSettle } from '../kafka/while-leaders-settle.ts';

/** The replays topic as the replay creates it when missing: one partition, compacted (the latest range per id). */
export function replaysTopicSpec(topic: string) {
  return { topic, numPartitions: 1, config: { 'cleanup.policy': 'compact' } };
}

/** The recorded state of replay `id`, or undefined when it never started. */
export async function readReplayState(kafka: Kafka, topic: string, id: string, groupPrefix: string, logger: Logger): Promise<ReplayState | undefined> {
  await ensureTopics(kafka, [replaysTopicSpec(topic)]);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = (await whileLeadersSettle(() => admin.fetchTopicOffsets(topic))).filter(({ high, low }) => Number(high) > Number(low));
    if (ends.length === 0) return undefined;
    const groupId = `${groupPrefix}.state-${randomBytes(4).toString('hex')}`;
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
    let found: ReplayState | undefined;
    const reached = new Map<number, number>();
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`replay: could not read the replays topic '${topic}' to its end within 30 s`)), 30_000);
        const done = () => ends.every(({ partition, high }) => (reached.get(partition) ?? 0) >= Number(high));
        consumer
          .run({
            autoCommit: false,
            eachMessage: async ({ partition, message }) => {
              reached.set(partition, Number(message.offset) + 1);
              if (message.key?.toString('utf8') === id && message.value !== null) {
                const parsed = replayStateSchema.safeParse(JSON.parse(message.value.toString('utf8')));
                if (parsed.success) found = parsed.data;
                else logger.warn({ id, topic, offset: message.offset }, 'a replay state record does not parse; ignoring it');
              }
              if (done()) resolve();
            },
          })
          .catch(reject);
      }).finally(() => clearTimeout(timer));
    } finally {
      await consumer.disconnect();
      await admin.deleteGroups([groupId]).catch((error: unknown) => logger.warn({ err: error, groupId }, 'replay: could not delete the throwaway group that read its state'));
    }
    return found;
  } finally {
    await admin.disconnect();
  }
}

/** Records the replay's range, acknowledged by every in-sync replica before the replay goes on. */
export async function recordReplayState(kafka: Kafka, topic: string, state: ReplayState): Promise<void> {
  const producer = kafka.producer({ createPartitioner: keyPartitioner, idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: [{ key: state.id, value: JSON.stringify(state) }] });
  } finally {
    await producer.disconnect();
  }
}

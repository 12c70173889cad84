// Where a replay's range is fixed: the compacted replays topic (`topics.replays`, one partition,
// key = replay id; src/kit/contracts/replay-state.ts). The first run of a replay resolves its range
// (`--from 10m` against the clock of that moment) and records it here before it seeds its group's
// offsets; every later run of the same replay reads it back and replays exactly those offsets —
// so rerunning the same command continues the same replay, whenever it runs and on whichever
// machine (docs/spend-and-replay.md, replay). Read group-less (kafka/read-range.ts).
import type { Logger } from 'pino';
import { replayStateSchema } from '../src/kit/contracts/replay-state.ts';
import type { ReplayState } from '../src/kit/contracts/replay-state.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';

/** The replays topic as the replay creates it when missing: one partition, compacted (the latest range per id). */
export function replaysTopicSpec(topic: string) {
  return { topic, numPartitions: 1, config: { 'cleanup.policy': 'compact' } };
}

/** The recorded state of replay `id`, or undefined when it never started: the replays topic read to its end, group-less. */
export async function readReplayState(edge: Pick<KafkaEdge, 'admin' | 'readRange'>, topic: string, id: string, logger: Logger): Promise<ReplayState | undefined> {
  await edge.admin.createTopics([replaysTopicSpec(topic)]);
  let found: ReplayState | undefined;
  const range = edge.readRange({
    topics: [topic],
    from: 'beginning',
    until: 'end-at-start',
    onBatch: (_topic, _partition, messages) => {
      for (const message of messages) {
        if (message.key?.toString('utf8') !== id || message.value === null) continue;
        const parsed = replayStateSchema.safeParse(safeJson(message.value.toString('utf8')));
        if (parsed.success) found = parsed.data;
        else logger.warn({ id, topic, offset: message.offset }, 'a replay state record does not parse; ignoring it');
      }
    },
  });
  await range.done;
  return found;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Records the replay's range, acknowledged by every in-sync replica before the replay goes on. */
export async function recordReplayState(edge: Pick<KafkaEdge, 'producer'>, topic: string, state: ReplayState): Promise<void> {
  const producer = edge.producer();
  await producer.connect();
  try {
    await producer.send([{ topic, key: state.id, value: JSON.stringify(state) }]);
  } finally {
    await producer.disconnect();
  }
}

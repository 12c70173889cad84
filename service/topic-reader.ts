// Reads whole topics from a point in time, group-less (kafka/read-range.ts): every partition,
// never committing, with no group to join, grant or delete. `caughtUp` resolves once every
// partition reached where it stood when the reader started; the read then follows. The feedback
// join uses it to rebuild its state from the topics themselves (agreement-join.ts). Reads only
// committed transactions; the next batch of a partition waits for `eachBatch`.
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import type { ConsumedMessage } from '../kafka/kafka-records.ts';

export type TopicReaderOptions = {
  edge: Pick<KafkaEdge, 'readRange'>;
  topics: readonly string[];
  sinceMs: number;
  /** Called per batch, in offset order within a partition; the next batch of the partition waits for it. */
  eachBatch: (topic: string, partition: number, messages: ConsumedMessage[]) => Promise<void>;
  /** Told when the read failed for good (a batch that threw, a topic that went away). */
  onWarning?: (message: string) => void;
};

export type TopicReader = {
  readonly caughtUp: Promise<void>;
  stop(): Promise<void>;
};

export async function startTopicReader(options: TopicReaderOptions): Promise<TopicReader> {
  const range = options.edge.readRange({ topics: [...options.topics], from: { timestampMs: options.sinceMs }, until: 'follow', onBatch: options.eachBatch, onWarning: options.onWarning });
  range.done.catch((error: unknown) => options.onWarning?.(`the reader of ${options.topics.join(', ')} failed: ${error instanceof Error ? error.message : String(error)}`));
  range.caughtUp.catch(() => undefined);
  return { caughtUp: range.caughtUp, stop: () => range.stop() };
}

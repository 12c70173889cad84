// Reads every partition of one topic for the monitor (`scorestream monitor`) and the dashboard's
// alerts view, from a point in time or from the beginning, group-less (kafka/read-range.ts: the
// monitor must see every partition, and its state is rebuilt from the topics, never from committed
// offsets; no group to join, to grant or to delete). `caughtUp` resolves once each partition was
// read up to where it stood at start, and the read then follows what is written.
import type { KafkaEdge } from '../../kafka/kafka-edge.ts';
import type { ConsumedMessage } from '../../kafka/kafka-records.ts';

export type TopicReaderOptions = {
  edge: Pick<KafkaEdge, 'readRange'>;
  topic: string;
  /** Epoch ms to start from (offsets by timestamp), or 'beginning'. */
  from: number | 'beginning';
  onMessage: (message: ConsumedMessage, partition: number) => void;
  onError?: (error: unknown) => void;
};

export type TopicReader = { readonly caughtUp: Promise<void>; stop(): Promise<void> };

export async function startTopicReader(options: TopicReaderOptions): Promise<TopicReader> {
  const range = options.edge.readRange({
    topics: [options.topic],
    from: options.from === 'beginning' ? 'beginning' : { timestampMs: options.from },
    until: 'follow',
    onBatch: (_topic, partition, messages) => {
      for (const message of messages) options.onMessage(message, partition);
    },
  });
  range.done.catch((error: unknown) => options.onError?.(error));
  // A stop before the read caught up rejects `caughtUp`; whoever waits on it learns of the stop by its own.
  range.caughtUp.catch(() => undefined);
  return { caughtUp: range.caughtUp, stop: () => range.stop() };
}

// What the scoring consumer subscribes to, and the task each topic's messages go to (the topology,
// src/engine/topology/): the runs to the input's source (run events or OTLP traces), each retry
// tier to the retry source, `{runs}-by-thread` (with thread scorers bound) to the thread source,
// the rescore topic (with `rescoreOn`) to the rescore source. A replay consumes the runs only: the
// live service owns the rest. By-thread messages wait for their partition's batch and its
// acknowledgement: they take run slots of their own, so that they never hold the runs' (whose
// scoring makes the turns they wait for).
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { TaskKind } from '../src/engine/topology/topic-entry.ts';
import { entryOf, subscriptionsOf, topologyOfConfig } from '../src/engine/topology/topology.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { readChangelogPartition } from '../kafka/read-changelog-partition.ts';
import { createBatchSource } from './batch-source.ts';
import type { BatchSourceOptions } from './batch-source.ts';
import { rescoreSource } from './rescore-source.ts';
import { retrySource } from './retry-source.ts';
import { runEventSource } from './run-event-source.ts';
import type { RunSource } from './run-source.ts';
import { RunSlots } from './run-slots.ts';
import type { ServiceStats } from './service-stats.ts';
import { createThreadSource } from './thread-source.ts';
import type { ReadChangelog } from './thread-source.ts';

export type TaskRoutesOptions = {
  config: ResolvedConfig;
  /** A replay consumes the runs only. */
  replay: boolean;
  /** The runs topic's source (default: one run event per message). */
  input?: RunSource | undefined;
  /** How a by-thread partition's state is read back (default: its changelog partition, group-less, through `edge`). */
  readChangelog?: ReadChangelog | undefined;
  edge?: Pick<KafkaEdge, 'readRange'> | undefined;
  context: { stats: ServiceStats; logger: Logger; now: () => number };
  /** The batch tier's provider, settings and state reader (config `judge.batch`; service/batch-tier.ts): the batch-tier topic's source. */
  batchTier?: BatchTier | undefined;
};

export type BatchTier = Omit<BatchSourceOptions, 'context'> & { readonly maxPendingPairs: number };

export type TaskRoutes = {
  readonly topics: readonly string[];
  /** The by-thread topic when this member consumes it: its partitions are claimed on assignment. */
  readonly byThread: string | undefined;
  sourceOf(topic: string): RunSource;
  /** The run slots a topic's messages take. */
  slotsOf(topic: string): RunSlots;
  /** Every waiter for a slot wakes (an assignment ended, or the consumer stops). */
  wakeAll(): void;
  /**
   * The consumer is stopping: every waiter for a slot wakes, and what waits on something other
   * than its own work — pairs waiting on judge batches, which may take hours — is let go now rather
   * than at the deadline (abandoned: read again after the restart, their open batches restored).
   */
  stopping(): void;
  /** The consumer stopped: the sources let go of what they hold. */
  close(): void;
};

export function createTaskRoutes(options: TaskRoutesOptions): TaskRoutes {
  const { config, context } = options;
  const topology = topologyOfConfig(config);
  const subscriptions = subscriptionsOf(topology, options.replay ? 'replay' : 'service');
  const byThread = subscriptions.find((subscription) => subscription.task === 'thread')?.topic;
  const threadState = entryOf(topology, 'thread-state')?.name;
  const slots = new RunSlots(config.concurrency.runsInFlight);
  const threadSlots = byThread === undefined ? undefined : new RunSlots(config.concurrency.runsInFlight);
  const input = options.input ?? runEventSource;
  // Its source holds each claimed by-thread partition's thread state (thread-source.ts).
  const threadSource =
    byThread === undefined || threadState === undefined
      ? undefined
      : createThreadSource({
          context: { config, ...context },
          readChangelog:
            options.readChangelog ??
            ((partition, onRecord) => {
              if (options.edge === undefined) throw new TypeError('createScoringConsumer needs `edge` or `readChangelog` to restore thread state');
              return readChangelogPartition(options.edge, { topic: threadState, partition, onRecord });
            }),
        });
  // Its source holds each claimed batch-tier partition's pairs and open batches (batch-source.ts).
  const batchTopic = subscriptions.find((subscription) => subscription.task === 'batch')?.topic;
  const batchSource = batchTopic === undefined || options.batchTier === undefined ? undefined : createBatchSource({ ...options.batchTier, context });
  // Pairs waiting on a batch hold slots of their own: never the runs', and at most maxPendingPairs run events in memory.
  const batchSlots = batchSource === undefined ? undefined : new RunSlots(options.batchTier!.maxPendingPairs);
  const sourceOfTask: Record<TaskKind, RunSource | undefined> = {
    runs: input,
    retry: retrySource,
    rescore: rescoreSource as RunSource,
    thread: threadSource as RunSource | undefined,
    batch: batchSource as RunSource | undefined,
  };
  const routes = new Map(subscriptions.map(({ topic, task }) => [topic, sourceOfTask[task]]));
  const wakeAll = () => {
    slots.wakeAll();
    threadSlots?.wakeAll();
    batchSlots?.wakeAll();
  };
  return {
    topics: subscriptions.map((subscription) => subscription.topic),
    byThread,
    sourceOf(topic) {
      const source = routes.get(topic);
      if (source === undefined) throw new TypeError(`no task consumes '${topic}' (src/engine/topology/topology.ts)`);
      return source;
    },
    slotsOf: (topic) => (topic === byThread && threadSlots !== undefined ? threadSlots : topic === batchTopic && batchSlots !== undefined ? batchSlots : slots),
    wakeAll,
    stopping() {
      wakeAll();
      batchSource?.close();
    },
    close() {
      input.close?.();
      threadSource?.close();
      batchSource?.close();
    },
  };
}

// The scoring consumer: a consumer group member (kafka/kafka-transport.ts) on the runs topic (and the retry tiers)
// that dispatches each message down its source's path (message-path.ts) without waiting for it to
// finish, so many messages — of several partitions, and within one partition — are scored at
// once. Three rules keep that safe:
//   1. at most `runsInFlight` messages take memory; when full, the partition's fetching is
//      paused until a slot frees (and the group heartbeat keeps going while we wait). With thread
//      scorers bound, the by-thread topic's messages have `runsInFlight` slots of their own: they
//      wait for their thread state's batches to be acknowledged, and must not take the slots of
//      the runs whose scoring makes their turns;
//   2. an offset is committed only when every message before it in its partition finished
//      (PartitionProgress), by the record sink: at-least-once commits behind acknowledged records,
//      exactly-once publishes a prefix's records and its offset in one transaction (record-sink.ts);
//   3. each partition is claimed per assignment, and a rebalance or a new join ends every claim:
//      work of an ended claim is never committed by us (RecordSink.assignmentEnded), and a
//      source's state for the partition ends with its claim (run-source.ts).
// Every topic read has a source (run-source.ts): the runs topic its input's (run events, or OTLP
// traces), each retry tier the retry source, whose messages are dispatched only once due (until
// then the partition is paused, retry-gate.ts), and — with thread scorers bound — `{runs}-by-thread`
// the thread source (thread-source.ts), whose state per claimed partition is restored from its
// changelog before the partition's first message; and — with a binding that re-scores on feedback —
// the rescore topic the rescore source (rescore-source.ts). Each message is processed inside its consumer
// `process {topic}` span (startMessageTrace), which the score spans link to while their parent is
// the agent run's span.
import { context as otelContext, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { ScorerServices } from '../src/kit/scorer-services.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import type { BatchControl, ConsumedBatch, GroupConsumer, KafkaTransport } from '../kafka/kafka-transport.ts';
import type { RecordPublisher } from '../producers/record-publisher.ts';
import type { MessageContext } from './message-context.ts';
import { createMessagePath } from './message-path.ts';
import type { MessageEnd, PathPartition } from './message-path.ts';
import { startMessageTrace, untracedMessage } from './message-trace.ts';
import { defaultPublishRetry } from './publish-until-acknowledged.ts';
import { createAtLeastOnceSink } from './record-sink.ts';
import type { MessageTicket, PartitionClaim, RecordSink } from './record-sink.ts';
import { createRetryGate } from './retry-gate.ts';
import { retrySource } from './retry-source.ts';
import { rescoreSource } from './rescore-source.ts';
import type { TaskKind } from '../src/engine/topology/topic-entry.ts';
import { entryOf, subscriptionsOf, topologyOfConfig } from '../src/engine/topology/topology.ts';
import { createThreadSource } from './thread-source.ts';
import type { ReadChangelog } from './thread-source.ts';
import { readChangelogPartition } from '../kafka/read-changelog-partition.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { runEventSource } from './run-event-source.ts';
import type { RunSource } from './run-source.ts';
import { RunSlots } from './run-slots.ts';
import { ServiceStats } from './service-stats.ts';
import type { AcknowledgedRecordFields } from './emitter/record-emitter.ts';

export type ScoringConsumerOptions = {
  /** The client library the group consumer runs on (config `kafka.client`). */
  transport: KafkaTransport;
  /** The Kafka edge the default `readChangelog` reads a by-thread partition's state with (group-less). */
  edge?: Pick<KafkaEdge, 'readRange'>;
  config: ResolvedConfig;
  /** Where records go and how offsets are committed (default: at-least-once through `publisher`). */
  createSink?: (consumer: GroupConsumer, stats: ServiceStats) => RecordSink;
  /** The at-least-once publisher; required unless `createSink` is given. */
  publisher?: RecordPublisher;
  logger: Logger;
  tracer?: Tracer;
  /** A `process {topic}` span per message (message-trace.ts); default off. */
  processSpans?: boolean;
  now?: () => number;
  /** What every scorer run gets for its steps (judge models, caps); built by service/start-service.ts. */
  services?: ScorerServices;
  stats?: ServiceStats;
  /** How often finished prefixes are committed. */
  commitIntervalMs?: number;
  /** Start from the earliest offset when the group has no committed offset (default true). */
  fromBeginning?: boolean;
  sessionTimeoutMs?: number;
  /** The first pause before a failed publish is retried (default KAFKA_DEFAULTS.publish.firstRetryDelayMs; it doubles up to maxRetryDelayMs). */
  publishRetryDelayMs?: number;
  /** Per acknowledged score record, with its event-to-result latency when it has one (fed to the metrics). */
  observeRecord?: (record: AcknowledgedRecordFields, latencyMs: number | undefined) => void;
  /** On every join of the group: the partitions this member now owns, by topic (judge budget shares). */
  onAssignment?: (assignment: Record<string, number[] | undefined>) => void;
  /** What the per-message path shares besides the above (judge spend, replay marking). */
  messageContext?: Pick<MessageContext, 'spend' | 'replay' | 'fetchRun'>;
  /**
   * Per partition of the runs topic, the offset to stop before (a replay's end): messages from it
   * on are not dispatched, and the partition is paused once reached.
   */
  endOffsets?: ReadonlyMap<number, number>;
  /** The runs topic's source (default: one run event per message; run-source.ts). */
  source?: RunSource;
  /** How a by-thread partition's state is read back (default: the changelog partition, group-less, through `edge`). */
  readChangelog?: ReadChangelog;
};

export type StopOptions = { timeoutMs?: number };

export type ScoringConsumer = {
  readonly stats: ServiceStats;
  start(): Promise<void>;
  /** Graceful: stop fetching, finish in-flight work up to the deadline, commit, leave the group. */
  stop(options?: StopOptions): Promise<{ unfinished: number }>;
  /** Resolves when the consumer crashed for good (the client gave up); the service then exits non-zero. */
  readonly crashed: Promise<Error>;
};

const partitionKey = (topic: string, partition: number) => `${topic}[${partition}]`;

export function createScoringConsumer(options: ScoringConsumerOptions): ScoringConsumer {
  const { transport, config, logger } = options;
  const now = options.now ?? Date.now;
  const stats = options.stats ?? new ServiceStats();
  const tracer = options.tracer ?? trace.getTracer('scorestream');
  const processSpans = options.processSpans === true;
  const slots = new RunSlots(config.concurrency.runsInFlight);
  const input: RunSource = options.source ?? runEventSource;
  const hardStop = new AbortController();
  // What this member consumes, each topic routed to the task that consumes it (the topology,
  // src/engine/topology/): the runs, the retry tiers, the by-thread topic with thread scorers, the rescore
  // topic with `rescoreOn`. A replay consumes the runs only: the live service owns the rest.
  const topology = topologyOfConfig(config);
  const subscriptions = subscriptionsOf(topology, options.messageContext?.replay === undefined ? 'service' : 'replay');
  const topics = subscriptions.map((subscription) => subscription.topic);
  const byThread = subscriptions.find((subscription) => subscription.task === 'thread')?.topic;
  const threadState = entryOf(topology, 'thread-state')?.name;
  // By-thread messages wait for their partition's batch and its acknowledgement: in slots of their
  // own, so that they never hold the runs' (whose scoring makes the turns they wait for).
  const threadSlots = byThread === undefined ? undefined : new RunSlots(config.concurrency.runsInFlight);
  const slotsOf = (topic: string): RunSlots => (topic === byThread && threadSlots !== undefined ? threadSlots : slots);
  // Its source holds each claimed by-thread partition's thread state (thread-source.ts).
  const threadSource =
    byThread === undefined || threadState === undefined
      ? undefined
      : createThreadSource({
          context: { config, stats, logger, now },
          readChangelog:
            options.readChangelog ??
            ((partition, onRecord) => {
              if (options.edge === undefined) throw new TypeError('createScoringConsumer needs `edge` or `readChangelog` to restore thread state');
              return readChangelogPartition(options.edge, { topic: threadState, partition, onRecord });
            }),
        });
  const sourceOfTask: Record<TaskKind, RunSource | undefined> = { runs: input, retry: retrySource, rescore: rescoreSource as RunSource, thread: threadSource as RunSource | undefined };
  const routes = new Map(subscriptions.map(({ topic, task }) => [topic, sourceOfTask[task]]));
  const sourceOf = (topic: string): RunSource => {
    const source = routes.get(topic);
    if (source === undefined) throw new TypeError(`no task consumes '${topic}' (src/engine/topology/topology.ts)`);
    return source;
  };
  const consumer: GroupConsumer = transport.consumer({
    groupId: config.groupId,
    sessionTimeoutMs: options.sessionTimeoutMs ?? KAFKA_DEFAULTS.consumer.sessionTimeoutMs,
    heartbeatIntervalMs: KAFKA_DEFAULTS.consumer.heartbeatIntervalMs,
    maxBytesPerPartition: Math.max(KAFKA_DEFAULTS.consumer.minBytesPerPartition, config.maxMessageBytes + 1024),
    retries: KAFKA_DEFAULTS.consumer.retries,
    events: { rebalancing: () => endAssignment('rebalancing'), joined: (memberAssignment) => joined(memberAssignment), crashed: (error, restart) => crashedWith(error, restart) },
  });
  const sink = createSink();
  const retryGate = createRetryGate({ now });

  let assignment = 0;
  let stopping = false;
  let commitTimer: NodeJS.Timeout | undefined;
  const idleWaiters: Array<() => void> = [];
  let resolveCrash!: (error: Error) => void;
  const crashed = new Promise<Error>((resolve) => (resolveCrash = resolve));

  const messageContext: MessageContext = {
    config,
    stats,
    logger,
    tracer,
    now,
    hardStop: hardStop.signal,
    publishRetry: { ...defaultPublishRetry, firstDelayMs: options.publishRetryDelayMs ?? defaultPublishRetry.firstDelayMs },
    services: options.services,
    observeRecord: options.observeRecord,
    ...options.messageContext,
  };
  const path = createMessagePath(messageContext);
  // Each claim's path: its source's state for the partition lives as long as the claim.
  const claimed = new WeakMap<PartitionClaim, PathPartition>();
  const live = new Set<PathPartition>();
  const pathOf = (claim: PartitionClaim): PathPartition => {
    let partition = claimed.get(claim);
    if (partition === undefined) {
      const opened = path.partition(sourceOf(claim.topic), { topic: claim.topic, partition: claim.partition, detached: (after) => claim.detached(after) });
      claimed.set(claim, (partition = opened));
      live.add(opened);
      claim.onEnd(() => {
        live.delete(opened);
        opened.end();
      });
    }
    return partition;
  };
  // On the hard stop every waiting message is abandoned (its offset stays uncommitted).
  hardStop.signal.addEventListener('abort', () => {
    for (const partition of [...live]) partition.end();
    live.clear();
  });

  function createSink(): RecordSink {
    if (options.createSink !== undefined) return options.createSink(consumer, stats);
    if (options.publisher === undefined) throw new TypeError('createScoringConsumer needs a publisher (at-least-once) or a createSink');
    return createAtLeastOnceSink({ consumer, publisher: options.publisher, stats, logger });
  }

  const settle = (ticket: MessageTicket, outcome: MessageEnd) => {
    if (outcome === 'finished') ticket.finished();
    else ticket.abandoned();
    stats.inFlight -= 1;
    stats.completed += outcome === 'finished' ? 1 : 0;
    if (stats.inFlight === 0) while (idleWaiters.length > 0) idleWaiters.shift()!();
  };

  const processOne = async (topic: string, partition: number, message: ConsumedMessage, ticket: MessageTicket, pathPartition: PathPartition) => {
    if (!processSpans) {
      const outcome = await pathPartition.process(message, { source: { topic, partition, offset: message.offset }, output: ticket.output, trace: untracedMessage(message) });
      settle(ticket, outcome);
      return;
    }
    const messageTrace = startMessageTrace(tracer, message, { topic, partition, groupId: config.groupId });
    const handle = { source: { topic, partition, offset: message.offset }, output: ticket.output, trace: messageTrace };
    const outcome = await otelContext.with(trace.setSpan(ROOT_CONTEXT, messageTrace.span), () => pathPartition.process(message, handle));
    messageTrace.span.end();
    settle(ticket, outcome);
  };

  /** Waits for a run slot, pausing the partition meanwhile; false when the claim ended or we are stopping. */
  const waitForSlot = async (payload: BatchControl, lane: RunSlots, claim: PartitionClaim, key: string): Promise<boolean> => {
    const resume = payload.pause();
    stats.pausedPartitions.add(key);
    try {
      const held = await lane.acquire({ whileWaiting: payload.heartbeat, cancelled: () => stopping || !claim.active });
      if (held && (!claim.active || payload.isStale())) {
        lane.release();
        return false;
      }
      return held;
    } finally {
      stats.pausedPartitions.delete(key);
      resume();
    }
  };

  const eachBatch = async (batch: ConsumedBatch, payload: BatchControl) => {
    const { heartbeat, isRunning, isStale, resolveOffset } = payload;
    const key = partitionKey(batch.topic, batch.partition);
    const claim = await sink.claim(batch.topic, batch.partition);
    const source = sourceOf(batch.topic);
    const pathPartition = pathOf(claim);
    const isRetry = source.dueAt !== undefined;
    const lane = slotsOf(batch.topic);
    // A retry tier's backlog is pairs waiting for their due time, not lag.
    const lag = isRetry ? stats.retryWaitingByPartition : stats.lagByPartition;
    const highWatermark = batch.highWatermark === undefined ? undefined : Number(batch.highWatermark);
    if (highWatermark !== undefined) lag.set(key, Math.max(0, highWatermark - Number(batch.messages[0]?.offset ?? highWatermark)));
    const endOffset = batch.topic === config.topics.runs ? options.endOffsets?.get(batch.partition) : undefined;
    for (const message of batch.messages) {
      if (stopping || !isRunning() || isStale() || !claim.active) break;
      if (endOffset !== undefined && Number(message.offset) >= endOffset) {
        consumer.pause([{ topic: batch.topic, partitions: [batch.partition] }]); // the range ends here
        break;
      }
      if (claim.fromOffset !== undefined && Number(message.offset) < claim.fromOffset) {
        resolveOffset(message.offset); // committed by the partition's previous owner after we fetched
        continue;
      }
      // Not yet due: the partition pauses until it is, and this message is fetched again then.
      if (source.dueAt !== undefined && !retryGate.admit(batch.topic, batch.partition, source.dueAt(message), payload.pause)) break;
      if (!lane.tryAcquire() && !(await waitForSlot(payload, lane, claim, key))) break;
      const ticket = claim.open(message.offset, () => lane.release());
      resolveOffset(message.offset);
      stats.inFlight += 1;
      if (highWatermark !== undefined) lag.set(key, Math.max(0, highWatermark - Number(message.offset) - 1));
      void processOne(batch.topic, batch.partition, message, ticket, pathPartition);
    }
    await heartbeat().catch((error: unknown) => {
      if (!stopping) throw error;
    });
  };

  const endAssignment = (reason: string) => {
    assignment += 1;
    sink.assignmentEnded();
    stats.lagByPartition.clear();
    stats.retryWaitingByPartition.clear();
    slots.wakeAll();
    threadSlots?.wakeAll();
    logger.info({ assignment, reason }, 'assignment ended: uncommitted work of the previous assignment is re-scored by its partitions’ owners');
  };
  // Rebalancing: the group is preparing a rebalance and we are about to re-join. Until our
  // JoinGroup the generation is still ours and a commit would be legitimate, but the client re-joins
  // at once, so we stop committing the old assignment here. Joining also ends it: a re-join
  // after the session expired, or after a crash-restart, is announced by no rebalance.
  function joined(memberAssignment: Record<string, number[] | undefined>) {
    endAssignment('joined');
    options.onAssignment?.(memberAssignment);
    // A by-thread partition is claimed on assignment, not on its first batch: its state is restored
    // and its timers run (a thread idle since before the move still closes) with no message arriving.
    if (byThread !== undefined) {
      const generation = assignment;
      for (const partition of memberAssignment[byThread] ?? []) {
        void sink.claim(byThread, partition).then(
          (claim) => {
            if (generation === assignment && claim.active && !stopping) pathOf(claim);
          },
          (error: unknown) => logger.warn({ err: error, partition }, 'claiming a by-thread partition on assignment failed; it is claimed on its first batch'),
        );
      }
    }
    logger.info({ assignment: memberAssignment, delivery: sink.delivery }, 'joined the consumer group');
  }
  function crashedWith(error: Error, restart: boolean) {
    logger.error({ err: error, restart }, 'consumer crashed');
    if (!restart) resolveCrash(error);
  }

  return {
    stats,
    crashed,
    async start() {
      await consumer.run({
        topics,
        fromBeginning: options.fromBeginning ?? true,
        partitionsConsumedConcurrently: Math.min(KAFKA_DEFAULTS.consumer.partitionsConsumedConcurrently, config.concurrency.runsInFlight),
        eachBatch,
      });
      commitTimer = setInterval(() => void sink.commit(), options.commitIntervalMs ?? KAFKA_DEFAULTS.consumer.commitIntervalMs);
    },
    async stop(stopOptions = {}) {
      const timeoutMs = stopOptions.timeoutMs ?? config.shutdownTimeoutMs;
      stopping = true;
      slots.wakeAll();
      threadSlots?.wakeAll();
      consumer.pause(topics.map((topic) => ({ topic })));
      retryGate.close();
      if (stats.inFlight > 0) {
        logger.info({ inFlight: stats.inFlight, timeoutMs }, 'stopping: letting in-flight runs finish');
        await Promise.race([
          new Promise<void>((resolve) => idleWaiters.push(resolve)),
          new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref()),
        ]);
      }
      const unfinished = stats.inFlight;
      if (unfinished > 0) {
        logger.warn({ unfinished }, 'shutdown deadline reached: abandoning unfinished runs (they will be re-scored after restart)');
        hardStop.abort(new Error('shutdown deadline reached'));
      }
      clearInterval(commitTimer);
      input.close?.();
      threadSource?.close();
      await sink.close();
      await consumer.disconnect();
      return { unfinished };
    },
  };
}

// The scoring consumer: a consumer group member (kafka/kafka-transport.ts) on the topics its tasks consume (task-routes.ts)
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
import { trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { ScorerServices } from '../src/kit/scorer-services.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import type { GroupConsumer, KafkaTransport } from '../kafka/kafka-transport.ts';
import type { RecordPublisher } from '../producers/record-publisher.ts';
import type { MessageContext } from './message-context.ts';
import { createMessagePath } from './message-path.ts';
import type { PathPartition } from './message-path.ts';
import { defaultPublishRetry } from './publish-until-acknowledged.ts';
import { createAtLeastOnceSink } from './record-sink.ts';
import type { PartitionClaim, RecordSink } from './record-sink.ts';
import { createBatchDispatch } from './batch-dispatch.ts';
import { createTaskRoutes } from './task-routes.ts';
import type { BatchTier } from './task-routes.ts';
import { createRetryGate } from './retry-gate.ts';
import type { ReadChangelog } from './thread-source.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import type { RunSource } from './run-source.ts';
import { ServiceStats } from './service-stats.ts';
import type { ObserveRecord } from './emitter/emitter-context.ts';

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
  observeRecord?: ObserveRecord;
  /** On every join of the group: the partitions this member now owns, by topic (judge budget shares). */
  onAssignment?: (assignment: Record<string, number[] | undefined>) => void;
  /** What the per-message path shares besides the above (judge spend, replay marking). */
  messageContext?: Pick<MessageContext, 'spend' | 'replay' | 'fetchRun' | 'evaluations' | 'codeScores' | 'batchJudge'>;
  /**
   * Per partition of the runs topic, the offset to stop before (a replay's end): messages from it
   * on are not dispatched, and the partition is paused once reached.
   */
  endOffsets?: ReadonlyMap<number, number>;
  /** The runs topic's source (default: one run event per message; run-source.ts). */
  source?: RunSource;
  /** How a by-thread partition's state is read back (default: the changelog partition, group-less, through `edge`). */
  readChangelog?: ReadChangelog;
  /** The batch tier (config `judge.batch`; service/batch-tier.ts): without it the batch-tier topic has no source and is not read. */
  batchTier?: BatchTier;
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

export function createScoringConsumer(options: ScoringConsumerOptions): ScoringConsumer {
  const { transport, config, logger } = options;
  const now = options.now ?? Date.now;
  const stats = options.stats ?? new ServiceStats();
  const tracer = options.tracer ?? trace.getTracer('scorestream');
  const hardStop = new AbortController();
  const routes = createTaskRoutes({ config, replay: options.messageContext?.replay !== undefined, input: options.source, readChangelog: options.readChangelog, edge: options.edge, context: { stats, logger, now }, batchTier: options.batchTier });
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
      const opened = path.partition(routes.sourceOf(claim.topic), { topic: claim.topic, partition: claim.partition, detached: (after) => claim.detached(after) });
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
  const dispatch = createBatchDispatch({
    consumer,
    sink,
    routes,
    pathOf,
    retryGate,
    stats,
    runsTopic: config.topics.runs,
    groupId: config.groupId,
    endOffsets: options.endOffsets,
    processSpans: options.processSpans === true ? tracer : undefined,
    now,
    isStopping: () => stopping,
  });

  function createSink(): RecordSink {
    if (options.createSink !== undefined) return options.createSink(consumer, stats);
    if (options.publisher === undefined) throw new TypeError('createScoringConsumer needs a publisher (at-least-once) or a createSink');
    return createAtLeastOnceSink({ consumer, publisher: options.publisher, stats, logger });
  }

  const endAssignment = (reason: string) => {
    assignment += 1;
    sink.assignmentEnded();
    stats.lagByPartition.clear();
    stats.retryWaitingByPartition.clear();
    routes.wakeAll();
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
    const { byThread } = routes;
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
        topics: routes.topics,
        fromBeginning: options.fromBeginning ?? true,
        partitionsConsumedConcurrently: Math.min(KAFKA_DEFAULTS.consumer.partitionsConsumedConcurrently, config.concurrency.runsInFlight),
        eachBatch: dispatch.eachBatch,
      });
      commitTimer = setInterval(() => void sink.commit(), options.commitIntervalMs ?? KAFKA_DEFAULTS.consumer.commitIntervalMs);
    },
    async stop(stopOptions = {}) {
      const timeoutMs = stopOptions.timeoutMs ?? config.shutdownTimeoutMs;
      stopping = true;
      routes.stopping();
      consumer.pause(routes.topics.map((topic) => ({ topic })));
      retryGate.close();
      if (stats.inFlight > 0) {
        logger.info({ inFlight: stats.inFlight, timeoutMs }, 'stopping: letting in-flight runs finish');
        await Promise.race([dispatch.idle(), new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      }
      const unfinished = stats.inFlight;
      if (unfinished > 0) {
        logger.warn({ unfinished }, 'shutdown deadline reached: abandoning unfinished runs (they will be re-scored after restart)');
        hardStop.abort(new Error('shutdown deadline reached'));
      }
      clearInterval(commitTimer);
      routes.close();
      await sink.close();
      await consumer.disconnect();
      return { unfinished };
    },
  };
}

// The scoring consumer: a kafkajs consumer group member on the runs topic that dispatches each
// message into processRunMessage() without waiting for it to finish, so many messages — of
// several partitions, and within one partition — are scored at once. Three rules keep that safe:
//   1. at most `runsInFlight` messages are in flight; when full, the partition's fetching is
//      paused until a slot frees (and the group heartbeat keeps going while we wait);
//   2. an offset is committed only when every message before it in its partition finished,
//      i.e. all its records were acknowledged (PartitionProgress);
//   3. a rebalance starts a new assignment epoch: work of the old epoch may still publish
//      (a duplicate, recognisable by its scoreId) but never commits.
// Each message is processed inside a consumer `process {topic}` span: a root span (messaging
// conventions for consumers that do their own work) linked to the producing context, which the
// score spans in turn link to while their parent is the agent run's span.
import { context as otelContext, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Link, Tracer } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/config/resolve-config.ts';
import type { RecordPublisher } from '../producers/record-publisher.ts';
import { buildDeadLetter } from '../src/contracts/build-dead-letter.ts';
import type { ScoreRecord } from '../src/contracts/score-record.ts';
import { extractRunTraceContext } from '../otel/run-trace-context.ts';
import { PartitionProgress } from './partition-progress.ts';
import { processRunMessage } from './process-run-message.ts';
import type { MessageContext } from './process-run-message.ts';
import { RunSlots } from './run-slots.ts';
import { ServiceStats } from './service-stats.ts';

export type ScoringConsumerOptions = {
  kafka: Kafka;
  config: ResolvedConfig;
  publisher: RecordPublisher;
  logger: Logger;
  tracer?: Tracer;
  now?: () => number;
  runOptions?: Record<string, unknown>;
  stats?: ServiceStats;
  /** How often finished prefixes are committed. */
  commitIntervalMs?: number;
  /** Start from the earliest offset when the group has no committed offset (default true). */
  fromBeginning?: boolean;
  sessionTimeoutMs?: number;
  publishRetryDelayMs?: number;
  /** Per acknowledged record, the event-to-result latency (fed to the metrics histogram). */
  recordLatency?: (latencyMs: number, record: ScoreRecord) => void;
};

export type StopOptions = { timeoutMs?: number };

export type ScoringConsumer = {
  readonly stats: ServiceStats;
  start(): Promise<void>;
  /** Graceful: stop fetching, finish in-flight work up to the deadline, commit, leave the group. */
  stop(options?: StopOptions): Promise<{ unfinished: number }>;
  /** Resolves when the consumer crashed for good (kafkajs gave up); the service then exits non-zero. */
  readonly crashed: Promise<Error>;
};

const partitionKey = (topic: string, partition: number) => `${topic}[${partition}]`;

export function createScoringConsumer(options: ScoringConsumerOptions): ScoringConsumer {
  const { kafka, config, logger } = options;
  const now = options.now ?? Date.now;
  const stats = options.stats ?? new ServiceStats();
  const tracer = options.tracer ?? trace.getTracer('scorestream');
  const slots = new RunSlots(config.concurrency.runsInFlight);
  const hardStop = new AbortController();
  const consumer: Consumer = kafka.consumer({
    groupId: config.groupId,
    sessionTimeout: options.sessionTimeoutMs ?? 30_000,
    heartbeatInterval: 3_000,
    maxBytesPerPartition: Math.max(1_048_576, config.maxMessageBytes + 1024),
    retry: { retries: 10 },
  });

  let epoch = 0;
  let progressByPartition = new Map<string, PartitionProgress>();
  let stopping = false;
  let commitTimer: NodeJS.Timeout | undefined;
  let committing: Promise<void> = Promise.resolve();
  const idleWaiters: Array<() => void> = [];
  let resolveCrash!: (error: Error) => void;
  const crashed = new Promise<Error>((resolve) => (resolveCrash = resolve));

  const messageContext: MessageContext = {
    config,
    publisher: options.publisher,
    stats,
    logger,
    tracer,
    now,
    hardStop: hardStop.signal,
    ...(options.runOptions === undefined ? {} : { runOptions: options.runOptions }),
    ...(options.publishRetryDelayMs === undefined ? {} : { publishRetryDelayMs: options.publishRetryDelayMs }),
    ...(options.recordLatency === undefined ? {} : { recordLatency: options.recordLatency }),
  };

  const commitFinished = async (): Promise<void> => {
    const offsets: Array<{ topic: string; partition: number; offset: string }> = [];
    const owners: PartitionProgress[] = [];
    for (const progress of progressByPartition.values()) {
      const offset = progress.commitCandidate();
      if (offset === undefined) continue;
      offsets.push({ topic: progress.topic, partition: progress.partition, offset });
      owners.push(progress);
    }
    if (offsets.length === 0) return;
    const epochAtCommit = epoch;
    try {
      await consumer.commitOffsets(offsets);
      owners.forEach((progress, index) => progress.markCommitted(offsets[index]!.offset));
      stats.commits += 1;
    } catch (error) {
      // A rebalance in progress rejects commits; the new owner re-scores from the last commit.
      logger.warn({ err: error, epoch: epochAtCommit, offsets }, 'committing offsets failed; will retry on the next tick');
    }
  };
  const scheduleCommits = () => {
    committing = committing.then(commitFinished);
    return committing;
  };

  const finishOne = (progress: PartitionProgress, offset: string, messageEpoch: number) => {
    slots.release();
    stats.inFlight -= 1;
    stats.completed += 1;
    if (messageEpoch === epoch) progress.completed(offset);
    if (stats.inFlight === 0) while (idleWaiters.length > 0) idleWaiters.shift()!();
  };

  const processOne = async (payload: EachBatchPayload, message: EachBatchPayload['batch']['messages'][number], progress: PartitionProgress, messageEpoch: number) => {
    const { topic, partition } = payload.batch;
    const source = { topic, partition, offset: message.offset };
    // The producing context from the headers only (the body is not decoded yet); never throws.
    const producing = trace.getSpanContext(extractRunTraceContext(message.headers).context);
    const links: Link[] = producing === undefined ? [] : [{ context: producing }];
    const span = tracer.startSpan(
      `process ${topic}`,
      {
        kind: SpanKind.CONSUMER,
        root: true,
        links,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.name': 'process',
          'messaging.operation.type': 'process',
          'messaging.destination.name': topic,
          'messaging.destination.partition.id': String(partition),
          'messaging.kafka.offset': Number(message.offset),
          'messaging.consumer.group.name': config.groupId,
          ...(message.key === null ? {} : { 'messaging.kafka.message.key': message.key.toString('utf8') }),
          ...(message.value === null ? {} : { 'messaging.message.body.size': message.value.length }),
        },
      },
      ROOT_CONTEXT,
    );
    try {
      await otelContext.with(trace.setSpan(ROOT_CONTEXT, span), () => processRunMessage(message, source, messageContext, span));
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      // A bug or a hard stop. On a hard stop the offset must stay uncommitted; otherwise park the
      // message in the dead-letter topic so the partition keeps moving and nothing is lost.
      if (hardStop.signal.aborted) return;
      logger.error({ err: error, source }, 'processing a run failed unexpectedly; dead-lettering it');
      try {
        const deadLetter = buildDeadLetter({
          message: { key: message.key, value: message.value, headers: message.headers as never },
          source,
          error: { code: 'processing_error' as never, message: error instanceof Error ? error.message : String(error) },
          now: new Date(now()),
        });
        await options.publisher.publish([{ topic: config.topics.deadLetter, key: null, value: JSON.stringify(deadLetter) }]);
        stats.countDeadLetter('processing_error');
      } catch (publishError) {
        logger.error({ err: publishError, source }, 'could not dead-letter the message; its offset stays uncommitted');
        return;
      }
    } finally {
      span.end();
    }
    finishOne(progress, message.offset, messageEpoch);
  };

  const eachBatch = async (payload: EachBatchPayload) => {
    const { batch, heartbeat, isRunning, isStale, resolveOffset } = payload;
    const key = partitionKey(batch.topic, batch.partition);
    const messageEpoch = epoch;
    let progress = progressByPartition.get(key);
    if (progress === undefined) progressByPartition.set(key, (progress = new PartitionProgress(batch.topic, batch.partition)));
    stats.lagByPartition.set(key, Math.max(0, Number(batch.highWatermark) - Number(batch.firstOffset() ?? batch.highWatermark)));
    for (const message of batch.messages) {
      if (stopping || !isRunning() || isStale() || messageEpoch !== epoch) break;
      if (!slots.tryAcquire()) {
        const resume = payload.pause();
        stats.pausedPartitions.add(key);
        let held: boolean;
        try {
          held = await slots.acquire({ whileWaiting: heartbeat, cancelled: () => stopping || messageEpoch !== epoch });
        } finally {
          stats.pausedPartitions.delete(key);
          resume();
        }
        if (!held) break;
      }
      progress.dispatched(message.offset);
      resolveOffset(message.offset);
      stats.inFlight += 1;
      stats.lagByPartition.set(key, Math.max(0, Number(batch.highWatermark) - Number(message.offset) - 1));
      void processOne(payload, message, progress, messageEpoch);
    }
    await heartbeat().catch((error: unknown) => {
      if (!stopping) throw error;
    });
  };

  consumer.on(consumer.events.REBALANCING, () => {
    // From here on the old assignment's work may still finish and publish, but not commit.
    epoch += 1;
    progressByPartition = new Map();
    stats.lagByPartition.clear();
    slots.wakeAll();
    logger.info({ epoch }, 'group rebalancing: uncommitted work of the previous assignment will be re-scored by the new owner');
  });
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    logger.info({ assignment: event.payload.memberAssignment, epoch }, 'joined the consumer group');
  });
  consumer.on(consumer.events.CRASH, (event) => {
    const error = event.payload.error;
    logger.error({ err: error, restart: event.payload.restart }, 'consumer crashed');
    if (!event.payload.restart) resolveCrash(error);
  });

  return {
    stats,
    crashed,
    async start() {
      await consumer.connect();
      await consumer.subscribe({ topics: [config.topics.runs], fromBeginning: options.fromBeginning ?? true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: Math.min(16, config.concurrency.runsInFlight),
        eachBatch,
      });
      commitTimer = setInterval(() => void scheduleCommits(), options.commitIntervalMs ?? 1000);
    },
    async stop(stopOptions = {}) {
      const timeoutMs = stopOptions.timeoutMs ?? config.shutdownTimeoutMs;
      stopping = true;
      slots.wakeAll();
      consumer.pause([{ topic: config.topics.runs }]);
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
      // Whatever finished is acknowledged already; flushing only hurries stragglers. Bounded,
      // because with the broker gone the idempotent producer would retry for ever.
      await Promise.race([options.publisher.flush(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await scheduleCommits();
      await consumer.disconnect();
      return { unfinished };
    },
  };
}

// The composition root of the scoring service: from a validated config it builds the real
// parts — the one Kafka edge (kafka/kafka-edge.ts: admin, group-less reads, and the scoring path's
// transport of `kafka.client`), the record sink of the configured delivery (at-least-once: idempotent
// producer and batching record publisher; exactly-once: transactional producers per partition),
// judge models with their concurrency caps, the scoring consumer — and starts them. Everything
// above this file is testable without Kafka; everything here is wiring. Telemetry: metric
// instruments are registered on `options.meter` (default: the global meter, a no-op without an
// SDK, so start the SDK first), judge models resolved by id are measured per model, and score
// spans record prompts only with `recordInputs`. With `health.port` set, the health endpoints
// (health-server.ts) listen from before the pre-flight until after the stop.
import { metrics } from '@opentelemetry/api';
import type { EvaluationLogSink } from '../otel/evaluation-logs.ts';
import type { CodeScoresTelemetry } from '../src/engine/pipeline/score-run-event.ts';
import type { Meter, Tracer } from '@opentelemetry/api';
import { compiledRunEventDecoding } from '../src/kit/contracts/compiled-run-event.ts';
import { processMemoryTarget } from './memory-target.ts';
import type { Logger } from 'pino';
import type { JudgeSpend } from '../src/engine/budget/judge-spend.ts';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { LimitedModels } from '../src/engine/pipeline/limit-judge-concurrency.ts';
import { registerMemoryMetrics } from '../otel/memory-metrics.ts';
import { recordLabels } from '../otel/record-labels.ts';
import { registerServiceMetrics } from '../otel/service-metrics.ts';
import { topicSpecsOf } from '../kafka/ensure-topics.ts';
import { createdBy, entryOf, topicsOf, topologyOfConfig } from '../src/engine/topology/topology.ts';
import { createKafkaEdge } from '../kafka/kafka-edge.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { explainKafkaError, kafkaPreflight } from '../kafka/kafka-preflight.ts';
import { serviceAccess } from '../kafka/service-access.ts';
import { createRunSource } from '../consumers/create-run-source.ts';
import type { OtlpAssemblyStats } from '../consumers/otlp-source.ts';
import { createScoringConsumer } from '../consumers/scoring-consumer.ts';
import type { KafkaTransport } from '../kafka/kafka-transport.ts';
import type { ScoringConsumerOptions } from '../consumers/scoring-consumer.ts';
import type { AccessContext } from '../kafka/kafka-access-error.ts';
import { stateTopicReader } from '../kafka/read-changelog-partition.ts';
import { ServiceStats } from '../consumers/service-stats.ts';

import { deliverySink } from './delivery-sink.ts';
import { judgeServices } from './judge-services.ts';
import { startBatchTier } from './batch-tier.ts';
import { startHealth } from './start-health.ts';
import type { Health } from './start-health.ts';

export type ServiceOptions = {
  config: ResolvedConfig;
  logger: Logger;
  /** The process's Kafka edge (admin, reads, producers); default one of its own, closed with the service. */
  edge?: KafkaEdge;
  /** How long the scoring consumer's fetch waits at the broker when there is nothing (tests shorten it; default the client's). */
  fetchMaxWaitMs?: number;
  /** The scoring path's consumer and producers (default: the client `config.kafka.client` names). */
  transport?: KafkaTransport;
  tracer?: Tracer;
  /** Where the service's metric instruments live; default `metrics.getMeter('scorestream')`. */
  meter?: Meter;
  /** Record judge prompts and answers on spans (SCORESTREAM_TRACE_RECORD_INPUTS); default off. */
  recordInputs?: boolean;
  /** A span for every function step too (SCORESTREAM_TRACE_FUNCTION_STEPS); default off (src/kit/scorer-services.ts). */
  functionStepSpans?: boolean;
  /** The consumer's `process {topic}` span per message (SCORESTREAM_TRACE_PROCESS_SPANS); default off (consumers/message-trace.ts). */
  processSpans?: boolean;
  /** Create the runs topic too when it is missing (demo, tests). */
  createRunsTopic?: boolean;
  /** Passed to the consumer (tests shorten intervals). */
  consumer?: Pick<ScoringConsumerOptions, 'commitIntervalMs' | 'sessionTimeoutMs' | 'publishRetryDelayMs' | 'fromBeginning' | 'now' | 'endOffsets'>;
  /** Set by a replay (service/replay.ts): its records are marked with it. */
  replay?: { id: string };
  /** Each acknowledged score record also as an evaluation log record (otel/evaluation-logs.ts); the CLI sets it when the logs signal is on. */
  evaluationLogs?: EvaluationLogSink;
  /** Where code scorers' scores show on the trace (SCORESTREAM_EVALUATION_LOGS; src/engine/pipeline/score-run-event.ts). */
  codeScores?: CodeScoresTelemetry;
};

export type RunningService = {
  readonly stats: ServiceStats;
  readonly models: LimitedModels;
  /** Judge budgets and prices (src/engine/budget/judge-spend.ts). */
  readonly spend: JudgeSpend;
  /** Resolves when the consumer crashed for good. */
  readonly crashed: Promise<Error>;
  /** The trace assembly's counters when `input.format` is 'otlp'. */
  readonly otlp?: OtlpAssemblyStats;
  /** The health endpoints, when `health.port` is set: the port they listen on. */
  readonly health?: { readonly port: number };
  stop(options?: { timeoutMs?: number }): Promise<{ unfinished: number }>;
};

/** How a by-thread partition's state is read back (kafka/read-changelog-partition.ts). */
function threadStateReader(edge: KafkaEdge, config: ResolvedConfig, context: AccessContext): ScoringConsumerOptions['readChangelog'] {
  const state = entryOf(topologyOfConfig(config), 'thread-state');
  return state === undefined ? undefined : stateTopicReader(edge, state.name, context, 'to restore the thread state of a by-thread partition');
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const edge = options.edge ?? createKafkaEdge(options.config.kafka, { log: options.logger });
  const closeEdge = options.edge === undefined ? () => edge.close() : () => Promise.resolve();
  try {
    const transport = options.transport ?? (await edge.transport({ client: options.config.kafka.client, ...(options.fetchMaxWaitMs === undefined ? {} : { fetchMaxWaitMs: options.fetchMaxWaitMs }) }));
    const health = await startHealth(options.config, edge, options.logger);
    try {
      return await startWith({ ...options, edge, transport }, health, closeEdge);
    } catch (error) {
      await health?.close();
      throw error;
    }
  } catch (error) {
    await closeEdge();
    throw error;
  }
}

async function startWith(options: ServiceOptions & { edge: KafkaEdge; transport: KafkaTransport }, health: Health | undefined, closeEdge: () => Promise<void>): Promise<RunningService> {
  const { config, logger, edge, transport } = options;
  const { access, runEventValidation } = await prepareStart(options);

  const stats = new ServiceStats();
  const { producer, sinkOptions } = await deliverySink(options, stats, access.context);
  const meter = options.meter ?? metrics.getMeter('scorestream');
  // One labeller of agents and tenants for the record and the judge spend metrics: a tenant has one label in both.
  const labels = recordLabels();
  const { models, spend, budgetShare, services } = await judgeServices({ ...options, labels }, meter);
  const serviceMetrics = registerServiceMetrics(meter, stats, {
    labels,
    judged: config.scorers.flatMap((binding) => (binding.pass === undefined ? [] : [{ scorerId: binding.scorerId, version: binding.version, objective: binding.pass.objective }])),
  });
  // The resident set and the memory target the command line started (none when embedded without one).
  registerMemoryMetrics(meter, processMemoryTarget);
  const source = await createRunSource(config);
  // A replay reads no thread (the live service owns them).
  const readChangelog = options.replay === undefined ? threadStateReader(edge, config, access.context) : undefined;
  const batchTier = await startBatchTier(config, edge, access.context, logger);
  const consumer = createScoringConsumer({
    transport,
    config,
    source,
    ...sinkOptions,
    logger,
    services,
    stats,
    observeRecord: (record, latencyMs, produceMs) => serviceMetrics.observeRecord(record, latencyMs, produceMs),
    tracer: options.tracer,
    ...(options.processSpans === true ? { processSpans: true } : {}),
    ...(batchTier === undefined ? {} : { batchTier: batchTier.tier }),
    messageContext: {
      spend,
      ...(batchTier === undefined ? {} : { batchJudge: batchTier.judge }),
      ...(options.evaluationLogs === undefined ? {} : { evaluations: options.evaluationLogs }),
      ...(options.codeScores === undefined ? {} : { codeScores: options.codeScores }),
      ...(options.replay === undefined ? {} : { replay: options.replay }),
      // A re-score reads its run event back from the runs topic (docs/feedback.md, re-scoring).
      ...(options.replay === undefined && entryOf(topologyOfConfig(config), 'rescore')?.task !== undefined ? { fetchRun: edge.fetchAt } : {}),
    },
    ...(readChangelog === undefined ? {} : { readChangelog }),
    ...(budgetShare === undefined && health === undefined
      ? {}
      : {
          onAssignment: (assignment: Record<string, number[] | undefined>) => {
            budgetShare?.assigned(assignment);
            health?.state.assigned(assignment);
          },
        }),
    ...options.consumer,
  });
  await consumer.start().catch((error: unknown) => {
    throw explainKafkaError(error, access.context);
  });
  health?.state.started();
  logger.info(
    {
      groupId: config.groupId,
      topics: config.topics,
      scorers: config.scorers.map((binding) => binding.scorerId),
      runsInFlight: config.concurrency.runsInFlight,
      delivery: config.delivery,
      input: config.input.format,
      ...(runEventValidation === undefined ? {} : { runEventValidation }),
      kafkaClient: transport.client,
    },
    'scorestream is consuming',
  );

  let stopped: Promise<{ unfinished: number }> | undefined;
  return {
    stats: consumer.stats,
    models,
    spend,
    // A crash because an ACL was missing (say READ on the runs topic) says which one.
    crashed: consumer.crashed.then((error) => explainKafkaError(error, access.context) as Error),
    ...('stats' in source ? { otlp: source.stats } : {}),
    ...(health === undefined ? {} : { health: { port: health.server.port } }),
    stop(stopOptions) {
      stopped ??= (async () => {
        // Not ready from the first moment of the stop: no new work should be routed here.
        health?.state.stopping();
        const result = await consumer.stop(stopOptions);
        await producer?.disconnect();
        await health?.close();
        await closeEdge();
        logger.info(result, 'scorestream stopped');
        return result;
      })();
      return stopped;
    },
  };
}

/**
 * What comes before any client of the scoring path: the pre-flight (a cluster refusing TLS, SASL or
 * an ACL stops the start here, with what to fix: exit 2), the run event's validator, and the
 * topics the role creates when missing.
 */
async function prepareStart(options: ServiceOptions & { edge: KafkaEdge }): Promise<{ access: ReturnType<typeof serviceAccess>; runEventValidation: 'compiled' | 'zod' | undefined }> {
  const { config, logger, edge } = options;
  const access = serviceAccess(config, { createRunsTopic: options.createRunsTopic, role: options.replay === undefined ? 'service' : 'replay' });
  await kafkaPreflight(edge.connection, access.needs, access.context);
  // The run event's compiled validator, made (and checked against zod on a probe) before the first
  // message rather than on it; zod alone when the installed zod or ajv is one the check refuses.
  const runEventValidation = config.input.format === 'run-event' ? (compiledRunEventDecoding() ? 'compiled' : 'zod') : undefined;
  // What its role creates when missing (the topology, src/engine/topology/); the runs topic only when asked.
  const topology = topologyOfConfig(config);
  const role = options.replay === undefined ? 'service' : 'replay';
  const creates = [...(options.createRunsTopic ? topicsOf(topology, role).filter((entry) => entry.id === 'runs') : []), ...createdBy(topology, role)];
  const created = await edge.admin.createTopics(topicSpecsOf(topology, creates)).catch((error: unknown) => {
    throw explainKafkaError(error, access.context);
  });
  if (created.length > 0) logger.info({ topics: created }, 'created missing topics');
  return { access, runEventValidation };
}


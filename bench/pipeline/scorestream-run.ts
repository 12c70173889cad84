// Scenarios (c), (c+tracing), (d) and the latency run: the real service (startService) on a
// runs topic, in this process, with a fresh consumer group and its own results topic.
import pino from 'pino';
import type { Logger } from 'pino';
import { startService } from '../../service/start-service.ts';
import type { RunningService } from '../../service/start-service.ts';
import { resolveConfig } from '../../src/engine/config/resolve-config.ts';
import type { KafkaClientName, ScorerLike } from '../../src/engine/config/config-types.ts';
import type { JudgeModelResolver } from '../../src/kit/judge/types.ts';
import type { Throughput } from './measurement.ts';
import { measureRate } from './measurement.ts';
import type { ScenarioSize } from './passthrough.ts';

export type ServiceSetup = {
  brokers: string[];
  runsTopic: string;
  /** Results and dead letters go to `${outputPrefix}-scores` / `-dlq` (created by the service). */
  outputPrefix: string;
  groupId: string;
  scorers: readonly ScorerLike[];
  runsInFlight?: number;
  judgeCallsPerModel?: number;
  models?: JudgeModelResolver;
  logger?: Logger;
  /** A span for every function step too (SCORESTREAM_TRACE_FUNCTION_STEPS); the service's default is off. */
  functionStepSpans?: boolean;
  /** The scoring path's Kafka client (`kafka.client`); default kafkajs. */
  kafkaClient?: KafkaClientName;
};

/** Warnings and errors only, to stderr: a quiet service unless something goes wrong. */
export const benchLogger = (): Logger => pino({ level: process.env.BENCH_LOG_LEVEL ?? 'warn' }, pino.destination(2));

export async function startBenchService(setup: ServiceSetup): Promise<RunningService> {
  const config = resolveConfig({
    kafka: { brokers: setup.brokers, clientId: `bench-${setup.outputPrefix}`, ...(setup.kafkaClient === undefined ? {} : { client: setup.kafkaClient }) },
    groupId: setup.groupId,
    topics: { runs: setup.runsTopic, results: `${setup.outputPrefix}-scores`, deadLetter: `${setup.outputPrefix}-dlq` },
    scorers: setup.scorers.map((scorer) => ({ scorer })),
    concurrency: {
      ...(setup.runsInFlight === undefined ? {} : { runsInFlight: setup.runsInFlight }),
      ...(setup.judgeCallsPerModel === undefined ? {} : { judgeCallsPerModel: setup.judgeCallsPerModel }),
    },
    ...(setup.models === undefined ? {} : { judge: { models: setup.models } }),
  });
  return startService({ config, logger: setup.logger ?? benchLogger(), ...(setup.functionStepSpans === true ? { functionStepSpans: true } : {}) });
}

export type ServiceThroughput = Throughput & {
  failedRecords: number;
  deadLettered: number;
  peakRssMb: number;
  /** Events completed from start to stop, warm-up included: what every recorded span belongs to. */
  completedTotal: number;
};

/**
 * Runs the service until `targetEvents` completed (all records acknowledged), then stops it.
 * RSS is sampled every 250 ms meanwhile: meaningful when the service has its process to itself.
 */
export async function measureService(setup: ServiceSetup, size: ScenarioSize, what: string): Promise<ServiceThroughput> {
  const service = await startBenchService(setup);
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 250);
  let rate: Throughput;
  try {
    rate = await measureRate({ ...size, completed: () => service.stats.completed, what });
  } finally {
    clearInterval(sampler);
    await service.stop({ timeoutMs: 10_000 });
  }
  const { stats } = service;
  return { ...rate, failedRecords: stats.totals().failed, deadLettered: stats.deadLettered, peakRssMb: peakRss / 2 ** 20, completedTotal: stats.completed };
}

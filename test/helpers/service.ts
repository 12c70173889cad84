// Runs the scoring service in-process against the test broker, with a test config, and stops it
// when the test finishes. Also: produce raw messages, and collect parsed records from a topic.
import type { IHeaders } from 'kafkajs';
import { onTestFinished } from 'vitest';
import pino from 'pino';
import { resolveConfig } from '../../src/engine/config/resolve-config.ts';
import type { ScorestreamConfigInput } from '../../src/engine/config/config-types.ts';
import { DEFAULTS } from '../../src/engine/config/defaults.ts';
import type { KafkaClientName } from '../../src/engine/config/config-types.ts';
import { startService } from '../../service/start-service.ts';
import type { RunningService, ServiceOptions } from '../../service/start-service.ts';
import { retryTiers } from '../../src/engine/topology/retry-tiers.ts';
import { readMessages, testBrokers, testKafka, uniqueGroupId, uniqueName, useTopic } from './kafka.ts';

export type ServiceTopics = { runs: string; results: string; deadLetter: string; decisions: string };

/**
 * A fresh retry-topic prefix (config `topics.retry`) with its tier topics — one per distinct
 * delay, `{retry}-<delay>` (src/engine/topology/retry-tiers.ts) — created with `partitions` partitions and
 * deleted after the test.
 */
export async function useRetryTiers(delaysMs: readonly number[], partitions = 2): Promise<{ retry: string; tiers: string[] }> {
  const retry = uniqueName('retry');
  const tiers = retryTiers({ topics: { retry }, retries: { enabled: true, delaysMs } }).map((tier) => tier.topic);
  await Promise.all(tiers.map((name) => useTopic({ name, partitions })));
  return { retry, tiers };
}

/**
 * A fresh retry-topic prefix whose tier topics the service creates as it needs them; every topic
 * under it is deleted after the test.
 */
export function useRetryPrefix(): string {
  const retry = uniqueName('retry');
  onTestFinished(async () => {
    const admin = testKafka('scorestream-test-admin').admin();
    try {
      await admin.connect();
      const tiers = (await admin.listTopics()).filter((topic) => topic.startsWith(`${retry}-`));
      if (tiers.length > 0) await admin.deleteTopics({ topics: tiers, timeout: 10_000 });
    } catch (error) {
      console.warn(`useRetryPrefix: could not delete the tiers of ${retry}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await admin.disconnect();
    }
  });
  return retry;
}

/** Messages written to every retry tier under `retry` so far (the tiers' high watermarks, summed). */
export async function retryTierMessages(retry: string): Promise<number> {
  const admin = testKafka('scorestream-test-admin').admin();
  await admin.connect();
  try {
    const tiers = (await admin.listTopics()).filter((topic) => topic.startsWith(`${retry}-`));
    let total = 0;
    for (const tier of tiers) for (const { high } of await admin.fetchTopicOffsets(tier)) total += Number(high);
    return total;
  } finally {
    await admin.disconnect();
  }
}

/** Four fresh topics (runs with `partitions` partitions), deleted after the test. */
export async function useServiceTopics(partitions = 1): Promise<ServiceTopics> {
  const [runs, results, deadLetter, decisions] = await Promise.all([
    useTopic({ prefix: 'runs', partitions }),
    useTopic({ prefix: 'scores' }),
    useTopic({ prefix: 'dlq' }),
    useTopic({ prefix: 'decisions' }),
  ]);
  return { runs: runs!, results: results!, deadLetter: deadLetter!, decisions: decisions! };
}

export const silentLogger = () => pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** How long a test service's fetch waits for data when there is none (kafkajs' default: 5 s). */
const testFetchWaitMs = 100;

/**
 * The Kafka client the test services run their scoring path on: SCORESTREAM_TEST_KAFKA_CLIENT
 * (`platformatic`, the default, as the service's, or `kafkajs`), so that one delivery test file
 * runs against either client (the `integration-kafkajs` project of vitest.config.ts runs the
 * delivery files a second time on kafkajs). Spawned services get it as SCORESTREAM_KAFKA_CLIENT
 * (service-process.ts).
 */
export function testKafkaClient(): KafkaClientName {
  const client = process.env.SCORESTREAM_TEST_KAFKA_CLIENT ?? DEFAULTS.kafkaClient;
  if (client !== 'kafkajs' && client !== 'platformatic') throw new Error(`SCORESTREAM_TEST_KAFKA_CLIENT: expected 'kafkajs' or 'platformatic', got '${client}'`);
  return client;
}

/**
 * How long a test service's consumer waits at the broker for data: 100 ms, so that every stop() of
 * an idle test service does not wait out the production wait (kafkajs' consumer.disconnect() waits
 * for the fetch in progress). Pass as `fetchMaxWaitMs` to startService / startReplay.
 */
export const testServiceFetchWait = { fetchMaxWaitMs: testFetchWaitMs } as const;

export async function startTestService(
  input: Omit<ScorestreamConfigInput, 'kafka' | 'groupId' | 'topics'> & { topics: Partial<ServiceTopics> & { runs: string; results: string; deadLetter: string; retry?: string; rescore?: string }; groupId?: string },
  options: Partial<Omit<ServiceOptions, 'config' | 'edge'>> & {
    /** Keep the client's production fetch wait (what the service runs with) instead of testServiceFetchWait's 100 ms. */
    productionFetchWait?: boolean;
  } = {},
): Promise<RunningService> {
  const config = resolveConfig({ ...input, kafka: { brokers: testBrokers(), clientId: 'scorestream-test-service', client: testKafkaClient() }, groupId: input.groupId ?? uniqueGroupId('service') });
  const logger = options.logger ?? silentLogger();
  const service = await startService({
    config,
    logger,
    ...(options.productionFetchWait === true ? {} : testServiceFetchWait),
    consumer: { commitIntervalMs: 200, publishRetryDelayMs: 50, ...options.consumer },
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    ...(options.recordInputs === undefined ? {} : { recordInputs: options.recordInputs }),
    ...(options.functionStepSpans === undefined ? {} : { functionStepSpans: options.functionStepSpans }),
    ...(options.processSpans === undefined ? {} : { processSpans: options.processSpans }),
    ...(options.evaluationLogs === undefined ? {} : { evaluationLogs: options.evaluationLogs }),
    ...(options.codeScores === undefined ? {} : { codeScores: options.codeScores }),
  });
  onTestFinished(async () => {
    await service.stop({ timeoutMs: 5_000 });
  });
  return service;
}

export type RawRun = { key?: string | null; value: string | Buffer | null; headers?: IHeaders; partition?: number };

export async function produceRaw(topic: string, messages: RawRun[]): Promise<void> {
  // Idempotent: a retried request (the broker wrote the batch but its answer did not come through)
  // must not write the runs twice, which tests counting runs and offsets would take for a bug.
  const producer = testKafka('scorestream-test-producer').producer({ idempotent: true, maxInFlightRequests: 1, retry: { retries: 10, initialRetryTime: 200 } });
  await producer.connect();
  try {
    // A topic created a moment ago may not be in every broker's metadata yet.
    await producer.send({
      topic,
      acks: -1,
      messages: messages.map((message) => ({
        key: message.key ?? null,
        value: message.value,
        ...(message.headers === undefined ? {} : { headers: message.headers }),
        ...(message.partition === undefined ? {} : { partition: message.partition }),
      })),
    });
  } finally {
    await producer.disconnect();
  }
}

/** Reads `count` JSON records from a topic (from the beginning) and parses them. */
export async function readRecords<T = Record<string, unknown>>(topic: string, count: number, timeoutMs = 60_000): Promise<T[]> {
  const messages = await readMessages(topic, { count, timeoutMs });
  return messages.map((message) => JSON.parse(message.value!.toString('utf8')) as T);
}

/**
 * Reads a topic from the beginning until `done(records)` holds (records parsed as JSON, duplicates
 * kept), then returns them; rejects after `timeoutMs` with how many arrived.
 */
export async function readUntil<T = Record<string, unknown>>(topic: string, done: (records: T[]) => boolean, timeoutMs = 60_000): Promise<T[]> {
  const consumer = testKafka('scorestream-test-reader').consumer({ groupId: uniqueGroupId('read-until'), maxWaitTimeInMs: 100 });
  const records: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`readUntil(${topic}): condition not met after ${records.length} records in ${timeoutMs} ms`)), timeoutMs);
      consumer
        .run({
          eachMessage: async ({ message }) => {
            records.push(JSON.parse(message.value!.toString('utf8')) as T);
            if (done(records)) resolve();
          },
        })
        .catch(reject);
    });
    return records;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
}

/** The group's committed offsets on `topic`, summed over partitions (-1 = none counts as 0). */
export async function committedTotal(groupId: string, topic: string): Promise<number> {
  const admin = testKafka('scorestream-test-admin').admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return (entry?.partitions ?? []).reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
  } finally {
    await admin.disconnect();
  }
}

// The judge brownout of docs/delivery.md (retries): the service with the five built-in LLM
// scorers and one classifier scorer on an OpenAI-compatible judge configured as a deployment does
// (judgeModelsFromEnv, i.e. SCORESTREAM_JUDGE_*), pointed at the fault-injecting server of
// test/helpers/fault-judge-server.ts; 60 runs, judgeCallsPerModel 8, timeoutMs 8 000 per binding.
// Prints, as JSON: the share of (run, scorer) pairs scored, failed and by when, the judge
// requests by outcome, and the retry topic's message count.
//
//   KAFKA_BROKERS=127.0.0.1:39092 node bench/judge-brownout.ts [--plan brownout|ok] [--runs 60]
//       [--call-timeout-ms 2000] [--retries on|off] [--timeout-s 300]
//
// `--plan brownout`: every 11th request 429 (Retry-After: 1), every 13th 500, every 37th hangs.
// The script also runs on a checkout without retry topics (it then leaves the new settings out),
// which is how the "before" figure is taken.
import { parseArgs } from 'node:util';
import type { Kafka } from 'kafkajs';
import pino from 'pino';
import { Classifier } from '../src/kit/classifier/classifier.ts';
import { createClassifierScorer } from '../src/kit/classifier/classifier-scorer.ts';
import { configSchema } from '../src/engine/config/config-schema.ts';
import { resolveConfig } from '../src/engine/config/resolve-config.ts';
import { judgeModelsFromEnv } from '../src/kit/judge/openai-compatible.ts';
import { createDefaultBuiltInScorers } from '../src/kit/scorers/registry.ts';
import { createKafkaClient } from '../kafka/kafka-client.ts';
import { startService } from '../service/start-service.ts';
import { brownoutPlan, startFaultJudgeServer } from '../test/helpers/fault-judge-server.ts';
import { testRun } from '../test/helpers/runs.ts';

const { values } = parseArgs({
  options: {
    plan: { type: 'string', default: 'brownout' },
    runs: { type: 'string', default: '60' },
    'call-timeout-ms': { type: 'string' },
    retries: { type: 'string', default: 'on' },
    'timeout-s': { type: 'string', default: '300' },
  },
});
const runCount = Number(values.runs);
const supportsRetries = 'retries' in configSchema.shape;
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:39092').split(',');
const tag = `brownout-${process.pid}-${Date.now().toString(36)}`;
const topics = { runs: `${tag}-runs`, results: `${tag}-scores`, deadLetter: `${tag}-dlq`, ...(supportsRetries ? { retry: `${tag}-runs-retry` } : {}) };

const server = await startFaultJudgeServer(values.plan === 'ok' ? 'ok' : brownoutPlan);
const judge = judgeModelsFromEnv({ SCORESTREAM_JUDGE_BASE_URL: server.baseURL, SCORESTREAM_JUDGE_MODEL: 'judge' })!;
const tone = new Classifier({
  id: 'support-tone',
  model: 'judge',
  resolveModel: (id) => judge.models.languageModel(id) as never,
  questions: { tone: { type: 'choice', instructions: 'How does the assistant address the customer?', criteria: { warm: 'friendly', neutral: 'matter-of-fact', curt: 'rude' } } },
});
const llmScorers = createDefaultBuiltInScorers({ judge: { model: 'judge' } }).filter((scorer) => ['answer-relevancy', 'faithfulness', 'hallucination', 'toxicity', 'bias'].includes(scorer.id));
const classifierScorer = createClassifierScorer({
  id: 'support-tone',
  classifier: tone,
  question: 'tone',
  scores: { warm: 1, neutral: 0.6, curt: 0 },
  state: ({ run }) => ({ answer: JSON.stringify(run.output).slice(0, 4000) }),
});
const scorers = [...llmScorers, classifierScorer].map((scorer) => ({ scorer, timeoutMs: 8_000 }));
const pairsExpected = runCount * scorers.length;

const config = resolveConfig({
  kafka: { brokers, clientId: 'scorestream-brownout' },
  groupId: `${tag}-group`,
  topics,
  scorers,
  judge: { models: judge.models, ...(supportsRetries && values['call-timeout-ms'] !== undefined ? { callTimeoutMs: Number(values['call-timeout-ms']) } : {}) },
  concurrency: { runsInFlight: 256, judgeCallsPerModel: 8 },
  ...(supportsRetries ? { retries: { enabled: values.retries !== 'off' } } : {}),
} as never);
const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' });
// The bench's own reader of the results, a kafkajs client apart from the service's edge.
const kafka = createKafkaClient(config.kafka, logger);

async function produceRuns(client: Kafka): Promise<void> {
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({
    topic: topics.runs,
    acks: -1,
    messages: Array.from({ length: runCount }, (_, index) => ({ key: `${tag}-${index}`, value: JSON.stringify(testRun({ runId: `${tag}-${index}` })) })),
  });
  await producer.disconnect();
}

type Final = { status: string; at: number };
const failedCodes = new Map<string, number>();
const finals = new Map<string, Final>();
const reader = kafka.consumer({ groupId: `${tag}-reader`, maxWaitTimeInMs: 200 });
const started = performance.now();
const service = await startService({ config, logger, createRunsTopic: true });
await reader.connect();
await reader.subscribe({ topics: [topics.results], fromBeginning: true });
await reader.run({
  eachMessage: async ({ message }) => {
    const record = JSON.parse(message.value!.toString('utf8')) as { runId: string; scorerId: string; status: string; error?: { code?: string; name?: string; failedStep?: string } };
    const key = `${record.runId}|${record.scorerId}`;
    if (finals.has(key)) return;
    finals.set(key, { status: record.status, at: (performance.now() - started) / 1000 });
    if (record.error !== undefined) {
      const code = `${record.error.code ?? record.error.name} at ${record.error.failedStep}`;
      failedCodes.set(code, (failedCodes.get(code) ?? 0) + 1);
    }
  },
});
await produceRuns(kafka);
const deadline = Date.now() + Number(values['timeout-s']) * 1000;
while (finals.size < pairsExpected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
const elapsedSeconds = (performance.now() - started) / 1000;

const count = (status: string) => [...finals.values()].filter((final) => final.status === status).length;
const lastAt = Math.max(0, ...[...finals.values()].map((final) => final.at));
const admin = kafka.admin();
await admin.connect();
let retryMessages: number | undefined;
if (topics.retry !== undefined) {
  const offsets = await admin.fetchTopicOffsets(topics.retry).catch(() => []);
  retryMessages = offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
}
const stats = service.stats as unknown as Record<string, unknown>;
const result = {
  plan: values.plan,
  supportsRetries,
  retries: supportsRetries ? values.retries : 'n/a',
  callTimeoutMs: supportsRetries ? (config as { judge?: { callTimeoutMs?: number } }).judge?.callTimeoutMs ?? 'default (a quarter of timeoutMs, at most 30000)' : 'n/a',
  pairsExpected,
  pairsRecorded: finals.size,
  scored: count('scored'),
  failed: count('failed'),
  notScorable: count('not_scorable'),
  shareScored: Number((count('scored') / pairsExpected).toFixed(4)),
  secondsToLastRecord: Number(lastAt.toFixed(1)),
  elapsedSeconds: Number(elapsedSeconds.toFixed(1)),
  judgeRequests: { total: server.requests, ...server.counts },
  retryTopicMessages: retryMessages ?? 'n/a',
  retriesDeferred: stats.retriesDeferred ?? 'n/a',
  retriesExhausted: stats.retriesExhausted ?? 'n/a',
  failedBy: Object.fromEntries(failedCodes),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
await reader.disconnect();
await service.stop({ timeoutMs: 2_000 });
await admin.deleteTopics({ topics: Object.values(topics) }).catch(() => undefined);
await admin.disconnect();
await server.close();
process.exit(0);

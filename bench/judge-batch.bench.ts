// The batch tier against the live path (docs/benchmarks.md, the batch tier): the same range of the
// demo's sample traffic replayed twice through a two-step judge scorer on gpt-4o-mini (the price
// table's list price) — once live, its calls made one by one to an OpenAI-compatible judge
// server, once with `--judge-mode batch`, its calls batched to the repo's mock batch server in
// OpenAI's Batch API shape (batches end `--batch-ms` after they were created). Both servers answer
// the same bodies the same way and report the same usage, so the records' judge spend compares
// the two bills; the dry run prices the range's real prompts by the table for the list price.
//   node bench/judge-batch.bench.ts [--runs 10000] [--batch-ms 2000]
import { parseArgs } from 'node:util';
import pino from 'pino';
import { z } from 'zod';
import { ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { generateSampleRuns } from '../producers/sample/index.ts';
import { resolveConfig } from '../src/engine/config/resolve-config.ts';
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import { createOpenAICompatibleJudgeProvider } from '../src/kit/judge/openai-compatible.ts';
import { createScorer } from '../src/kit/scorer/create-scorer.ts';
import { getAssistantMessageFromRunOutput } from '../src/kit/utils/run-output.ts';
import { getUserMessageFromRunInput } from '../src/kit/utils/run-input.ts';
import { dryRunReplay } from '../service/replay-dry-run.ts';
import { startReplay } from '../service/replay.ts';
import type { JudgeMode } from '../src/engine/judge-batch/batch-schema.ts';
import { startFaultJudgeServer } from '../test/helpers/fault-judge-server.ts';
import { startMockBatchServer } from '../test/helpers/mock-batch-server.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10000' }, 'batch-ms': { type: 'string', default: '2000' } } });
const runCount = Number(values.runs);
const log = (line: string) => process.stderr.write(`${line}\n`);

const scorer = createScorer({ id: 'answer-relevance', description: 'Is the answer relevant?', judge: { model: 'openai:gpt-4o-mini', instructions: 'You audit support answers for relevance to the question.', modelSettings: { maxRetries: 2 } } })
  .analyze({
    description: 'relevance',
    outputSchema: z.object({ relevant: z.boolean() }),
    createPrompt: ({ run }) => `Question: ${getUserMessageFromRunInput(run.input) ?? ''}\nAnswer: ${getAssistantMessageFromRunOutput(run.output) ?? ''}\nIs the answer relevant to the question?`,
  })
  .generateScore(({ results }) => (results.analyzeStepResult.relevant ? 1 : 0))
  .generateReason({ description: 'explain', createPrompt: ({ run, score }) => `Explain in one sentence why the answer "${getAssistantMessageFromRunOutput(run.output) ?? ''}" scores ${String(score)}.` });

const registry = (baseURL: string, fetch?: typeof globalThis.fetch) => {
  const provider = createOpenAICompatibleJudgeProvider({ baseURL, ...(fetch === undefined ? {} : { fetch }) });
  return { languageModel: (id: string) => provider.languageModel(id.replace(/^openai:/, '')) };
};

const [live, batches] = await Promise.all([startFaultJudgeServer('ok'), startMockBatchServer({ completeAfterMs: Number(values['batch-ms']) })]);
const broker = await ensureLocalBroker({ ephemeral: true });
const kafka = quietKafka({ clientId: 'scorestream-bench-batch', brokers: broker.brokers });
const prefix = `bench-batch-${Date.now().toString(36)}`;
const topics = { runs: `${prefix}-runs`, results: `${prefix}-scores`, deadLetter: `${prefix}-dlq`, decisions: `${prefix}-decisions`, retry: `${prefix}-retry` };
const logger = pino({ level: 'silent' });
try {
  await createTopics(kafka, [{ topic: topics.runs, partitions: 6 }, { topic: topics.results, partitions: 6 }, { topic: topics.deadLetter, partitions: 1 }, { topic: topics.decisions, partitions: 6 }]);
  const runs = generateSampleRuns(runCount, { seed: 'bench-batch', includeTraceInBody: true });
  await produceBacklog(kafka, { topic: topics.runs, count: runCount, message: (index) => ({ key: String(runs[index]!.event.runId), value: JSON.stringify(runs[index]!.event) }) });
  log(`produced ${runCount} sample runs to ${topics.runs}`);
  const config = resolveConfig({
    kafka: { brokers: broker.brokers },
    groupId: `${prefix}-live`,
    topics,
    scorers: [{ scorer, timeoutMs: 60_000 }],
    judge: { models: registry(live.baseURL), batch: { api: 'openai', baseURL: batches.baseURL, apiKey: 'sk-bench', models: (fetch) => registry(batches.baseURL, fetch), maxWaitMs: 500, pollMs: 250, maxPollMs: 1_000 } },
  });

  const estimate = (await dryRunReplay({ config, logger, from: new Date(0), id: `${prefix}-dry` })).byScorer.get(scorer.id)!;
  const measured: Array<{ mode: JudgeMode; seconds: number; records: number; calls: number; cost: number; detail: string }> = [];
  for (const judgeMode of ['live', 'batch'] as const) {
    const started = performance.now();
    const replay = await startReplay({ config, logger, from: new Date(0), id: `${prefix}-${judgeMode}`, judgeMode, pollIntervalMs: 200 });
    const outcome = await replay.outcome;
    const seconds = (performance.now() - started) / 1000;
    if (!outcome.finished) throw new Error(`the ${judgeMode} replay did not finish`);
    const records = await replayRecords(replay.range.id);
    const batch = outcome.stats?.batch;
    const detail = judgeMode === 'live' ? `${live.requests} HTTP calls to the judge` : `${batch?.batchesSubmitted} batches, ${batch?.requestsSubmitted} requests submitted, ${batch?.polls} polls, ${batch?.resumed} pairs resumed`;
    measured.push({ mode: judgeMode, seconds, records: records.length, calls: records.reduce((sum, record) => sum + (record.spend?.judgeCalls ?? 0), 0), cost: records.reduce((sum, record) => sum + (record.spend?.cost?.amount ?? 0), 0), detail });
    log(`${judgeMode}: ${seconds.toFixed(1)} s, ${detail}`);
  }

  const liveCost = measured[0]!.cost;
  console.log(`\n# replay of ${runCount} sample runs, one two-step judge scorer (a verdict, then a reason) on gpt-4o-mini, 6 partitions; batches end ${values['batch-ms']} ms after creation`);
  console.log('| judge mode | seconds | score records | judge calls | cost by the records (USD) | cost / live | |\n|---|---:|---:|---:|---:|---:|---|');
  for (const m of measured) console.log(`| ${m.mode} | ${m.seconds.toFixed(1)} | ${m.records} | ${m.calls} | ${m.cost.toFixed(6)} | ${(m.cost / liveCost).toFixed(3)} | ${m.detail} |`);
  console.log(`\nThe mock servers report 100 input and 10 output tokens a call. The range's real prompts, estimated by the dry run (characters / 4, 256 output tokens a call) and priced by the table (gpt-4o-mini, 0.15 / 0.60 USD per million): ${estimate.judgeCalls} calls, ${estimate.inputTokens} input and ${estimate.outputTokens} output tokens, ${estimate.cost.toFixed(4)} USD live, ${(estimate.cost * config.pricing.batchRate).toFixed(4)} USD at the batch rate (${config.pricing.batchRate}).`);
} finally {
  await deleteTopicsWithPrefix(kafka, prefix).catch(() => undefined);
  await Promise.all([broker.stop(), live.close(), batches.close()]);
}

/** The score records a replay wrote, read from the results topic. */
async function replayRecords(replayId: string): Promise<ScoreRecord[]> {
  const consumer = kafka.consumer({ groupId: `${prefix}-reader-${replayId}`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topics.results], fromBeginning: true });
  const found: ScoreRecord[] = [];
  await new Promise<void>((resolve, reject) => {
    consumer
      .run({
        eachMessage: async ({ message }) => {
          const record = JSON.parse(message.value!.toString()) as ScoreRecord;
          if (record.replay?.id === replayId) found.push(record);
          if (found.length >= runCount) resolve();
        },
      })
      .catch(reject);
  });
  await consumer.disconnect();
  return found;
}

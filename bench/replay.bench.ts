// Replay measurements (docs/benchmarks.md, replay): on the same runs of the demo's sample traffic,
// (1) the live path's throughput (a fresh group scoring the backlog) against a replay's
// (`startReplay` over the same range), interleaved, and (2) a dry run's estimate of judge tokens
// and cost against what the replay's judge calls really reported. The judge is a mock that
// reports usage the way a provider would: its own token count (words × 4/3, not the dry run's
// characters / 4) and an answer length that varies by run.
//   KAFKA_BROKERS=127.0.0.1:39092 node bench/replay.bench.ts [--runs 4000] [--rounds 2] [--output-estimate 120]
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { z } from 'zod';
import { ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { generateSampleRuns } from '../producers/sample/index.ts';
import { resolveConfig } from '../src/engine/config/resolve-config.ts';
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import { createCompletenessScorer, createKeywordCoverageScorer, createToolCallAccuracyScorer, createToolErrorRateScorer } from '../src/index.ts';
import { createScorer } from '../src/kit/scorer/create-scorer.ts';
import { judgeReply, mockJudge } from '../src/kit/testing/mock-judge.ts';
import { getAssistantMessageFromRunOutput } from '../src/kit/utils/run-output.ts';
import { getUserMessageFromRunInput } from '../src/kit/utils/run-input.ts';
import { dryRunReplay } from '../service/replay-dry-run.ts';
import { startReplay } from '../service/replay.ts';
import { startService } from '../service/start-service.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '4000' }, rounds: { type: 'string', default: '2' }, 'output-estimate': { type: 'string' } } });
const runCount = Number(values.runs);
const rounds = Math.max(1, Number(values.rounds));
/** pricing.estimate.outputTokensPerCall for the dry run (default: the config default, 256). */
const outputEstimate = values['output-estimate'] === undefined ? undefined : Number(values['output-estimate']);
const log = (line: string) => process.stderr.write(`${line}\n`);

const hashOf = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);
/** The mock provider's tokenizer: about 4/3 tokens per word, punctuation included. */
const providerTokens = (text: string) => Math.ceil((text.match(/\S+/g)?.length ?? 0) * 4 / 3);
const judge = mockJudge({
  answer: (call) => {
    const usage = { inputTokens: providerTokens(call.system) + providerTokens(call.user), outputTokens: 30 + (hashOf(call.user) % 220) };
    const wantsScore = call.user.startsWith('Rate');
    return judgeReply(wantsScore ? { score: (hashOf(call.user) % 100) / 100 } : { relevant: hashOf(call.user) % 3 !== 0, reasons: ['mock'] }, { usage });
  },
});
const relevance = createScorer({ id: 'judge-relevance', description: 'Is the answer relevant?', judge: { model: judge, instructions: 'You audit support answers for relevance to the question.' } })
  .analyze({
    description: 'relevance',
    outputSchema: z.object({ relevant: z.boolean(), reasons: z.array(z.string()) }),
    createPrompt: ({ run }) => `Question: ${getUserMessageFromRunInput(run.input) ?? ''}\nAnswer: ${getAssistantMessageFromRunOutput(run.output) ?? ''}\nIs the answer relevant to the question? List your reasons.`,
  })
  .generateScore(({ results }) => (results.analyzeStepResult.relevant ? 1 : 0));
const quality = createScorer({ id: 'judge-quality', description: 'Overall answer quality', judge: { model: judge, instructions: 'You grade answers from 0 to 1.' } }).generateScore({
  description: 'quality',
  createPrompt: ({ run }) => `Rate this answer from 0 to 1: ${getAssistantMessageFromRunOutput(run.output) ?? ''}`,
});

const broker = await ensureLocalBroker({ ephemeral: true });
const kafka = quietKafka({ clientId: 'scorestream-bench-replay', brokers: broker.brokers });
const prefix = `bench-replay-${Date.now().toString(36)}`;
const topics = { runs: `${prefix}-runs`, results: `${prefix}-scores`, deadLetter: `${prefix}-dlq`, decisions: `${prefix}-decisions` };
const logger = pino({ level: 'silent' });
try {
  await createTopics(kafka, [{ topic: topics.runs, partitions: 6 }, { topic: topics.results, partitions: 6 }, { topic: topics.deadLetter, partitions: 1 }, { topic: topics.decisions, partitions: 6 }]);
  const from = new Date(Date.now() - 1000);
  const runs = generateSampleRuns(runCount, { seed: 'bench-replay', includeTraceInBody: true });
  await produceBacklog(kafka, { topic: topics.runs, count: runCount, message: (index) => ({ key: String(runs[index]!.event.runId), value: JSON.stringify(runs[index]!.event) }) });
  log(`produced ${runCount} sample runs to ${topics.runs}`);

  const configFor = (groupId: string) =>
    resolveConfig({
      kafka: { brokers: broker.brokers },
      groupId,
      topics,
      scorers: [
        { scorer: createCompletenessScorer() },
        { scorer: createToolErrorRateScorer() },
        { scorer: createKeywordCoverageScorer(), sampling: { type: 'ratio', rate: 0.5 } },
        { scorer: createToolCallAccuracyScorer({ expectedTool: 'lookupOrder' }), filter: { op: 'eq', left: { path: 'entity.id' }, right: { literal: 'support-agent' } } },
        { scorer: relevance },
        { scorer: quality, sampling: { type: 'ratio', rate: 0.3 } },
      ],
      // gpt-4o-mini's list price, so the figures read as that model's.
      pricing: { models: { 'mock-judge': { inputPerMillion: 0.15, outputPerMillion: 0.6 } }, ...(outputEstimate === undefined ? {} : { estimate: { outputTokensPerCall: outputEstimate } }) },
    });

  const committed = async (groupId: string) => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [entry] = await admin.fetchOffsets({ groupId, topics: [topics.runs] });
      return (entry?.partitions ?? []).reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
    } finally {
      await admin.disconnect();
    }
  };
  const measurements: { path: string; round: number; seconds: number; runsPerSecond: number }[] = [];
  let lastReplayId = '';
  for (let round = 1; round <= rounds; round += 1) {
    const groupId = `${prefix}-live-${round}`;
    const started = performance.now();
    const service = await startService({ config: configFor(groupId), logger });
    while ((await committed(groupId)) < runCount) await new Promise((resolve) => setTimeout(resolve, 100));
    const liveSeconds = (performance.now() - started) / 1000;
    await service.stop();
    measurements.push({ path: 'live', round, seconds: liveSeconds, runsPerSecond: runCount / liveSeconds });

    const replayStarted = performance.now();
    // Timed like the live path: until every run's offset is committed (not including the stop after it).
    let finishedAt = 0;
    // A different `from` per round: a new replay (and group) each time over the same runs.
    const replay = await startReplay({
      config: configFor(`${prefix}-live`),
      logger,
      from: new Date(from.getTime() - round),
      pollIntervalMs: 100,
      onProgress: (progress) => {
        if (progress.finished && finishedAt === 0) finishedAt = performance.now();
      },
    });
    const outcome = await replay.outcome;
    const replaySeconds = (finishedAt - replayStarted) / 1000;
    if (!outcome.finished || outcome.progress.done !== runCount) throw new Error(`replay did not finish: ${JSON.stringify(outcome.progress)}`);
    measurements.push({ path: 'replay', round, seconds: replaySeconds, runsPerSecond: runCount / replaySeconds });
    lastReplayId = replay.range.id;
    log(`round ${round}: live ${liveSeconds.toFixed(2)} s, replay ${replaySeconds.toFixed(2)} s`);
  }

  const callsBefore = judge.calls.length;
  const report = await dryRunReplay({ config: configFor(`${prefix}-live`), logger, from: new Date(from.getTime() - 1) });
  if (judge.calls.length !== callsBefore) throw new Error('the dry run called the judge');

  // The real figures: the judge evidence of the last replay's records.
  const real = new Map<string, { records: number; calls: number; inputTokens: number; outputTokens: number; cost: number }>();
  const consumer = kafka.consumer({ groupId: `${prefix}-reader`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topics.results], fromBeginning: true });
  const wanted = [...report.byScorer.values()].reduce((sum, estimate) => sum + estimate.eligible, 0);
  let seen = 0;
  await new Promise<void>((resolve, reject) => {
    consumer
      .run({
        eachMessage: async ({ message }) => {
          const record = JSON.parse(message.value!.toString()) as ScoreRecord;
          if (record.replay?.id !== lastReplayId) return;
          seen += 1;
          let entry = real.get(record.scorerId);
          if (entry === undefined) real.set(record.scorerId, (entry = { records: 0, calls: 0, inputTokens: 0, outputTokens: 0, cost: 0 }));
          entry.records += 1;
          for (const step of Object.values(record.judge ?? {})) {
            for (const execution of step?.executions ?? []) {
              entry.calls += execution.modelCallCount;
              entry.inputTokens += execution.usage?.inputTokens ?? 0;
              entry.outputTokens += execution.usage?.outputTokens ?? 0;
              entry.cost += execution.cost?.amount ?? 0;
            }
          }
          if (seen >= wanted) resolve();
        },
      })
      .catch(reject);
  });
  await consumer.disconnect();

  console.log(`\n# replay vs live, ${runCount} sample runs, 6 partitions, 6 scorers (2 judge scorers on a mock judge, no delay)`);
  console.log('| path | round | seconds | runs/s |\n|---|---:|---:|---:|');
  for (const m of measurements) console.log(`| ${m.path} | ${m.round} | ${m.seconds.toFixed(2)} | ${m.runsPerSecond.toFixed(0)} |`);
  console.log(`\n# dry-run estimate (output tokens per call: ${outputEstimate ?? 256}) vs the replay's reported usage (${lastReplayId}; priced at 0.15 / 0.60 USD per million)`);
  console.log('| scorer | eligible (dry) | records (real) | calls dry / real | input tokens dry / real | output tokens dry / real | cost dry / real (USD) | cost ratio |\n|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [scorerId, estimate] of report.byScorer) {
    const actual = real.get(scorerId) ?? { records: 0, calls: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
    console.log(
      `| ${scorerId} | ${estimate.eligible} | ${actual.records} | ${estimate.judgeCalls} / ${actual.calls} | ${estimate.inputTokens} / ${actual.inputTokens} | ${estimate.outputTokens} / ${actual.outputTokens} | ${estimate.cost.toFixed(6)} / ${actual.cost.toFixed(6)} | ${actual.cost === 0 ? '-' : (estimate.cost / actual.cost).toFixed(2)} |`,
    );
  }
} finally {
  await deleteTopicsWithPrefix(kafka, prefix).catch(() => undefined);
  await broker.stop();
}

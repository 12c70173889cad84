// Scorer pipeline overhead, in one process: (1) four step functions called directly (baseline),
// (2) the same four as a function-only scorer through run(), (3) one prompt step (analyze, zod
// schema with 2 fields) judged by a zero-latency MockLanguageModelV4. Runs are awaited one at a
// time; no OpenTelemetry SDK is registered (spans are no-ops), as in the Mastra measurement it is
// compared with (docs/benchmarks.md).
// Usage: node bench/scorer.bench.ts [runs]    (package script: npm run bench:scorer)
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { createScorer } from '../src/kit/scorer/create-scorer.ts';
import type { StepContext } from '../src/kit/scorer/types.ts';

const runs = Number(process.argv[2] ?? 20_000);
const promptRuns = Math.max(1, Math.round(runs / 4));

type Results = {
  preprocessStepResult?: { text: string };
  analyzeStepResult?: { length: number };
  generateScoreStepResult?: number;
};

const preprocess = ({ run }: StepContext) => ({ text: String(run.output) });
const analyze = ({ results }: StepContext<unknown, unknown, Results>) => ({ length: results.preprocessStepResult!.text.length });
const generateScore = ({ results }: StepContext<unknown, unknown, Results>) => (results.analyzeStepResult!.length > 3 ? 1 : 0);
const generateReason = ({ score }: { score: number }) => `score ${score}`;

/** What any hand-written pipeline must do at least: build contexts, await each step, assemble a result. */
async function direct(input: { runId: string; output: string }) {
  const run = { ...input };
  let results: Results = {};
  const preprocessed = await preprocess({ run, results } as never);
  results = { preprocessStepResult: preprocessed };
  const analyzed = await analyze({ run, results } as never);
  results = { ...results, analyzeStepResult: analyzed };
  const score = await generateScore({ run, results } as never);
  results = { ...results, generateScoreStepResult: score };
  const reason = await generateReason({ run, results, score } as never);
  return { ...run, score, reason, preprocessStepResult: preprocessed, analyzeStepResult: analyzed };
}

const functionScorer = createScorer({ id: 'bench-functions', description: 'four trivial function steps' })
  .preprocess(preprocess)
  .analyze(analyze as never)
  .generateScore(generateScore as never)
  .generateReason(generateReason as never);

const judgeAnswer = {
  content: [{ type: 'text' as const, text: '{"verdict":"yes","confidence":0.9}' }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  },
  warnings: [],
};
const model = new MockLanguageModelV4({ modelId: 'bench-judge', doGenerate: async () => judgeAnswer });

const promptScorer = createScorer({
  id: 'bench-prompt',
  description: 'one prompt step',
  judge: { model, instructions: 'You are a judge.' },
})
  .preprocess(preprocess)
  .analyze({
    description: 'verdict',
    outputSchema: z.object({ verdict: z.enum(['yes', 'no']), confidence: z.number() }),
    createPrompt: ({ results }) => `Is this polite? ${results.preprocessStepResult.text}`,
  })
  .generateScore(({ results }) => results.analyzeStepResult.confidence)
  .generateReason(generateReason as never);

type Scenario = { label: string; runs: number; once: (index: number) => Promise<unknown> };

/** µs per run over one timed batch, after the scenario's warm-up. */
async function timeBatch(scenario: Scenario): Promise<number> {
  model.doGenerateCalls.length = 0;
  const started = performance.now();
  for (let index = 0; index < scenario.runs; index += 1) {
    await scenario.once(index);
    // the mock records every call; keep that from growing the heap during the measurement
    if ((index & 1023) === 1023) model.doGenerateCalls.length = 0;
  }
  return ((performance.now() - started) * 1000) / scenario.runs;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const scenarios: Scenario[] = [
  { label: '(1) direct step calls (baseline)', runs, once: (index) => direct({ runId: `run-${index}`, output: 'hello there' }) },
  {
    label: '(2) function-only scorer run()',
    runs,
    once: (index) => functionScorer.run({ runId: `run-${index}`, output: 'hello there' }),
  },
  {
    label: '(3) prompt analyze + mock judge',
    runs: promptRuns,
    once: (index) => promptScorer.run({ runId: `run-${index}`, output: 'hello there' }),
  },
];

// Warm-up, then rounds that interleave the scenarios, so machine noise hits all of them alike.
for (const scenario of scenarios) {
  const warmUp = Math.max(50, Math.round(scenario.runs / 20));
  for (let index = 0; index < warmUp; index += 1) await scenario.once(index);
}
const rounds = 5;
const samples: number[][] = scenarios.map(() => []);
for (let round = 0; round < rounds; round += 1) {
  for (const [index, scenario] of scenarios.entries()) samples[index]!.push(await timeBatch(scenario));
}
const measured = scenarios.map((scenario, index) => ({ label: scenario.label, runs: scenario.runs, microseconds: median(samples[index]!) }));
const baseline = measured[0]!.microseconds;

console.log(`scorer overhead — Node ${process.version}, serial runs, no OpenTelemetry SDK registered, median of ${rounds} rounds`);
console.log('| scenario | runs/round | runs/s | µs/run | vs baseline |');
console.log('|---|---:|---:|---:|---:|');
for (const row of measured) {
  const perSecond = Math.round(1_000_000 / row.microseconds);
  console.log(
    `| ${row.label} | ${row.runs} | ${perSecond.toLocaleString('en-US')} | ${row.microseconds.toFixed(2)} | ${(row.microseconds / baseline).toFixed(2)}× |`,
  );
}

// The zero-token trajectory scorers (docs/scorers.md, "Trajectory scorers"), in one process on
// the sample traffic (its runs carry their agent's offered tools, and some fail in their
// trajectories: unoffered tools, loops, bad arguments):
//   (1) each scorer's run() alone, runs scored one at a time, and the six in turn on each run;
//   (2) the service's per-message work without Kafka (bench:pipeline's (p): decode, validate,
//       eligibility, scorers, records, JSON) with the bench's three code scorers, against the same
//       with the six trajectory scorers bound beside them — passes alternated, so machine noise
//       hits both alike; each pass's ratio, then the median.
// Usage: node bench/trajectory-scorers.bench.ts [--runs N] [--rounds N]   (npm run bench:trajectory)
import { parseArgs } from 'node:util';
import { createEventPool } from './pipeline/bench-events.ts';
import { createCodeScorers } from './pipeline/bench-scorers.ts';
import { runEventPasses } from './pipeline/pipeline-alone.ts';
import { parseAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { createRepeatedToolCallsScorer } from '../src/kit/scorers/code/repeated-tool-calls/index.ts';
import { createStepBudgetScorer } from '../src/kit/scorers/code/step-budget/index.ts';
import { createToolArgumentValidityScorer } from '../src/kit/scorers/code/tool-argument-validity/index.ts';
import { createToolErrorRecoveryScorer } from '../src/kit/scorers/code/tool-error-recovery/index.ts';
import { createTrajectoryMatchScorer } from '../src/kit/scorers/code/trajectory-match/index.ts';
import { createUnofferedToolCallsScorer } from '../src/kit/scorers/code/unoffered-tool-calls/index.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '4000' }, rounds: { type: 'string', default: '5' } } });
const runCount = Number(values.runs);
const rounds = Number(values.rounds);

/** The right tool calls of some of the sample's tasks (producers/sample/agents-*.ts). */
const EXPECTED_BY_INTENT = {
  'order-status': ['lookupOrder'],
  'refund-request': ['lookupOrder', 'refundOrder'],
  'failing-test': ['runTests', 'readFile', 'applyPatch'],
  'add-pagination': ['searchCode', 'readFile', 'applyPatch', 'runTests'],
};

function trajectoryScorers() {
  return [
    createToolArgumentValidityScorer(),
    createUnofferedToolCallsScorer(),
    createRepeatedToolCallsScorer(),
    createToolErrorRecoveryScorer(),
    createStepBudgetScorer({ maxModelCalls: 6, maxToolCalls: 4, maxTotalTokens: 4_000, maxDurationMs: 12_000 }),
    // The sample runs carry no expected trajectory but their router's intent: a table keyed by it.
    createTrajectoryMatchScorer({ expected: EXPECTED_BY_INTENT }),
  ];
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const format = (value: number) => Math.round(value).toLocaleString('en-US');

// The runs as scorers receive them: parsed by the contract (Dates, defaults). Parsed afresh for
// every timed pass, outside its clock: the service hands each scorer a run decoded from its own
// message, so nothing a scorer keeps per object (the calls listed once per output, a schema
// compiled once per definition) may carry over from an earlier pass and flatter it.
const pool = createEventPool(runCount, 'trajectory-bench');
function freshRuns() {
  return pool.events.map((event) => {
    const parsed = parseAgentRunEvent(JSON.parse(event.value));
    if (!parsed.success) throw new Error(`sample run ${event.runId} is invalid`);
    const { data } = parsed;
    return {
      runId: data.runId,
      input: data.input,
      output: data.output,
      requestContext: data.requestContext,
      ...(data.tools === undefined ? {} : { tools: data.tools }),
      ...(data.usage === undefined ? {} : { usage: data.usage }),
      ...(data.durationMs === undefined ? {} : { durationMs: data.durationMs }),
    };
  });
}

// (1) run() per scorer, and the six in turn.
const scorers = trajectoryScorers();
type Row = { label: string; perRound: number[]; scored: number; notScorable: number };
const rows: Row[] = [...scorers.map((scorer) => ({ label: scorer.id, perRound: [], scored: 0, notScorable: 0 })), { label: 'all six in turn', perRound: [], scored: 0, notScorable: 0 }];
async function scoreAll(which: readonly (typeof scorers)[number][], row: Row, counting: boolean): Promise<void> {
  const runs = freshRuns();
  // The parse's garbage is collected before the clock starts, not inside it (run with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  for (const run of runs) {
    for (const scorer of which) {
      const result = await scorer.run(run);
      if (counting) {
        if ('notScorable' in result && result.notScorable !== undefined) row.notScorable += 1;
        else row.scored += 1;
      }
    }
  }
  row.perRound.push(runs.length / ((performance.now() - started) / 1000));
}
for (const [index, scorer] of scorers.entries()) await scoreAll([scorer], rows[index]!, true); // warm-up, and what each says
for (const row of rows) row.perRound.length = 0;
for (let round = 0; round < rounds; round += 1) {
  for (const [index, scorer] of scorers.entries()) await scoreAll([scorer], rows[index]!, false);
  await scoreAll(scorers, rows.at(-1)!, false);
}

// (2) the pipeline without Kafka, three code scorers against the same plus the six.
const baseline = runEventPasses({ pool, scorers: createCodeScorers(), inFlight: 256 });
const withTrajectory = runEventPasses({ pool, scorers: [...createCodeScorers(), ...trajectoryScorers()], inFlight: 256 });
async function timed(passes: typeof baseline): Promise<number> {
  const started = performance.now();
  await passes.pass();
  return passes.events / ((performance.now() - started) / 1000);
}
await timed(baseline);
await timed(withTrajectory);
const pipeline = { baseline: [] as number[], withTrajectory: [] as number[], ratios: [] as number[] };
for (let round = 0; round < rounds; round += 1) {
  // ABBA: the order within a round alternates.
  const first = round % 2 === 0 ? 'baseline' : 'withTrajectory';
  const a = await timed(first === 'baseline' ? baseline : withTrajectory);
  const b = await timed(first === 'baseline' ? withTrajectory : baseline);
  const [base, traj] = first === 'baseline' ? [a, b] : [b, a];
  pipeline.baseline.push(base);
  pipeline.withTrajectory.push(traj);
  pipeline.ratios.push(traj / base);
}

console.log(`trajectory scorers — Node ${process.version}, ${pool.events.length} sample runs (parsed afresh for each pass), serial run() calls, no OpenTelemetry SDK, median of ${rounds} rounds`);
console.log('| scorer | runs/s | each round | scored | not scorable |');
console.log('|---|---:|---|---:|---:|');
for (const row of rows) {
  const counts = row.label === 'all six in turn' ? '— | —' : `${row.scored} | ${row.notScorable}`;
  console.log(`| ${row.label} | ${format(median(row.perRound))} | ${row.perRound.map(format).join(' / ')} | ${counts} |`);
}
console.log('');
console.log(`pipeline without Kafka ((p), ${pool.events.length} events a pass, 256 in flight, passes alternated):`);
console.log(`  three code scorers: ${format(median(pipeline.baseline))} events/s (${pipeline.baseline.map(format).join(' / ')})`);
console.log(`  the same + the six trajectory scorers: ${format(median(pipeline.withTrajectory))} events/s (${pipeline.withTrajectory.map(format).join(' / ')})`);
console.log(`  ratio, each pass's: ${pipeline.ratios.map((ratio) => ratio.toFixed(2)).join(' / ')}; median ${median(pipeline.ratios).toFixed(2)}×  (records per event: ${(baseline.records / (baseline.events * (rounds + 1))).toFixed(1)} against ${(withTrajectory.records / (withTrajectory.events * (rounds + 1))).toFixed(1)})`);

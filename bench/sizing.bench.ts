// The sizing benchmark behind docs/deployment.md's sizing table: what one service instance
// sustains with the default caps (runsInFlight 256, judgeCallsPerModel 16), on a real broker.
//   (code)  the three built-in code scorers of bench:pipeline's (c), draining a backlog;
//   (judge) one LLM-judge scorer (one call per run) whose mock model answers after 0.5, 1 and 2 s;
//           the ceiling is judgeCallsPerModel / latency, and the table says how close it comes;
//   (memory) the live heap with every run slot held by a judge that does not answer, at
//           runsInFlight 64, 256 and 1024, against the same service idle: the cost of one run
//           in flight (the sample runs of producers/sample, their size printed).
// Each scenario has its own topics and consumer group; rates are taken between a warm-up count
// and the end of the measured window. Print: a Markdown table and the machine line.
// Usage: node --expose-gc bench/sizing.bench.ts [--quick]      (npm run bench:sizing)
//        KAFKA_BROKERS=host:port to use an existing broker (its sizing-* topics are deleted after).
import { loadavg } from 'node:os';
import pino from 'pino';
import { ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { DEFAULTS } from '../src/engine/config/defaults.ts';
import { resolveConfig } from '../src/engine/config/resolve-config.ts';
import type { ScorestreamConfigInput } from '../src/engine/config/config-types.ts';
import { startService } from '../service/start-service.ts';
import type { RunningService } from '../service/start-service.ts';
import { createEventPool } from './pipeline/bench-events.ts';
import { createCodeScorers, createSlowJudge } from './pipeline/bench-scorers.ts';
import { describeMachine } from './pipeline/machine-info.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';

const quick = process.argv.includes('--quick');
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench:sizing does): the memory figures need a full collection before each reading');
const partitions = 6;
const progress = (line: string) => console.error(`· ${line}`);
const logger = pino({ level: 'silent' });

const broker = await ensureLocalBroker({ ephemeral: true, onProgress: progress });
const kafka = quietKafka({ clientId: 'scorestream-sizing', brokers: broker.brokers });
const prefix = `sizing-${Date.now().toString(36)}`;
const pool = createEventPool(2_000, 'sizing-bench');
let scenario = 0;

/** A fresh runs topic with `count` events, and a service on it in its own group. */
async function serviceOn(count: number, config: Omit<ScorestreamConfigInput, 'kafka' | 'topics' | 'groupId'>): Promise<{ service: RunningService; produce: (extra: number) => Promise<void> }> {
  scenario += 1;
  const runs = `${prefix}-${scenario}-runs`;
  await createTopics(kafka, [{ topic: runs, partitions }]);
  let produced = 0;
  const produce = async (extra: number) => {
    const from = produced;
    produced += extra;
    await produceBacklog(kafka, { topic: runs, count: extra, message: (index) => pool.message(from + index) });
  };
  if (count > 0) await produce(count);
  const resolved = resolveConfig({
    ...config,
    kafka: { brokers: broker.brokers, clientId: 'scorestream-sizing' },
    groupId: `${prefix}-${scenario}`,
    topics: { runs, results: `${prefix}-${scenario}-scores`, deadLetter: `${prefix}-${scenario}-dlq` },
    retries: { enabled: false },
  } as ScorestreamConfigInput);
  const service = await startService({ config: resolved, logger, consumer: { fromBeginning: true } });
  return { service, produce };
}

/** Runs/s between the `warmUp`-th and the `end`-th finished run. */
async function rateBetween(service: RunningService, warmUp: number, end: number, timeoutMs: number): Promise<{ runsPerSecond: number; seconds: number }> {
  const deadline = performance.now() + timeoutMs;
  let startedAt: number | undefined;
  for (;;) {
    const done = service.stats.completed;
    if (startedAt === undefined && done >= warmUp) startedAt = performance.now();
    if (startedAt !== undefined && done >= end) {
      const seconds = (performance.now() - startedAt) / 1000;
      return { runsPerSecond: (end - warmUp) / seconds, seconds };
    }
    if (performance.now() > deadline) throw new Error(`only ${done} of ${end} runs finished within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const mib = (bytes: number) => bytes / 2 ** 20;
/** The live heap after full collections (RSS is left out: it is this whole process's, event pool and earlier scenarios included). */
function memory(): { heap: number } {
  gc!();
  gc!();
  return { heap: process.memoryUsage().heapUsed };
}

const rows: string[] = [];
const loadBefore = loadavg();
try {
  // (code): the three code scorers.
  {
    const total = quick ? 6_000 : 30_000;
    const warmUp = Math.floor(total / 10);
    progress(`code scorers: ${total} runs`);
    const { service } = await serviceOn(total, { scorers: createCodeScorers().map((scorer) => ({ scorer })) });
    const { runsPerSecond, seconds } = await rateBetween(service, warmUp, total, 300_000);
    await service.stop({ timeoutMs: 5_000 });
    rows.push(`| three code scorers (completeness, keyword coverage, content similarity) | ${Math.round(runsPerSecond).toLocaleString('en-US')} | — | ${total - warmUp} runs in ${seconds.toFixed(1)} s |`);
  }

  // (judge): one judge call per run at 0.5, 1 and 2 s.
  for (const latencyMs of [500, 1_000, 2_000]) {
    const ceiling = DEFAULTS.judgeCallsPerModel / (latencyMs / 1000);
    const window = quick ? 6 : 20; // seconds of measured work
    const warmUp = Math.ceil(ceiling * 2);
    const end = warmUp + Math.ceil(ceiling * window);
    const judge = createSlowJudge(latencyMs);
    progress(`judge at ${latencyMs} ms: ${end} runs measured`);
    // More than runsInFlight beyond the end, so the slots never run dry inside the window.
    const { service } = await serviceOn(end + DEFAULTS.runsInFlight + 64, { scorers: [{ scorer: judge.scorer }], judge: { models: judge.models } });
    const { runsPerSecond, seconds } = await rateBetween(service, warmUp, end, 300_000);
    await service.stop({ timeoutMs: 500 });
    rows.push(`| one LLM-judge call per run, judge latency ${latencyMs / 1000} s | ${runsPerSecond.toFixed(1)} | ${ceiling} (${Math.round((runsPerSecond / ceiling) * 100)}%) | ${end - warmUp} runs in ${seconds.toFixed(1)} s |`);
  }

  // (memory): every slot held by a judge that does not answer within the window.
  const memoryRows: string[] = [];
  for (const runsInFlight of quick ? [64, 256] : [64, 256, 1_024]) {
    const judge = createSlowJudge(600_000);
    progress(`memory at runsInFlight ${runsInFlight}`);
    const { service, produce } = await serviceOn(0, { concurrency: { runsInFlight }, scorers: [{ scorer: judge.scorer, timeoutMs: 900_000 }], judge: { models: judge.models } });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idle = memory();
    await produce(runsInFlight + 200);
    const deadline = performance.now() + 120_000;
    while (service.stats.inFlight < runsInFlight) {
      if (performance.now() > deadline) throw new Error(`only ${service.stats.inFlight} of ${runsInFlight} runs in flight within 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const full = memory();
    memoryRows.push(`| ${runsInFlight} | ${mib(idle.heap).toFixed(1)} | ${mib(full.heap).toFixed(1)} | ${((full.heap - idle.heap) / runsInFlight / 1024).toFixed(1)} |`);
    await service.stop({ timeoutMs: 200 });
  }

  const loadAfter = loadavg();
  console.log(['', ...describeMachine(broker), `load:    ${loadBefore[0]!.toFixed(2)} before, ${loadAfter[0]!.toFixed(2)} after (1-minute load average)`, `events:  sample runs of ${Math.round(pool.averageBytes)} bytes on average, ${partitions} partitions`, ''].join('\n'));
  console.log(['| what one instance runs | runs/s | ceiling (judgeCallsPerModel / latency) | measured |', '|---|---:|---:|---|', ...rows].join('\n'));
  console.log('');
  console.log(['| runsInFlight | heap idle (MiB) | heap with every slot held (MiB) | per run in flight (KiB) | RSS (MiB) |', '|---:|---:|---:|---:|---:|', ...memoryRows].join('\n'));
} finally {
  await deleteTopicsWithPrefix(kafka, prefix).catch((error: unknown) => progress(`could not delete the ${prefix}-* topics: ${String(error)}`));
  await broker.stop();
  // The unanswered judge calls of the memory runs hold timers; nothing is left to wait for.
  process.exit(0);
}

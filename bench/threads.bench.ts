// Thread scoring through the service against the run path, on a real broker, in the same run
// (docs/threads.md, docs/benchmarks.md): the same multi-turn sample runs (every run has a thread;
// a conversation takes 1–4 turns) scored by the three code scorers of bench:pipeline
//   (r) alone: runs/s through the run path;
//   (t) with two thread scorers bound (turn-count, run-score-mean over completeness; idle 1 s):
//       runs/s through the run path, now also re-keying each run to `{runs}-by-thread` (the
//       clock is the re-keyed turns), turns/s applied to the thread state over the same span
//       (the by-thread messages finished), and then the thread versions scored after their idle gap
//       (each close of a thread by both bindings counts once; a conversation whose next turn was
//       applied after its idle gap is resumed and scored again, so versions can outnumber conversations).
// Rounds alternate (r) and (t), each on a fresh consumer group and its own output topics, in
// this process; medians are printed, with every round.
// Usage: node bench/threads.bench.ts [--runs N] [--rounds R]   (npm run bench:threads)
//        KAFKA_BROKERS=host:port to use an existing broker (its bench-threads-* topics are deleted after).
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { startService } from '../service/start-service.ts';
import type { RunningService } from '../service/start-service.ts';
import { resolveConfig } from '../src/engine/config/resolve-config.ts';
import { createRunScoreMeanScorer } from '../src/kit/scorers/code/run-score-stats/index.ts';
import { createTurnCountScorer } from '../src/kit/scorers/code/turn-count/index.ts';
import { createEventPool } from './pipeline/bench-events.ts';
import { createCodeScorers } from './pipeline/bench-scorers.ts';
import type { Throughput } from './pipeline/measurement.ts';
import { measureRate, waitFor } from './pipeline/measurement.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';
import { median } from './pipeline/report.ts';
import { benchLogger } from './pipeline/scorestream-run.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
const rounds = Number(values.rounds);
if (!(runs >= 1_000) || !(rounds >= 1)) throw new Error('usage: node bench/threads.bench.ts [--runs N (>= 1000)] [--rounds R]');
const partitions = 6;
const idleMs = 1_000;
const warmUp = Math.round(runs / 10);
const timeoutMs = 300_000;
const progress = (line: string) => console.log(`· ${line}`);

type RunRound = { runPath: Throughput };
type ThreadRound = RunRound & { turnsPerSecond: number; threadsClosed: number; closeSeconds: number; peakRssMb: number; peakHeapMb: number; peakExternalMb: number; stateMb: number };

const broker = await ensureLocalBroker({ ephemeral: true, onProgress: progress });
const kafka = quietKafka({ clientId: 'scorestream-bench-threads', brokers: broker.brokers });
const prefix = `bench-threads-${Date.now().toString(36)}`;
const runsTopic = `${prefix}-runs`;

// The thread topics are named after the runs topic ({runs}-by-thread, {runs}-thread-state), so
// each (t) round reads a runs topic of its own: a later round on the same one would restore the
// earlier round's state, recognise every turn as a duplicate and close nothing.
const threadRoundTopic = (round: number) => `${prefix}-t${round}-runs`;

function start(name: string, withThreads: boolean, topic: string): Promise<RunningService> {
  const config = resolveConfig({
    kafka: { brokers: broker.brokers, clientId: `${prefix}-${name}` },
    groupId: `${prefix}-${name}`,
    topics: { runs: topic, results: `${prefix}-${name}-scores`, deadLetter: `${prefix}-${name}-dlq` },
    scorers: [
      ...createCodeScorers().map((scorer) => ({ scorer })),
      ...(withThreads
        ? [
            { scorer: createTurnCountScorer(), level: 'thread' as const, thread: { idleMs } },
            { scorer: createRunScoreMeanScorer({ scorerId: 'completeness' }), level: 'thread' as const, thread: { idleMs } },
          ]
        : []),
    ],
  });
  return startService({ config, logger: benchLogger() });
}

async function runPathOnly(round: number): Promise<RunRound> {
  const service = await start(`r${round}`, false, runsTopic);
  try {
    return { runPath: await measureRate({ completed: () => service.stats.completed, warmUpEvents: warmUp, targetEvents: runs, what: '(r) the run path', timeoutMs, brokerPid: broker.pid }) };
  } finally {
    await service.stop({ timeoutMs: 10_000 });
  }
}

const stateBytes = (stats: RunningService['stats']) => [...stats.threads.byPartition.values()].reduce((sum, partition) => sum + partition().bytes, 0);

async function withThreads(round: number): Promise<ThreadRound> {
  const service = await start(`t${round}`, true, threadRoundTopic(round));
  const { stats } = service;
  const turnsApplied = () => stats.completed - stats.threads.rekeyed;
  const closed = () => [...stats.threads.closesByReason.values()].reduce((sum, count) => sum + count, 0);
  // RSS sampled every 250 ms; at its peak, what it was made of.
  let peak = process.memoryUsage();
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    if (usage.rss > peak.rss) peak = usage;
  }, 250);
  try {
    let turnsAtStart = 0;
    const runPath = await measureRate({
      completed: () => {
        const rekeyed = stats.threads.rekeyed;
        if (rekeyed < warmUp) turnsAtStart = turnsApplied();
        return rekeyed;
      },
      warmUpEvents: warmUp,
      targetEvents: runs,
      what: '(t) the run path with thread scorers',
      timeoutMs,
      brokerPid: broker.pid,
    });
    const turnsPerSecond = (turnsApplied() - turnsAtStart) / runPath.seconds;
    // Every turn applied, then every thread closed by its idle gap (two bindings: two closes each).
    await waitFor(() => turnsApplied() >= runs, '(t) every turn applied to the thread state', timeoutMs, 10);
    const turnsDoneAt = performance.now();
    let lastClosed = -1;
    let steadySince = performance.now();
    await waitFor(
      () => {
        const now = closed();
        if (now !== lastClosed) [lastClosed, steadySince] = [now, performance.now()];
        return now > 0 && performance.now() - steadySince > idleMs * 3;
      },
      '(t) the threads to close',
      timeoutMs,
      50,
    );
    const closeSeconds = (steadySince - turnsDoneAt) / 1000;
    return { runPath, turnsPerSecond, threadsClosed: closed() / 2, closeSeconds, peakRssMb: peak.rss / 2 ** 20, peakHeapMb: peak.heapUsed / 2 ** 20, peakExternalMb: peak.external / 2 ** 20, stateMb: stateBytes(stats) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
    await service.stop({ timeoutMs: 10_000 });
  }
}

try {
  await createTopics(kafka, [{ topic: runsTopic, partitions }]);
  for (let round = 0; round < rounds; round += 1) await createTopics(kafka, [{ topic: threadRoundTopic(round), partitions }]);
  const pool = createEventPool(runs, 'threads-bench');
  // Conversations: the sample runs carry Mastra's shape, a threadId on their messages.
  const threads = new Set(pool.events.map((event) => /"threadId":"([^"]+)"/.exec(event.value)?.[1]));
  for (const topic of [runsTopic, ...Array.from({ length: rounds }, (_, round) => threadRoundTopic(round))]) await produceBacklog(kafka, { topic, count: runs, message: pool.message });
  progress(`${runs} sample runs of ${threads.size} conversations on ${runsTopic} (${partitions} partitions), ${Math.round(pool.averageBytes)} bytes each on average`);
  const alone: RunRound[] = [];
  const threaded: ThreadRound[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const withThreadScorers of order) {
      if (withThreadScorers) {
        const result = await withThreads(round);
        threaded.push(result);
        progress(`round ${round + 1} (t): run path ${Math.round(result.runPath.eventsPerSecond)} runs/s, thread stage ${Math.round(result.turnsPerSecond)} turns/s, ${result.threadsClosed} thread versions scored, the last ${result.closeSeconds.toFixed(1)} s after the last turn, peak RSS ${Math.round(result.peakRssMb)} MB (heap used ${Math.round(result.peakHeapMb)} MB, external ${Math.round(result.peakExternalMb)} MB; held turns at the end ${result.stateMb.toFixed(1)} MB)`);
      } else {
        const result = await runPathOnly(round);
        alone.push(result);
        progress(`round ${round + 1} (r): run path ${Math.round(result.runPath.eventsPerSecond)} runs/s`);
      }
    }
  }
  const r = median(alone.map((result) => result.runPath.eventsPerSecond));
  const t = median(threaded.map((result) => result.runPath.eventsPerSecond));
  const turns = median(threaded.map((result) => result.turnsPerSecond));
  console.log(`\n## Threads through the service (${runs} runs, ${threads.size} conversations, ${rounds} rounds, load average ${loadavg()[0]!.toFixed(1)})\n`);
  console.log('| scenario | runs/s (median) | vs (r) | every round |');
  console.log('|---|---:|---:|---|');
  console.log(`| (r) three code scorers | ${Math.round(r)} | 1.00× | ${alone.map((result) => Math.round(result.runPath.eventsPerSecond)).join(', ')} |`);
  console.log(`| (t) the same + two thread scorers: run path (re-keying included) | ${Math.round(t)} | ${(t / r).toFixed(2)}× | ${threaded.map((result) => Math.round(result.runPath.eventsPerSecond)).join(', ')} |`);
  console.log(`| (t) thread stage: turns applied to the state, same span | ${Math.round(turns)} | ${(turns / r).toFixed(2)}× | ${threaded.map((result) => Math.round(result.turnsPerSecond)).join(', ')} |`);
  console.log(`\nThread versions scored per round: ${threaded.map((result) => result.threadsClosed).join(', ')} for ${threads.size} conversations (a conversation whose next turn came after its idle gap is resumed and scored again as a new version); the last within ${threaded.map((result) => result.closeSeconds.toFixed(1)).join(', ')} s of the last turn (idle gap ${idleMs / 1000} s); peak RSS of (t) ${threaded.map((result) => Math.round(result.peakRssMb)).join(', ')} MB.`);
} finally {
  // A broker of our own goes away whole; on a KAFKA_BROKERS one, remove what we created.
  if (broker.mode === 'env') await deleteTopicsWithPrefix(kafka, prefix).catch((error: unknown) => progress(`could not delete the benchmark's topics (${prefix}-*): ${String(error)}`));
  await broker.stop();
}

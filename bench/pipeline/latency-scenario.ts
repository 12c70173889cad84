// The pipeline benchmark's latency scenarios (pipeline.bench.ts): the service in a child process
// (latency-service.ts) fed by a paced producer, its end-to-end latency and each record's stages
// measured after a warm-up —
//   (c) the three code scorers at half the median rate (c) reached;
//   (d) one judge scorer (the (d) judge: a mock answering after judgeDelayMs, C calls at once) at
//       half the rate (d) drained its backlog at.
// Each run reads a topic of its own, so that neither starts behind the other's events.
import type { BenchContext } from './bench-context.ts';
import { startChild } from './child-protocol.ts';
import type { ChildResult, ChildSpec } from './child-protocol.ts';
import { createPacedProducer } from './paced-producer.ts';
import { progress } from './progress-lines.ts';
import type { BenchReport } from './report.ts';
import { median } from './report.ts';
import type { ServiceThroughput } from './scorestream-run.ts';
import type { JudgeBacklogResult } from './child-protocol.ts';

type LatencyRun = BenchReport['latency'];

async function measureAt(context: BenchContext, spec: Extract<ChildSpec, { kind: 'latency' }>, eventsPerSecond: number, label: string): Promise<LatencyRun> {
  const { kafka, sizes, pool } = context;
  const child = startChild(spec, sizes);
  await Promise.race([child.ready, child.result]);
  const paced = await createPacedProducer(kafka, { topic: spec.runsTopic, pool, eventsPerSecond });
  await paced.produceFor(sizes.latencyWarmUpSeconds);
  child.send({ command: 'measure-from', epochMs: Date.now() });
  const produced = await paced.produceFor(sizes.latencySeconds);
  child.send({ command: 'finish', produced });
  await paced.close();
  const { latency } = (await child.result) as Extract<ChildResult, { kind: 'latency' }>;
  progress(`latency ${label} at ${eventsPerSecond} events/s: p50 ${latency.p50Ms.toFixed(0)} ms, p99 ${latency.p99Ms.toFixed(0)} ms`);
  return { eventsPerSecond, result: latency };
}

/** `code`: the rounds' (c) runs, whose median rate is halved. */
export function measureLatency(context: BenchContext, code: readonly ServiceThroughput[]): Promise<LatencyRun> {
  const rate = Math.round(median(code.map((run) => run.eventsPerSecond)) / 2);
  return measureAt(context, { ...context.base('latency'), runsTopic: context.topics.latency, kind: 'latency' }, rate, '(c)');
}

/** `judge`: (d)'s run as shipped, whose rate is halved. */
export function measureJudgedLatency(context: BenchContext, judge: JudgeBacklogResult): Promise<LatencyRun> {
  const { sizes } = context;
  const rate = Math.max(1, Math.round(judge.eventsPerSecond / 2));
  const spec = { ...context.base('latency-judged'), runsTopic: context.topics.latencyJudged, kind: 'latency' as const, judge: { delayMs: sizes.judgeDelayMs, callsPerModel: sizes.judgeCallsPerModel, runsInFlight: sizes.runsInFlight } };
  return measureAt(context, spec, rate, '(d)');
}

// The pipeline benchmark's latency scenario (pipeline.bench.ts): the service in a child process
// (latency-service.ts) fed at half the median rate (c) reached, by a paced producer, its
// end-to-end latency measured after a warm-up.
import type { BenchContext } from './bench-context.ts';
import { startChild } from './child-protocol.ts';
import type { ChildResult } from './child-protocol.ts';
import { createPacedProducer } from './paced-producer.ts';
import { progress } from './progress-lines.ts';
import type { BenchReport } from './report.ts';
import { median } from './report.ts';
import type { ServiceThroughput } from './scorestream-run.ts';

/** `code`: the rounds' (c) runs, whose median rate is halved. */
export async function measureLatency(context: BenchContext, code: readonly ServiceThroughput[]): Promise<BenchReport['latency']> {
  const { kafka, sizes, topics, pool, base } = context;
  const latencyRate = Math.round(median(code.map((run) => run.eventsPerSecond)) / 2);
  const latencyChild = startChild({ ...base('latency'), runsTopic: topics.latency, kind: 'latency' }, sizes);
  await Promise.race([latencyChild.ready, latencyChild.result]);
  const paced = await createPacedProducer(kafka, { topic: topics.latency, pool, eventsPerSecond: latencyRate });
  await paced.produceFor(sizes.latencyWarmUpSeconds);
  latencyChild.send({ command: 'measure-from', epochMs: Date.now() });
  const produced = await paced.produceFor(sizes.latencySeconds);
  latencyChild.send({ command: 'finish', produced });
  await paced.close();
  const latency = (await latencyChild.result) as Extract<ChildResult, { kind: 'latency' }>;
  progress(`latency at ${latencyRate} events/s: p50 ${latency.latency.p50Ms.toFixed(0)} ms, p99 ${latency.latency.p99Ms.toFixed(0)} ms`);
  return { eventsPerSecond: latencyRate, result: latency.latency };
}

// The pipeline benchmark's judge scenario (d) (pipeline.bench.ts): one 200 ms judge scorer with C
// concurrent calls draining a backlog, its RSS sampled; as the service ships, then with the
// what-if young generation (node-flags.ts).
import type { BenchContext } from './bench-context.ts';
import type { ChildSpec } from './child-protocol.ts';
import { nodeFlag, whatIfNodeFlags } from './node-flags.ts';
import { produceBacklog } from './produce-backlog.ts';
import { progress } from './progress-lines.ts';
import type { BenchReport } from './report.ts';

export async function runJudgeBacklog(context: BenchContext): Promise<Pick<BenchReport, 'judge' | 'judgeFlagged'>> {
  const { kafka, sizes, topics, pool, base, childResult } = context;
  const backlogProducing = performance.now();
  await produceBacklog(kafka, { topic: topics.backlog, count: sizes.backlogEvents, message: pool.message });
  progress(`backlog of ${sizes.backlogEvents} events produced in ${((performance.now() - backlogProducing) / 1000).toFixed(1)} s`);
  const judgeSpec = (name: string): Extract<ChildSpec, { kind: 'judge-backlog' }> => ({
    ...base(name),
    runsTopic: topics.backlog,
    kind: 'judge-backlog',
    judgeDelayMs: sizes.judgeDelayMs,
    judgeCallsPerModel: sizes.judgeCallsPerModel,
    runsInFlight: sizes.runsInFlight,
    warmUpSeconds: sizes.judgeWarmUpSeconds,
    seconds: sizes.judgeSeconds,
    rssIntervalMs: 250,
  });
  // As the service ships (scripts/node-flags), then with the what-if young generation: each from
  // a fresh group, so both face the whole backlog.
  const { result: judge } = await childResult(judgeSpec('d'));
  progress(`(d) judge: ${Math.round(judge.eventsPerSecond)} events/s, peak RSS ${judge.peakRssMb.toFixed(0)} MB`);
  const { result: judgeFlagged } = await childResult(judgeSpec('d-heap'), whatIfNodeFlags);
  progress(`(d) judge with ${nodeFlag}: ${Math.round(judgeFlagged.eventsPerSecond)} events/s, peak RSS ${judgeFlagged.peakRssMb.toFixed(0)} MB`);
  return { judge, judgeFlagged: { flag: nodeFlag, result: judgeFlagged } };
}

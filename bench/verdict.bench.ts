// What verdicts cost on the hot path (docs/alerts.md, verdicts): scenario (p) of bench:pipeline —
// the service's per-message work without Kafka, three code scorers, three records per event — with
// and without a `pass` criterion on every binding, in alternating rounds so machine noise hits
// both alike; and the verdict counter (scorestream.verdicts), which the service feeds per
// acknowledged record, on a real MeterProvider. Prints medians and the ratio.
// Usage: node bench/verdict.bench.ts [rounds]     (npm run bench:verdict)
import { loadavg } from 'node:os';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { registerVerdictMetric } from '../otel/verdict-metric.ts';
import { passCriterionSchema, verdictFor } from '../src/kit/verdict/pass-criterion.ts';
import { createEventPool } from './pipeline/bench-events.ts';
import { createCodeScorers } from './pipeline/bench-scorers.ts';
import { measurePipelineAlone } from './pipeline/pipeline-alone.ts';
import type { PipelineAloneResult } from './pipeline/pipeline-alone.ts';
import { median } from './pipeline/report.ts';

const rounds = Number(process.argv[2] ?? '5');
const pool = createEventPool(6_000);
const scorers = createCodeScorers();
const without: number[] = [];
const withPass: number[] = [];
console.log(`load average before: ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
for (let round = 0; round < rounds; round += 1) {
  // Alternating which goes first: the second of a pair runs on a warmer JIT and heap.
  const measure = (pass?: { atLeast: number }) => measurePipelineAlone({ pool, scorers, inFlight: 256, passes: 3, ...(pass === undefined ? {} : { pass }) });
  let plain: PipelineAloneResult;
  let judged: PipelineAloneResult;
  if (round % 2 === 0) {
    plain = await measure();
    judged = await measure({ atLeast: 0.5 });
  } else {
    judged = await measure({ atLeast: 0.5 });
    plain = await measure();
  }
  if (judged.records !== plain.records) throw new Error(`the two runs made different numbers of records: ${plain.records} and ${judged.records}`);
  without.push(plain.eventsPerSecond);
  withPass.push(judged.eventsPerSecond);
  console.log(`round ${round + 1}: without pass ${Math.round(plain.eventsPerSecond)} events/s, with pass ${Math.round(judged.eventsPerSecond)} events/s`);
}
const [a, b] = [median(without), median(withPass)];
console.log(`(p) pipeline without Kafka, median of ${rounds}: without pass ${Math.round(a)} events/s, with pass ${Math.round(b)} events/s, ratio ${(b / a).toFixed(3)}; per event ${((1 / b - 1 / a) * 1e6).toFixed(2)} µs more (3 records)`);

// verdictFor alone, as buildScoreRecord calls it for each scored record.
const criterion = passCriterionSchema.parse({ atLeast: 0.5 });
let passes = 0;
const started = performance.now();
for (let index = 0; index < 10_000_000; index += 1) if (verdictFor(criterion, (index % 100) / 100, undefined) === 'pass') passes += 1;
console.log(`verdictFor: ${(((performance.now() - started) * 1e6) / 10_000_000).toFixed(1)} ns per record (${passes} passes of 10,000,000)`);

// The counter, as the service feeds it per acknowledged record: 4 agents x 5 tenants x 2 verdicts.
const metric = registerVerdictMetric(new MeterProvider().getMeter('bench'), [{ scorerId: 'completeness' }]);
const records = Array.from({ length: 1_000 }, (_, index) => ({ scorerId: 'completeness', status: 'scored', verdict: index % 3 === 0 ? 'fail' : 'pass', entity: { id: `agent-${index % 4}` }, metadata: { tenantId: `tenant-${index % 5}` } }));
for (let warm = 0; warm < 200; warm += 1) for (const record of records) metric.record(record);
const samples: number[] = [];
for (let round = 0; round < 9; round += 1) {
  const started = performance.now();
  for (let repeat = 0; repeat < 200; repeat += 1) for (const record of records) metric.record(record);
  samples.push(((performance.now() - started) * 1000) / (200 * records.length));
}
console.log(`scorestream.verdicts counter: median ${median(samples).toFixed(3)} µs per record (real MeterProvider, 40 series)`);
console.log(`load average after: ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);

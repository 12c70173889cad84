// Turns the measurements into what the benchmark prints: the scenario table (medians over the
// interleaved rounds, every round shown), the latency and memory lines, and each target with
// its ratio and ✓/✗. Pure: data in, lines out.
import type { BenchSizes } from './bench-options.ts';
import type { JudgeBacklogResult, LatencyResult } from './child-protocol.ts';
import { breakdownLine, latencyTargetLines } from './latency-stages.ts';
import type { Throughput } from './measurement.ts';
import type { FloorsResult } from './floors.ts';
import type { OtlpAloneResult } from './otlp-alone.ts';
import type { PipelineAloneResult } from './pipeline-alone.ts';
import type { ServiceThroughput } from './scorestream-run.ts';
import type { TracingTotals } from './tracing.ts';

export type TracedRun = { throughput: ServiceThroughput; tracing: TracingTotals; /** OTLP bytes the sink received during the run. */ sinkBytes: number };

export type BenchReport = {
  machine: string[];
  load: { before: number[]; after: number[] };
  sizes: BenchSizes;
  passthrough: Throughput[];
  /** (a3): the passthrough producing three score-record-sized records per event. */
  passthroughFanOut: Throughput[];
  /** (a-p): the same passthrough on @platformatic/kafka (bench/pipeline/platformatic-passthrough.ts). */
  platformaticPassthrough: Throughput[];
  /** (c-k): (c) with `kafka.client: 'kafkajs'`, the other client ((c) runs on the shipped default, @platformatic/kafka). */
  codeKafkajs: ServiceThroughput[];
  /** (m): the work (c) is required to do and nothing else, by hand on the shipped client (required-work.ts), run beside (a) in each round. */
  requiredWork: Throughput[];
  naive: Throughput;
  code: ServiceThroughput[];
  /** (c0): the service with three scorers that do no work. */
  codeNoOp: ServiceThroughput[];
  /** (c) again with a Node option given to the child. */
  codeFlagged: { flag: string; runs: ServiceThroughput[] };
  /** (p): the per-message work of (c) without Kafka, in a child process of its own. */
  pipelineAlone: PipelineAloneResult[];
  /** (o): the OTLP input without Kafka, in assembled runs per second. */
  otlpAlone: OtlpAloneResult[];
  traced: TracedRun[];
  /** (f): decode, scorers, records JSON and OTLP serialisation, each measured alone. */
  floors: FloorsResult[];
  /** (c+tracing) with a span for every function step too (SCORESTREAM_TRACE_FUNCTION_STEPS=true). */
  tracedWithFunctionSteps: TracedRun[];
  /** (c+tracing) with its spans recorded as shipped and none exported (no span processor but one that counts), beside (c) in each round. */
  tracedRecordedOnly: TracedRun[];
  /** (c+tracing) with V8's own heap growth instead of the service's (service/heap-growth.ts). */
  tracedOwnHeapGrowth: { flag: string; runs: TracedRun[] };
  latency: { eventsPerSecond: number; result: LatencyResult };
  /** The latency run with one judge scorer, at half of (d). */
  judgedLatency: { eventsPerSecond: number; result: LatencyResult };
  judge: JudgeBacklogResult;
  /** The same run with a Node option given to the child. */
  judgeFlagged: { flag: string; result: JudgeBacklogResult };
  seconds: number;
};

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const ratio = (value: number) => `${value.toFixed(2)}×`;
const cores = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(2));
const micros = (seconds: number) => `${Math.round(seconds * 1e6)} µs`;
const mark = (ok: boolean) => (ok ? '✓' : '✗');
const signedPercent = (fraction: number) => `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%`;

type Row = { label: string; rates: number[]; cores: Throughput['cores'][]; peakRssMb?: number[] };

function serviceRow(runs: readonly ServiceThroughput[]): Omit<Row, 'label'> {
  return { rates: runs.map((run) => run.eventsPerSecond), cores: runs.map((run) => run.cores), peakRssMb: runs.map((run) => run.peakRssMb) };
}

function backlogLine(label: string, run: JudgeBacklogResult, sizes: BenchSizes): string {
  const peak = run.atPeakMb;
  return (
    `(d-backlog) ${label}: ${integer(sizes.backlogEvents)}-event backlog, RSS sampled every 250 ms for ${(sizes.judgeWarmUpSeconds + sizes.judgeSeconds).toFixed(0)} s: ` +
    `peak RSS ${run.peakRssMb.toFixed(0)} MB (${run.rssBeforeServiceMb.toFixed(0)} MB before the service started; at the peak V8 heap ${peak.heapUsed.toFixed(0)} MB used of ${peak.heapTotal.toFixed(0)} MB, Buffers ${peak.arrayBuffers.toFixed(0)} MB); ` +
    `drained ${integer(run.completedTotal)} events at ${integer(run.eventsPerSecond)} events/s, lag at end ${integer(run.lagAtEnd)}; ${integer(run.judgeCalls)} judge calls, at most ${run.maxActiveJudgeCalls} at once`
  );
}

/**
 * Half a second of the offered rate: fewer events than that waiting is a service keeping up
 * (a fetch and a produce request in flight hold about that many).
 */
const keptUpBehind = (eventsPerSecond: number) => eventsPerSecond / 2;

/** Whether the latency child kept up, drained a backlog the warm-up left, or fell behind the rate. */
export function latencyVerdict({ eventsPerSecond, result }: BenchReport['latency']): string {
  const slack = keptUpBehind(eventsPerSecond);
  if (result.behindAtEnd > slack && result.behindAtEnd > result.behindAtStart) return 'fell behind: more events waiting at the end of the window than at its start';
  if (result.behindAtStart > slack) return 'caught up on a backlog left from the warm-up';
  return 'kept up';
}

function latencyLine(label: string, latency: BenchReport['latency'], sizes: BenchSizes): string {
  const { result } = latency;
  const cores = `its main thread ${result.cores.mainThread.toFixed(2)} of a core${result.cores.broker === undefined ? '' : `, the broker ${result.cores.broker.toFixed(2)}`}`;
  return (
    `latency ${label} at ${integer(latency.eventsPerSecond)} events/s (half of ${label}), ${integer(result.samples)} records over ${sizes.latencySeconds} s: p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms, max ${result.maxMs.toFixed(0)} ms (event timestamp → record acknowledged by Kafka); ` +
    `${latencyVerdict(latency)} — ${integer(result.behindAtStart)} events waiting or in flight when the window opened, ${integer(result.behindAtEnd)} when its last event was produced, at most ${integer(result.maxBehind)}; ${cores}`
  );
}

export function formatReport(report: BenchReport): string[] {
  const { sizes } = report;
  const rows: Row[] = [
    { label: '(a) kafkajs passthrough: eachBatch → send → commit', rates: report.passthrough.map((run) => run.eventsPerSecond), cores: report.passthrough.map((run) => run.cores) },
    { label: '(a3) kafkajs passthrough, 3 records of a score record’s size per event (the service’s output volume)', rates: report.passthroughFanOut.map((run) => run.eventsPerSecond), cores: report.passthroughFanOut.map((run) => run.cores) },
    { label: '(b) naive: eachMessage, 3 scorers in turn, 3 awaited sends', rates: [report.naive.eventsPerSecond], cores: [report.naive.cores] },
    { label: '(c) Scorestream, 3 code scorers', ...serviceRow(report.code) },
    { label: '(c0) Scorestream, 3 scorers that do no work (the pipeline’s own cost)', ...serviceRow(report.codeNoOp) },
    { label: '(a-p) platformatic passthrough: stream → send → commit', rates: report.platformaticPassthrough.map((run) => run.eventsPerSecond), cores: report.platformaticPassthrough.map((run) => run.cores) },
    { label: "(c-k) Scorestream with kafka.client: 'kafkajs'", ...serviceRow(report.codeKafkajs) },
    { label: '(m) the required work alone, by hand on the shipped client: validate, 3 scorers, their 3 records, send, commit', rates: report.requiredWork.map((run) => run.eventsPerSecond), cores: report.requiredWork.map((run) => run.cores) },
    { label: '(p) the per-message work of (c) without Kafka: decode, score, serialise; instant publisher', rates: report.pipelineAlone.map((run) => run.eventsPerSecond), cores: report.pipelineAlone.map((run) => run.cores) },
    { label: '(o) (p) for the OTLP input: spans decoded and assembled (10% agent traces), runs scored; runs/s', rates: report.otlpAlone.map((run) => run.runsPerSecond), cores: report.otlpAlone.map((run) => run.cores) },
    { label: '(c+tracing) same as (c), tracing as shipped (startTelemetry) + OTLP/HTTP protobuf export', ...serviceRow(report.traced.map((run) => run.throughput)) },
    { label: '(c+tracing) spans recorded, none exported: no span processor but one that counts (what-if)', ...serviceRow(report.tracedRecordedOnly.map((run) => run.throughput)) },
    { label: '(c+tracing) with function step spans (what-if)', ...serviceRow(report.tracedWithFunctionSteps.map((run) => run.throughput)) },
    { label: `(c) with ${report.codeFlagged.flag} (what-if)`, ...serviceRow(report.codeFlagged.runs) },
    { label: `(c+tracing) with ${report.tracedOwnHeapGrowth.flag}: V8's own heap growth (what-if)`, ...serviceRow(report.tracedOwnHeapGrowth.runs.map((run) => run.throughput)) },
  ];
  const flagged = median(report.codeFlagged.runs.map((run) => run.eventsPerSecond));
  const rate = (runs: ReadonlyArray<{ eventsPerSecond: number }>) => median(runs.map((run) => run.eventsPerSecond));
  const a = rate(report.passthrough);
  const b = report.naive.eventsPerSecond;
  const c = rate(report.code);
  const traced = rate(report.traced.map((run) => run.throughput));
  const judgeCeiling = sizes.judgeCallsPerModel / (sizes.judgeDelayMs / 1000);
  // The targets read each round's own ratio — (a), (c) and (c+tracing) run back to back in a round
  // (pipeline.bench.ts) — and take the median of those; the ratio of the rows' medians, which can
  // pair a fast phase of the machine with a slow one, is shown beside it.
  const roundsOf = <T>(values: readonly T[]) => values.slice(0, Math.min(report.code.length, values.length));
  const codeOverA = median(roundsOf(report.passthrough).map((run, round) => report.code[round]!.eventsPerSecond / run.eventsPerSecond));
  const tracingCost = median(roundsOf(report.traced).map((run, round) => 1 - run.throughput.eventsPerSecond / report.code[round]!.eventsPerSecond));
  const apartText = (value: string) => `; from the rows' medians: ${value}`;
  // Recording alone, each round's against its (c): what the contract's spans cost before any export.
  const recordingCosts = roundsOf(report.tracedRecordedOnly).map((run, round) => 1 - run.throughput.eventsPerSecond / report.code[round]!.eventsPerSecond);
  const recordingText =
    recordingCosts.length === 0
      ? ''
      : `; recording the spans alone, none exported: ${(median(recordingCosts) * 100).toFixed(1)}% (each round's: ${recordingCosts.map((cost) => `${(cost * 100).toFixed(1)}%`).join(' / ')}), so exporting them — queue, serialise, send to a receiver on the same cores — adds ${((tracingCost - median(recordingCosts)) * 100).toFixed(1)} points`;
  // (m) runs beside (a) in each round: its ratio to (a) is the most (c)/(a) can be with the service's promises kept for free.
  const requiredOverA = median(roundsOf(report.requiredWork).map((run, round) => run.eventsPerSecond / report.passthrough[round]!.eventsPerSecond));
  const codeOverRequired = median(roundsOf(report.requiredWork).map((run, round) => report.code[round]!.eventsPerSecond / run.eventsPerSecond));
  const requiredText =
    report.requiredWork.length === 0
      ? ''
      : `; the required work alone, by hand on the same client ((m)): ${requiredOverA.toFixed(3)}× of (a)${requiredOverA < 0.6 ? ', itself below 0.6: here the target is beyond the floor' : ''}, and (c) = ${ratio(codeOverRequired)} of (m) (each round's)`;
  const fanOut = rate(report.passthroughFanOut);
  const noOp = rate(report.codeNoOp);
  const otlp = median(report.otlpAlone.map((run) => run.runsPerSecond));
  // Each round's (o) over the (p) passes alternated with it in the same child (otlp-alone.ts): the machine's drift cancels.
  const otlpPaired = median(report.otlpAlone.map((run) => run.pairedRatio));
  const otlpPairedRunEvents = median(report.otlpAlone.map((run) => run.paired.runsPerSecond));
  const perMessage = median(report.pipelineAlone.map((run) => run.eventsPerSecond));
  const codePeakRss = Math.max(...report.code.map((run) => run.peakRssMb));
  const tracedPeakRss = Math.max(...report.traced.map((run) => run.throughput.peakRssMb));
  const ownGrowthPeakRss = Math.max(...report.tracedOwnHeapGrowth.runs.map((run) => run.throughput.peakRssMb));
  const ownGrowth = median(report.tracedOwnHeapGrowth.runs.map((run) => run.throughput.eventsPerSecond));
  const withFunctionSteps = median(report.tracedWithFunctionSteps.map((run) => run.throughput.eventsPerSecond));
  const spansPerEvent = median(report.traced.map((run) => run.tracing.ended / Math.max(1, run.throughput.completedTotal)));
  const spansPerEventWithFunctionSteps = median(report.tracedWithFunctionSteps.map((run) => run.tracing.ended / Math.max(1, run.throughput.completedTotal)));
  const exportedShare = median(report.traced.map((run) => run.tracing.exported / Math.max(1, run.tracing.ended)));
  const exportedBytes = report.traced.reduce((sum, run) => sum + run.sinkBytes, 0);
  const exportedSpans = report.traced.reduce((sum, run) => sum + run.tracing.exported, 0);
  // One JavaScript thread doing (p)'s work and the client's work of (a3) in turn: their main-thread
  // CPU seconds per event add up (V8's GC helpers run beside it and are left out).
  const mainThreadSecondsPerEvent = (run: { eventsPerSecond: number; cores: Throughput['cores'] }) => (run.cores.mainThread ?? run.cores.node) / run.eventsPerSecond;
  const scoringSecondsPerEvent = median(report.pipelineAlone.map(mainThreadSecondsPerEvent));
  const clientSecondsPerEvent = median(report.passthroughFanOut.map(mainThreadSecondsPerEvent));
  const oneThreadCeiling = 1 / (scoringSecondsPerEvent + clientSecondsPerEvent);
  // The same bound on the client (c) runs on: (a-p) sends one record per event where (c) sends
  // three, so this ceiling is an upper one; what separates (c) from it is the service's own work.
  const shippedClientSecondsPerEvent = median(report.platformaticPassthrough.map(mainThreadSecondsPerEvent));
  const shippedClientCeiling = 1 / (scoringSecondsPerEvent + shippedClientSecondsPerEvent);
  const ceilingText = `one JavaScript thread doing (p)'s work (${micros(scoringSecondsPerEvent)} of its CPU per event, shipped flags) and (a3)'s client work (${micros(clientSecondsPerEvent)} per event) in turn: ≈ ${integer(oneThreadCeiling)} events/s`;
  // Tracing's floor lines price the paired cost: (c+tracing) as (c)'s median less each round's median cost.
  const floorLines = formatFloors(report.floors, { a, b, c, traced: c * (1 - tracingCost), clientSecondsPerEvent, scoringSecondsPerEvent });
  const roundsText = sizes.rounds === 1 ? '1 round' : `median of ${sizes.rounds} interleaved rounds`;

  const lines: string[] = [
    ...report.machine,
    `load:    1-min load average ${report.load.before[0]!.toFixed(2)} before, ${report.load.after[0]!.toFixed(2)} after (other work on this machine shows up as noise)`,
    `events:  ${integer(sizes.poolEvents)} sample agent runs (seeded), ${sizes.partitions} partitions; every scenario reads the same topic from a fresh group, rate measured after ${integer(sizes.warmUpEvents)} warm-up events up to ${integer(sizes.targetEvents)} ((b): up to ${sizes.naiveMaxSeconds} s)`,
    '',
    `| scenario | events/s (${roundsText}) | each round | vs (a) | vs (b) | client cores | of which main thread | broker cores | peak RSS |`,
    '|---|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => {
      const rowRate = median(row.rates);
      const brokerCores = row.cores[0]?.broker === undefined ? undefined : median(row.cores.map((entry) => entry.broker!));
      const mainThread = row.cores.some((entry) => entry.mainThread === undefined) ? undefined : median(row.cores.map((entry) => entry.mainThread!));
      const rss = row.peakRssMb === undefined ? '—' : `${Math.max(...row.peakRssMb).toFixed(0)} MB`;
      return `| ${row.label} | ${integer(rowRate)} | ${row.rates.map(integer).join(' / ')} | ${ratio(rowRate / a)} | ${ratio(rowRate / b)} | ${cores(median(row.cores.map((entry) => entry.node)))} | ${cores(mainThread)} | ${cores(brokerCores)} | ${rss} |`;
    }),
    `| (d) Scorestream, 1 judge scorer (mock, ${sizes.judgeDelayMs} ms), C = ${sizes.judgeCallsPerModel}, ${sizes.runsInFlight} runs in flight, ${integer(sizes.backlogEvents)}-event backlog | ${integer(report.judge.eventsPerSecond)} | over ${report.judge.seconds.toFixed(0)} s | — | — | — | — | — | ${report.judge.peakRssMb.toFixed(0)} MB |`,
    `| (d) with ${report.judgeFlagged.flag} (what-if) | ${integer(report.judgeFlagged.result.eventsPerSecond)} | over ${report.judgeFlagged.result.seconds.toFixed(0)} s | — | — | — | — | — | ${report.judgeFlagged.result.peakRssMb.toFixed(0)} MB |`,
    '',
    latencyLine('(c)', report.latency, sizes),
    breakdownLine('(c)', report.latency.result.stages),
    latencyLine('(d)', report.judgedLatency, sizes),
    breakdownLine('(d)', report.judgedLatency.result.stages),
    `tracing: ${spansPerEvent.toFixed(1)} spans per event, ${(exportedShare * 100).toFixed(1)}% exported (${integer(exportedSpans)} spans, ${(exportedBytes / 2 ** 20).toFixed(0)} MiB of OTLP protobuf to a sink in the parent process); with function step spans ${spansPerEventWithFunctionSteps.toFixed(1)} spans per event, costing ${(100 * (1 - withFunctionSteps / c)).toFixed(1)}% of (c)`,
    ...[
      ['as shipped (scripts/node-flags)', report.judge],
      [`with ${report.judgeFlagged.flag}`, report.judgeFlagged.result],
    ].map(([label, run]) => backlogLine(label as string, run as JudgeBacklogResult, sizes)),
    '',
    'targets:',
    `  ${mark(codeOverA >= 0.7)} (c) ≥ 0.7 × (a): ${ratio(codeOverA)} (each round's${apartText(ratio(c / a))})  (publishing the service's three records per event, the client alone reaches (a3) = ${ratio(fanOut / a)} of (a); the pipeline with no-op scorers (c0) = ${ratio(noOp / a)}; ${ceilingText} = ${ratio(oneThreadCeiling / a)} of (a))`,
    `  ${mark(c >= 10 * b)} (c) ≥ 10 × (b): ${ratio(c / b)}  (ceiling here: (a)/(b) = ${ratio(a / b)}; one thread, as above: ${ratio(oneThreadCeiling / b)})`,
    `  ${mark(tracingCost <= 0.15)} tracing costs ≤ 15% of (c): ${(tracingCost * 100).toFixed(1)}% (each round's: ${roundsOf(report.traced).map((run, round) => `${((1 - run.throughput.eventsPerSecond / report.code[round]!.eventsPerSecond) * 100).toFixed(1)}%`).join(' / ')}${apartText(`${((1 - traced / c) * 100).toFixed(1)}%`)}${recordingText})`,
    `  ${mark(report.judge.eventsPerSecond >= 0.8 * judgeCeiling)} (d) ≥ 0.8 × C / ${sizes.judgeDelayMs / 1000} s = ${integer(0.8 * judgeCeiling)} events/s: ${integer(report.judge.eventsPerSecond)} (${ratio(report.judge.eventsPerSecond / judgeCeiling)} of C / ${sizes.judgeDelayMs / 1000} s)`,
    `  ${mark(report.judge.peakRssMb <= 300)} (d-backlog) peak RSS ≤ 300 MB (${mark(report.judge.peakRssMb <= 400)} ≤ 400 MB, the service's bound): ${report.judge.peakRssMb.toFixed(0)} MB as shipped (scripts/node-flags); ${report.judgeFlagged.result.peakRssMb.toFixed(0)} MB with ${report.judgeFlagged.flag} (which changes (c) by ${signedPercent(flagged / c - 1)})`,
    `  ${mark(codeOverA >= 0.6)} (c) ≥ 0.6 × (a) (issue 28): ${ratio(codeOverA)} (each round's${apartText(ratio(c / a))})  (on the shipped client: (p)'s work and (a-p)'s client work (${micros(shippedClientSecondsPerEvent)} per event, one record out) in turn: ≈ ${integer(shippedClientCeiling)} events/s = ${ratio(shippedClientCeiling / a)} of (a)${requiredText})`,
    `  ${mark(otlpPaired >= 0.7)} (o) ≥ 0.7 × (p), the OTLP input against run events without Kafka, passes alternated in one child: ${ratio(otlpPaired)} (each round's; ${integer(otlp)} against ${integer(otlpPairedRunEvents)} runs/s; against the (p) row, measured apart: ${ratio(otlp / perMessage)})`,
    `  ${mark(codePeakRss <= 400 && tracedPeakRss <= 400)} peak RSS ≤ 400 MB scoring at full rate, the highest round: (c) ${codePeakRss.toFixed(0)} MB, (c+tracing) ${tracedPeakRss.toFixed(0)} MB (with ${report.tracedOwnHeapGrowth.flag}, V8's own heap growth: ${ownGrowthPeakRss.toFixed(0)} MB, at ${signedPercent(ownGrowth / traced - 1)} events/s)`,
    `  clients: (c) runs on @platformatic/kafka, the shipped default; (a-p)/(a) = ${ratio(rate(report.platformaticPassthrough) / a)}, (c-k) on kafkajs /(a) = ${ratio(rate(report.codeKafkajs) / a)}, (c)/(c-k) = ${ratio(c / rate(report.codeKafkajs))}`,
    ...latencyTargetLines(report.latency, report.judgedLatency, mark),
    ...floorLines,
    '',
    `benchmark took ${report.seconds.toFixed(0)} s${sizes.quick ? ' (--quick: small sizes, not for docs/benchmarks.md)' : ''}`,
  ];
  return lines;
}

/**
 * What the targets leave once the work this design requires is paid — validating the message
 * against the contract, running the scorers through the Mastra-style pipeline, writing their records, the
 * kafkajs client's work ((a3)) — and, for tracing, once every span the issue asks for is
 * serialised by the SDK's exporter.
 */
function formatFloors(
  floors: readonly FloorsResult[],
  measured: { a: number; b: number; c: number; traced: number; clientSecondsPerEvent: number; scoringSecondsPerEvent: number },
): string[] {
  if (floors.length === 0) return [];
  const { a, b, c, traced, clientSecondsPerEvent, scoringSecondsPerEvent } = measured;
  const of = (pick: (floor: FloorsResult) => number) => median(floors.map(pick));
  const decode = of((floor) => floor.decodeSeconds);
  const scorers = of((floor) => floor.scorersSeconds);
  const records = of((floor) => floor.recordsSeconds);
  const perSpan = of((floor) => floor.spans.serializeSecondsPerSpan);
  const spansPerEvent = of((floor) => floor.spans.perEvent);
  const sdkPerEvent = of((floor) => floor.spans.sdkSecondsPerEvent);
  const work = decode + scorers + records;
  const oneThread = work + clientSecondsPerEvent;
  // At 0.7 × (a) one thread has 1 / (0.7 a) seconds per event; the floor takes `oneThread` of them.
  const leftAtTarget = 1 / (0.7 * a) - oneThread;
  const serialisePerEvent = perSpan * spansPerEvent;
  const tracingBudget = (1 / 0.85 - 1) / c;
  const tracingSpends = 1 / traced - 1 / c;
  const besidesSerialising = tracingSpends - serialisePerEvent;
  return [
    '',
    'floors ((f): each measured alone in a child process, main-thread CPU per event; the work this design requires — kafkajs, validating the contract, these scorers):',
    `  one thread: decode ${micros(decode)} + the three scorers' run() ${micros(scorers)} + their ${of((floor) => floor.recordsPerEvent).toFixed(0)} records' JSON ${micros(records)} + (a3)'s client work ${micros(clientSecondsPerEvent)} = ${micros(oneThread)} ⇒ at most ${integer(1 / oneThread)} events/s = ${ratio(1 / oneThread / a)} of (a), ${ratio(1 / oneThread / b)} of (b), with nothing else done; at 0.7 × (a) that leaves ${micros(leftAtTarget)} per event for the service's own work (eligibility, building records and ids, in-flight bookkeeping, collecting the garbage of the runs in flight), which (p) puts at ${micros(scoringSecondsPerEvent - work)} (${micros(scoringSecondsPerEvent)} in all, less these ${micros(work)})`,
    `  tracing: OTLP protobuf serialisation alone takes ${(perSpan * 1e6).toFixed(1)} µs of CPU per span × ${spansPerEvent.toFixed(1)} spans per event = ${micros(serialisePerEvent)} per event; in wall time per event, ≤ 15% of (c) leaves (1/0.85 − 1) × (c)'s ${micros(1 / c)} = ${micros(tracingBudget)} for all of tracing; (c+tracing) takes ${micros(tracingSpends)} more per event than (c), and what is not serialisation (creating, recording and ending the spans, carrying the context, batching and sending them, collecting their garbage: ${micros(besidesSerialising)}) is ${ratio(besidesSerialising / tracingBudget)} the budget on its own`,
    `  tracing: the SDK alone — creating, recording, ending, batching and serialising the same ${spansPerEvent.toFixed(1)} spans per event, replayed without Scorestream's code — takes ${micros(sdkPerEvent)} of main-thread CPU per event = ${ratio(sdkPerEvent / tracingBudget)} the ${micros(tracingBudget)} budget; (c+tracing) spends ${micros(tracingSpends)} more per event than (c), ${ratio(tracingSpends / Math.max(sdkPerEvent, 1e-9))} the SDK's own work`,
  ];
}

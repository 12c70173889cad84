import { describe, expect, it } from 'vitest';
import { createStageCollector } from '../../../../bench/pipeline/latency-stages.ts';
import type { LatencyBreakdown } from '../../../../bench/pipeline/latency-stages.ts';
import type { RecordLatency } from '../../../../src/kit/contracts/record-latency.ts';
import { parseBenchOptions } from '../../../../bench/pipeline/bench-options.ts';
import type { JudgeBacklogResult } from '../../../../bench/pipeline/child-protocol.ts';
import { formatReport, latencyVerdict, median } from '../../../../bench/pipeline/report.ts';
import type { BenchReport } from '../../../../bench/pipeline/report.ts';
import type { FloorsResult } from '../../../../bench/pipeline/floors.ts';
import type { ServiceThroughput } from '../../../../bench/pipeline/scorestream-run.ts';

const cores = { node: 1, broker: 0.1 };
const service = (eventsPerSecond: number, peakRssMb = 200): ServiceThroughput => ({ events: 1000, seconds: 1000 / eventsPerSecond, eventsPerSecond, cores, failedRecords: 0, deadLettered: 0, peakRssMb, completedTotal: 1100 });
const traced = (eventsPerSecond: number) => ({ throughput: service(eventsPerSecond), tracing: { ended: 14_000, exported: 14_000 }, sinkBytes: 2 ** 20 });
const judge = (eventsPerSecond: number, peakRssMb: number): JudgeBacklogResult => ({
  events: 1000,
  seconds: 10,
  eventsPerSecond,
  completedTotal: 1200,
  lagAtEnd: 100,
  judgeCalls: 1200,
  maxActiveJudgeCalls: 64,
  peakRssMb,
  rssBeforeServiceMb: 120,
  rssAtEndMb: peakRssMb,
  atPeakMb: { heapUsed: 50, heapTotal: 100, external: 10, arrayBuffers: 5 },
  rssSamples: 40,
  failedRecords: 0,
});

const floors: FloorsResult = {
  events: 8000,
  decodeSeconds: 20e-6,
  scorersSeconds: 20e-6,
  recordsSeconds: 5e-6,
  recordsPerEvent: 3,
  spans: { events: 100, count: 1300, perEvent: 13, serializeSecondsPerSpan: 2e-6, sdkSecondsPerEvent: 40e-6, bytesPerSpan: 250, batchSize: 2048 },
};

function report(overrides: Partial<BenchReport> = {}): BenchReport {
  return {
    machine: ['machine: test'],
    load: { before: [0.5, 0.5, 0.5], after: [0.6, 0.6, 0.6] },
    sizes: parseBenchOptions(['--quick']),
    passthrough: [{ events: 1000, seconds: 0.1, eventsPerSecond: 10_000, cores }],
    passthroughFanOut: [{ events: 1000, seconds: 0.12, eventsPerSecond: 8_500, cores }],
    platformaticPassthrough: [{ events: 1000, seconds: 0.08, eventsPerSecond: 12_000, cores }],
    codeKafkajs: [service(6_000)],
    requiredWork: [{ events: 1000, seconds: 0.1, eventsPerSecond: 9_000, cores }],
    naive: { events: 100, seconds: 0.2, eventsPerSecond: 500, cores },
    code: [service(8_000)],
    codeNoOp: [service(8_200)],
    codeFlagged: { flag: '--flag', runs: [service(7_900)] },
    pipelineAlone: [{ events: 4000, seconds: 0.2, eventsPerSecond: 20_000, records: 12_000, failedRecords: 0, cores: { node: 1.3, mainThread: 1, broker: undefined } }],
    otlpAlone: [{ runs: 400, traces: 4000, spans: 8400, seconds: 0.1, runsPerSecond: 15_000, records: 1200, peakBufferedSpans: 4200, cores: { node: 1.2, mainThread: 1, broker: undefined }, paired: { runsPerSecond: 19_000, seconds: 0.1 }, pairedRatio: 15_000 / 19_000 }],
    floors: [floors],
    traced: [traced(7_000)],
    tracedWithFunctionSteps: [traced(7_500)],
    tracedRecordedOnly: [traced(7_600)],
    tracedOwnHeapGrowth: { flag: '--heap-growing-percent=0', runs: [traced(7_700)] },
    latency: { eventsPerSecond: 4_000, result: { samples: 100, p50Ms: 10, p99Ms: 50, maxMs: 60, maxBehind: 20, behindAtStart: 12, behindAtEnd: 8, cores: { mainThread: 0.41, broker: 0.12 }, stages: codeStages } },
    judgedLatency: { eventsPerSecond: 150, result: { samples: 1_500, p50Ms: 230, p99Ms: 400, maxMs: 450, maxBehind: 40, behindAtStart: 12, behindAtEnd: 8, cores: { mainThread: 0.2, broker: 0.05 }, stages: judgedStages } },
    judge: judge(300, 250),
    judgeFlagged: { flag: '--flag', result: judge(300, 200) },
    seconds: 60,
    ...overrides,
  };
}

/** Stages of a latency window, from per-record figures: (latency, produce, end-to-end). */
function stagesOf(records: Array<[RecordLatency, number, number]>): LatencyBreakdown {
  const collector = createStageCollector();
  for (const [latency, produceMs, endToEndMs] of records) collector.add(latency, produceMs, endToEndMs);
  return collector.result();
}
const codeStages = stagesOf([
  [{ kafkaMs: 6, runSlotMs: 1, scoringMs: 1 }, 2, 10],
  [{ kafkaMs: 30, runSlotMs: 5, scoringMs: 2 }, 13, 50],
]);
const judgedStages = stagesOf([
  [{ kafkaMs: 10, runSlotMs: 1, scoringMs: 1, judgeMs: 210 }, 8, 230],
  [{ kafkaMs: 40, runSlotMs: 30, scoringMs: 2, judgeMs: 300 }, 28, 400],
]);

const targets = (lines: string[]) => lines.filter((line) => line.startsWith('  ✓') || line.startsWith('  ✗'));

describe('median', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('latencyVerdict', () => {
  const latency = (behindAtStart: number, behindAtEnd: number): BenchReport['latency'] => ({
    eventsPerSecond: 2_000,
    result: { samples: 20_000, p50Ms: 20, p99Ms: 80, maxMs: 120, maxBehind: Math.max(behindAtStart, behindAtEnd), behindAtStart, behindAtEnd, cores: { mainThread: 0.5, broker: undefined }, stages: codeStages },
  });

  it('says the service kept up when under half a second of events waited at both ends', () => {
    expect(latencyVerdict(latency(300, 999))).toBe('kept up');
  });

  it('says it caught up when the warm-up left a backlog that shrank', () => {
    expect(latencyVerdict(latency(5_000, 400))).toBe('caught up on a backlog left from the warm-up');
    expect(latencyVerdict(latency(5_000, 3_000))).toBe('caught up on a backlog left from the warm-up');
  });

  it('says it fell behind when more waited at the end than at the start', () => {
    expect(latencyVerdict(latency(200, 4_000))).toMatch(/^fell behind/);
    expect(latencyVerdict(latency(3_000, 6_000))).toMatch(/^fell behind/);
  });
});

describe('formatReport', () => {
  it('marks every target met when the numbers meet them', () => {
    const lines = targets(formatReport(report()));
    expect(lines).toHaveLength(11);
    for (const line of lines) expect(line.startsWith('  ✓')).toBe(true);
    expect(lines[0]).toContain('0.80×');
    expect(lines[1]).toContain('16.00×');
    expect(lines[2]).toContain('12.5%');
  });

  it('checks the published latency targets and shows where the time went, stage by stage', () => {
    const lines = formatReport(report());
    expect(lines.find((line) => line.startsWith('  stages (c)'))).toContain('kafka 6/30 ms (60.0%), runSlot 1/5 ms (10.0%), scoring 1/2 ms (5.0%), produce 2/13 ms (25.0%); their sum 100.0% of the end-to-end time');
    expect(lines.find((line) => line.startsWith('  stages (d)'))).toContain('judge 210/300 ms (81.0%)');
    const latencyTargets = targets(lines).slice(8);
    expect(latencyTargets[0]).toBe('  ✓ code scorers: event → record p99 ≤ 2000 ms at half of (c) (4000 events/s): 50 ms');
    expect(latencyTargets[1]).toBe('  ✓ a judge scorer: event → record p99 ≤ its judge stage\'s p99 + 5 s at half of (d) (150 events/s): 400 ms ≤ 300 + 5000 ms');
    expect(latencyTargets[2]).toBe('  ✓ the records\' latency stages sum to their end-to-end time within 5%: 100.0% (c), 100.0% (d)');
  });

  it('marks the latency targets missed: a slow p99, stages that leave time untimed', () => {
    const untimed = stagesOf([[{ kafkaMs: 5, scoringMs: 1 }, 1, 10]]);
    const slow = report({ latency: { ...report().latency, result: { ...report().latency.result, p99Ms: 2_500, stages: untimed } } });
    const latencyTargets = targets(formatReport(slow)).slice(8);
    expect(latencyTargets[0]).toMatch(/^ {2}✗ code scorers.*: 2500 ms$/);
    expect(latencyTargets[2]).toMatch(/^ {2}✗ .*: 70\.0% \(c\), 100\.0% \(d\)$/);
    expect(formatReport(slow).find((line) => line.startsWith('  stages (c)'))).toContain('untimed per record: p50 3 ms, p99 3 ms');
  });

  it('says on the latency line whether the service kept up, with the backlog at both ends of the window', () => {
    const line = formatReport(report()).find((entry) => entry.startsWith('latency (c)'));
    expect(line).toContain('p50 10 ms, p99 50 ms, max 60 ms');
    expect(line).toContain('kept up — 12 events waiting or in flight when the window opened, 8 when its last event was produced, at most 20; its main thread 0.41 of a core, the broker 0.12');
  });

  it('reads (c)/(a) and tracing’s cost round by round, where the rows’ medians would pair a fast round with a slow one', () => {
    const passthrough = (eventsPerSecond: number) => ({ events: 1000, seconds: 1000 / eventsPerSecond, eventsPerSecond, cores });
    const lines = targets(
      formatReport(
        report({
          passthrough: [passthrough(10_000), passthrough(6_000), passthrough(5_000)],
          code: [service(4_000), service(4_800), service(4_000)],
          traced: [traced(3_600), traced(4_320), traced(3_000)],
          codeNoOp: [service(8_200), service(8_200), service(8_200)],
        }),
      ),
    );
    // Rounds: (c)/(a) 0.40, 0.80, 0.80; tracing 10%, 10%, 25%.
    expect(lines[0]).toContain("✓ (c) ≥ 0.7 × (a): 0.80× (each round's; from the rows' medians: 0.67×)");
    expect(lines[2]).toContain("✓ tracing costs ≤ 15% of (c): 10.0% (each round's: 10.0% / 10.0% / 25.0%; from the rows' medians: 10.0%");
  });

  it('splits tracing’s cost round by round into recording the spans and exporting them', () => {
    const tracingLine = (recorded: number[]) =>
      targets(
        formatReport(
          report({
            code: [service(4_000), service(4_800), service(4_000)],
            traced: [traced(3_600), traced(4_320), traced(3_000)],
            tracedRecordedOnly: recorded.map((eventsPerSecond) => traced(eventsPerSecond)),
          }),
        ),
      )[2]!;
    // Recording alone 5%, 5%, 10% of each round's (c): median 5%; tracing 10%, so exporting adds 5 points.
    expect(tracingLine([3_800, 4_560, 3_600])).toContain('recording the spans alone, none exported: 5.0% (each round\'s: 5.0% / 5.0% / 10.0%), so exporting them — queue, serialise, send to a receiver on the same cores — adds 5.0 points)');
    expect(tracingLine([])).not.toContain('recording the spans alone');
    const row = formatReport(report()).find((line) => line.startsWith('| (c+tracing) spans recorded, none exported'))!;
    expect(row).toContain('| 7,600 |');
  });

  it('marks each missed target, with its ratio', () => {
    const lines = targets(
      formatReport(
        report({
          code: [service(4_000, 410)],
          traced: [traced(3_000)],
          judge: judge(200, 400),
          otlpAlone: [{ runs: 400, traces: 4000, spans: 8400, seconds: 0.1, runsPerSecond: 12_000, records: 1200, peakBufferedSpans: 4200, cores: { node: 1.2, mainThread: 1, broker: undefined }, paired: { runsPerSecond: 18_000, seconds: 0.1 }, pairedRatio: 12_000 / 18_000 }],
        }),
      ),
    );
    expect(lines.slice(0, 8).map((line) => line.slice(0, 3))).toEqual(['  ✗', '  ✗', '  ✗', '  ✗', '  ✗', '  ✗', '  ✗', '  ✗']);
    expect(lines[0]).toContain('0.40×');
    expect(lines[2]).toContain('25.0%');
    expect(lines[4]).toContain('400 MB as shipped (scripts/node-flags); 200 MB with --flag');
    expect(lines[5]).toContain('(c) ≥ 0.6 × (a) (issue 28): 0.40×');
    expect(lines[6]).toContain('(o) ≥ 0.7 × (p), the OTLP input against run events without Kafka, passes alternated in one child: 0.67× (each round\'s; 12,000 against 18,000 runs/s; against the (p) row, measured apart: 0.60×)');
    expect(lines[7]).toContain('the highest round: (c) 410 MB, (c+tracing) 200 MB (with --heap-growing-percent=0, V8\'s own heap growth: 200 MB, at +156.7% events/s)');
    expect(lines[5]).toContain("(on the shipped client: (p)'s work and (a-p)'s client work (83 µs per event, one record out) in turn: ≈ 7,500 events/s = 0.75× of (a); the required work alone");
  });

  it('reads (c) ≥ 0.6 × (a) against (m), the required work by hand, round by round, and says when the floor itself is below the target', () => {
    const passthrough = (eventsPerSecond: number) => ({ events: 1000, seconds: 1000 / eventsPerSecond, eventsPerSecond, cores });
    const rounds = (required: number[]) =>
      targets(
        formatReport(
          report({
            passthrough: [passthrough(10_000), passthrough(8_000), passthrough(10_000)],
            code: [service(5_000), service(4_000), service(4_500)],
            traced: [traced(4_000), traced(3_000), traced(3_500)],
            requiredWork: required.map((eventsPerSecond) => passthrough(eventsPerSecond)),
          }),
        ),
      )[5]!;
    // (m)/(a) by round 0.55, 0.70, 0.50; (c)/(m) 0.91, 0.71, 0.90.
    expect(rounds([5_500, 5_600, 5_000])).toContain('the required work alone, by hand on the same client ((m)): 0.550× of (a), itself below 0.6: here the target is beyond the floor, and (c) = 0.90× of (m) (each round\'s)');
    // (m)/(a) 0.70, 0.80, 0.65: the floor is above the target, so the gap is the service's own.
    const above = rounds([7_000, 6_400, 6_500]);
    expect(above).toContain('((m)): 0.700× of (a), and (c) = 0.69× of (m)');
    expect(above).not.toContain('beyond the floor');
    const table = formatReport(report());
    expect(table.find((line) => line.startsWith('| (m) the required work alone'))).toContain('| 9,000 |');
  });

  it('puts (c) next to what the client alone reaches with the same output, and the pipeline without scorer work', () => {
    const lines = targets(formatReport(report()));
    expect(lines[0]).toContain('the client alone reaches (a3) = 0.85× of (a); the pipeline with no-op scorers (c0) = 0.82×');
    const table = formatReport(report());
    expect(table.find((line) => line.startsWith('| (a3) kafkajs passthrough'))).toContain('| 8,500 |');
    expect(table.find((line) => line.startsWith('| (c0) Scorestream'))).toContain('| 8,200 |');
  });

  it('bounds a single-threaded consumer by adding the main-thread CPU per event of (p) and of the client in (a3)', () => {
    // (p) one main thread at 20,000 events/s = 50 µs per event; (a3) (main thread not known: all
    // its cores) 1 core at 8,500 events/s = 118 µs per event.
    const lines = targets(formatReport(report()));
    expect(lines[0]).toContain("one JavaScript thread doing (p)'s work (50 µs of its CPU per event, shipped flags) and (a3)'s client work (118 µs per event) in turn: ≈ 5,965 events/s = 0.60× of (a)");
    expect(lines[1]).toContain('one thread, as above: 11.93×');
    const row = formatReport(report()).find((line) => line.startsWith('| (p) the per-message work'))!;
    expect(row).toContain('| 20,000 | 20,000 | 2.00× | 40.00× | 1.30 | 1.00 | — | — |');
  });

  it('sets the clients side by side: (a-p) against (a), (c-k) on kafkajs against (a), and (c), on the shipped platformatic, against (c-k)', () => {
    const lines = formatReport(report());
    // (a) 10,000, (a-p) 12,000, (c) 8,000, (c-k) 6,000.
    expect(lines.find((line) => line.startsWith('  clients'))).toContain('(a-p)/(a) = 1.20×, (c-k) on kafkajs /(a) = 0.60×, (c)/(c-k) = 1.33×');
    expect(lines.find((line) => line.startsWith("| (c-k) Scorestream with kafka.client: 'kafkajs'"))).toContain('| 6,000 |');
  });

  it('sets the floors against the targets: what one thread can reach doing only the unavoidable work, and what serialising the spans alone costs', () => {
    const lines = formatReport(report());
    // decode 20 + scorers 20 + records 5 = 45 µs; (a3)'s client 1 core at 8,500 events/s = 117.6 µs.
    const oneThread = lines.find((line) => line.startsWith('  one thread:'))!;
    expect(oneThread).toContain("decode 20 µs + the three scorers' run() 20 µs + their 3 records' JSON 5 µs + (a3)'s client work 118 µs = 163 µs ⇒ at most 6,148 events/s = 0.61× of (a), 12.30× of (b)");
    // At 0.7 × 10,000 events/s one thread has 142.9 µs per event; the floor takes 162.6 of them.
    expect(oneThread).toContain('at 0.7 × (a) that leaves -20 µs per event for the service');
    expect(oneThread).toContain('which (p) puts at 5 µs (50 µs in all, less these 45 µs)');
    // 2 µs × 13 spans = 26 µs; (c) at 8,000 events/s is 125 µs per event, 15% of throughput allows 22 µs more.
    const tracing = formatReport(report({ traced: [traced(5_000)] })).find((line) => line.startsWith('  tracing:'))!;
    expect(tracing).toContain('2.0 µs of CPU per span × 13.0 spans per event = 26 µs per event');
    expect(tracing).toContain("in wall time per event, ≤ 15% of (c) leaves (1/0.85 − 1) × (c)'s 125 µs = 22 µs for all of tracing");
    // (c+tracing) at 5,000 events/s: 200 µs per event, 75 µs more than (c); less the 26 µs of serialisation, 49 µs = 2.22 × 22.06 µs.
    expect(tracing).toContain('(c+tracing) takes 75 µs more per event than (c)');
    expect(tracing).toContain('collecting their garbage: 49 µs) is 2.22× the budget on its own');
    // The SDK alone: 40 µs per event = 1.81 × 22.06 µs; (c+tracing)'s 75 µs more = 1.88 × those 40 µs.
    const sdk = formatReport(report({ traced: [traced(5_000)] })).filter((line) => line.startsWith('  tracing:'))[1]!;
    expect(sdk).toContain('the same 13.0 spans per event, replayed without Scorestream');
    expect(sdk).toContain('takes 40 µs of main-thread CPU per event = 1.81× the 22 µs budget');
    expect(sdk).toContain('spends 75 µs more per event than (c), 1.88× the SDK');
  });

  it('leaves the floors out when none were measured', () => {
    expect(formatReport(report({ floors: [] })).some((line) => line.startsWith('floors'))).toBe(false);
  });

  it('counts spans per event over every event the traced service completed, warm-up included', () => {
    const line = formatReport(report()).find((entry) => entry.startsWith('tracing:'))!;
    expect(line).toContain('12.7 spans per event'); // 14,000 spans over 1,100 completed events
  });

  it('prints one table row per scenario with each round shown', () => {
    const lines = formatReport(report({ code: [service(8_000), service(9_000), service(7_000)] }));
    const row = lines.find((line) => line.startsWith('| (c) Scorestream'))!;
    expect(row).toContain('| 8,000 | 8,000 / 9,000 / 7,000 |');
  });
});

describe('parseBenchOptions', () => {
  it('sizes a full run by default and a small one with --quick', () => {
    expect(parseBenchOptions([]).backlogEvents).toBe(200_000);
    expect(parseBenchOptions(['--quick']).rounds).toBe(1);
  });

  it('takes the number of interleaved rounds from --rounds, in full and quick runs alike', () => {
    expect(parseBenchOptions([]).rounds).toBe(5);
    expect(parseBenchOptions(['--rounds', '5']).rounds).toBe(5);
    expect(parseBenchOptions(['--quick', '--rounds', '2']).rounds).toBe(2);
    expect(parseBenchOptions(['--rounds', '7', '--profile']).profileDirectory).toMatch(/scorestream-bench-profiles-/);
  });

  it('refuses --rounds without a whole number from 1 to 20, saying what it needs', () => {
    for (const bad of [['--rounds'], ['--rounds', '0'], ['--rounds', '2.5'], ['--rounds', 'five'], ['--rounds', '21'], ['--rounds', '--quick']]) {
      expect(() => parseBenchOptions(bad)).toThrow(/--rounds needs a whole number from 1 to 20/);
    }
  });

  it('rejects an unknown argument, showing the usage', () => {
    expect(() => parseBenchOptions(['--fast'])).toThrow(/unknown argument\(s\): --fast[\s\S]*usage: node bench\/pipeline\.bench\.ts/);
  });

  it('puts CPU profiles in a temporary directory with --profile', () => {
    expect(parseBenchOptions(['--profile']).profileDirectory).toMatch(/scorestream-bench-profiles-/);
    expect(parseBenchOptions([]).profileDirectory).toBeUndefined();
  });
});

// Where the latency runs' time went (docs/observability.md, "Where each score's time went"): each
// acknowledged record's stages as the service reports them — the record's `latency` block and its
// produce — beside its event-to-result time, measured apart (the event's timestamp to the
// acknowledgement). Each stage ends where the next begins, so a sum away from the end-to-end time
// is a path that dropped or doubled a stage; the target is within 5%.
import { LATENCY_STAGES, latencyStages } from '../../src/kit/contracts/record-latency.ts';
import type { LatencyStage, RecordLatency } from '../../src/kit/contracts/record-latency.ts';

export type StageFigures = { stage: LatencyStage; records: number; p50Ms: number; p99Ms: number; totalMs: number };

export type LatencyBreakdown = {
  records: number;
  stages: StageFigures[];
  /** Over every record: the stages' sum, and the event-to-result time. */
  stagedMs: number;
  endToEndMs: number;
  /** Per record, end-to-end less the stages' sum: what no stage timed (rounding makes it ±0.5 ms a stage). */
  untimedP50Ms: number;
  untimedP99Ms: number;
};

export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

const sortedOf = (values: readonly number[]) => Float64Array.from(values).sort();

export type StageCollector = {
  /** One acknowledged record: its latency block, its produce and its event-to-result time. */
  add(latency: RecordLatency | undefined, produceMs: number, endToEndMs: number): void;
  result(): LatencyBreakdown;
};

export function createStageCollector(): StageCollector {
  const byStage = new Map<LatencyStage, number[]>(LATENCY_STAGES.map((stage) => [stage, []]));
  const untimed: number[] = [];
  let stagedMs = 0;
  let endToEndMs = 0;
  return {
    add(latency, produceMs, endToEnd) {
      let staged = produceMs;
      byStage.get('produce')!.push(produceMs);
      for (const [stage, ms] of latency === undefined ? [] : latencyStages(latency)) {
        byStage.get(stage)!.push(ms);
        staged += ms;
      }
      stagedMs += staged;
      endToEndMs += endToEnd;
      untimed.push(endToEnd - staged);
    },
    result() {
      const stages = [...byStage].filter(([, values]) => values.length > 0).map(([stage, values]) => {
        const sorted = sortedOf(values);
        return { stage, records: values.length, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), totalMs: values.reduce((sum, ms) => sum + ms, 0) };
      });
      const sortedUntimed = sortedOf(untimed);
      return { records: untimed.length, stages, stagedMs, endToEndMs, untimedP50Ms: percentile(sortedUntimed, 0.5), untimedP99Ms: percentile(sortedUntimed, 0.99) };
    },
  };
}

/** The stages' sum over the end-to-end time, over every record of the window. */
export const stagedShare = (breakdown: LatencyBreakdown) => (breakdown.endToEndMs === 0 ? Number.NaN : breakdown.stagedMs / breakdown.endToEndMs);

export function stageFigures(breakdown: LatencyBreakdown, stage: LatencyStage): StageFigures | undefined {
  return breakdown.stages.find((figures) => figures.stage === stage);
}

/** One line: each stage's p50 / p99 and share of the time, then how the sum compares. */
export function breakdownLine(label: string, breakdown: LatencyBreakdown): string {
  const total = breakdown.endToEndMs;
  const stages = breakdown.stages.map((figures) => `${figures.stage} ${figures.p50Ms.toFixed(0)}/${figures.p99Ms.toFixed(0)} ms (${((100 * figures.totalMs) / total).toFixed(1)}%)`).join(', ');
  return (
    `  stages ${label}, p50/p99 and share of the end-to-end time, ${breakdown.records.toLocaleString('en-US')} records: ${stages}; ` +
    `their sum ${(stagedShare(breakdown) * 100).toFixed(1)}% of the end-to-end time (untimed per record: p50 ${breakdown.untimedP50Ms.toFixed(0)} ms, p99 ${breakdown.untimedP99Ms.toFixed(0)} ms)`
  );
}

/** The published latency targets (docs/observability.md): code scorers' p99 within 2 s at half of (c); a judge's within its judge stage's p99 + 5 s at half of (d); the stages within 5% of the end-to-end time. */
export const LATENCY_TARGETS = { codeP99Ms: 2_000, judgedOverJudgeP99Ms: 5_000, stagedWithin: 0.05 } as const;

type LatencyRunFigures = { eventsPerSecond: number; result: { p99Ms: number; stages: LatencyBreakdown } };

export function latencyTargetLines(code: LatencyRunFigures, judged: LatencyRunFigures, mark: (ok: boolean) => string): string[] {
  const judgeP99 = stageFigures(judged.result.stages, 'judge')?.p99Ms ?? Number.NaN;
  const judgedBound = judgeP99 + LATENCY_TARGETS.judgedOverJudgeP99Ms;
  const within = (breakdown: LatencyBreakdown) => Math.abs(stagedShare(breakdown) - 1) <= LATENCY_TARGETS.stagedWithin;
  const share = (breakdown: LatencyBreakdown) => `${(stagedShare(breakdown) * 100).toFixed(1)}%`;
  return [
    `  ${mark(code.result.p99Ms <= LATENCY_TARGETS.codeP99Ms)} code scorers: event → record p99 ≤ ${LATENCY_TARGETS.codeP99Ms} ms at half of (c) (${code.eventsPerSecond} events/s): ${code.result.p99Ms.toFixed(0)} ms`,
    `  ${mark(judged.result.p99Ms <= judgedBound)} a judge scorer: event → record p99 ≤ its judge stage's p99 + ${LATENCY_TARGETS.judgedOverJudgeP99Ms / 1000} s at half of (d) (${judged.eventsPerSecond} events/s): ${judged.result.p99Ms.toFixed(0)} ms ≤ ${judgeP99.toFixed(0)} + ${LATENCY_TARGETS.judgedOverJudgeP99Ms} ms`,
    `  ${mark(within(code.result.stages) && within(judged.result.stages))} the records' latency stages sum to their end-to-end time within ${LATENCY_TARGETS.stagedWithin * 100}%: ${share(code.result.stages)} (c), ${share(judged.result.stages)} (d)`,
  ];
}

// Where a score record's time went (docs/observability.md, "Where each score's time went"): the
// stages from its run event's timestamp to the record handed to its output, in whole
// milliseconds. Each is read at the points the pair passes, so one ends where the next begins and
// their sum is the end-to-end latency, give or take rounding; a path that dropped or doubled a
// stage would show in the benchmark's sum (bench:pipeline).
// The last stage — the produce, until Kafka acknowledged the record — cannot be in the record it
// times: it is in the `scorestream.record.stage.duration` histogram only.
import { z } from 'zod';

/** The stages a record carries, in the order its time passes through them. */
export const RECORD_LATENCY_STAGES = ['kafka', 'runSlot', 'assembly', 'threadWait', 'retryWait', 'dispatch', 'scoring', 'judge'] as const;
export type RecordLatencyStage = (typeof RECORD_LATENCY_STAGES)[number];
/** The histogram's stages: the record's, and the produce. */
export const LATENCY_STAGES = [...RECORD_LATENCY_STAGES, 'produce'] as const;
export type LatencyStage = (typeof LATENCY_STAGES)[number];

const milliseconds = z.number().int().nonnegative();

export const recordLatencySchema = z.object({
  /** The run event's timestamp → the service fetched it (a thread score: its last turn's timestamp → that turn joined the thread state); the producer's and the broker's time, and any backlog. */
  kafkaMs: milliseconds.optional(),
  /** Fetched → a run slot held (`concurrency.runsInFlight`; the by-thread topic has its own): the service's queue. */
  runSlotMs: milliseconds.optional(),
  /** An OTLP run: its trace's first spans held a slot → the trace was complete enough to score (the grace, the turn pacer). */
  assemblyMs: milliseconds.optional(),
  /** A thread score: its last turn joined the thread state → the thread closed (idle, maxAge, an end event). */
  threadWaitMs: milliseconds.optional(),
  /** A retried pair: each failed attempt's end → the next attempt held its slot, summed (the retry tiers' delays). */
  retryWaitMs: milliseconds.optional(),
  /** The way in's end (a slot held, a trace assembled, a thread closed) → the scorer started, every attempt: decoding, eligibility, and the event loop's queue behind the other work in flight (a busy instance's CPU). */
  dispatchMs: milliseconds.optional(),
  /** The scorer's own run, every attempt, less its judge calls. */
  scoringMs: milliseconds,
  /** The scorer's judge calls, every attempt, each prompt step's whole time (per call: `judge.{step}.durationMs`, of which `queuedMs` waited for a judge slot). */
  judgeMs: milliseconds.optional(),
}).meta({ id: 'RecordLatency' });
export type RecordLatency = z.infer<typeof recordLatencySchema>;

/** The stages before scoring, as the transport measured them (the record adds its own scoring and judge time). */
export type ArrivalLatency = Omit<RecordLatency, 'dispatchMs' | 'scoringMs' | 'judgeMs'>;
/** What came before an attempt's scorer ran: the way in, and a retry's earlier attempts (their scoring and judge time too). */
export type LatencyBefore = Partial<RecordLatency>;

/** Each stage with its field, made once: a field name built per record and stage cost the hot path a microsecond an event. */
const STAGE_FIELDS = RECORD_LATENCY_STAGES.map((stage) => [stage, `${stage}Ms` as const] as const);

/** A record's stages as (stage, ms) pairs, in order, those it has. */
export function latencyStages(latency: RecordLatency): Array<[RecordLatencyStage, number]> {
  const stages: Array<[RecordLatencyStage, number]> = [];
  for (const [stage, field] of STAGE_FIELDS) {
    const ms = latency[field];
    if (ms !== undefined) stages.push([stage, ms]);
  }
  return stages;
}

/** Two latencies added stage by stage (the stages before scoring and the scorer's own; an earlier attempt's and this one's); a stage neither has stays absent. */
export function sumLatency(earlier: LatencyBefore | undefined, later: LatencyBefore): LatencyBefore {
  if (earlier === undefined) return later;
  const sum: LatencyBefore = {};
  for (const [, field] of STAGE_FIELDS) {
    const a = earlier[field];
    const b = later[field];
    if (a !== undefined || b !== undefined) sum[field] = (a ?? 0) + (b ?? 0);
  }
  return sum;
}

/** Whole, non-negative milliseconds between two readings; undefined when either is unknown. A clock behind the event's producer reads as 0, not negative. */
export function elapsedMs(from: number | undefined, to: number | undefined): number | undefined {
  if (from === undefined || to === undefined || !Number.isFinite(from) || !Number.isFinite(to)) return undefined;
  return Math.max(0, Math.round(to - from));
}

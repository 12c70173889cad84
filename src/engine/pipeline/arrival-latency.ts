// A pair's latency stages before its scorer runs (src/kit/contracts/record-latency.ts), from the
// readings the transport took: the run event's own timestamp, when its message was fetched, when
// it held a run slot, when an OTLP trace was complete; a retry's earlier attempts and its wait; a
// thread's last turn joining the state and the close. Pure: every reading is brought by the caller,
// on the records' clock.
import { elapsedMs, sumLatency } from '../../kit/contracts/record-latency.ts';
import type { ArrivalLatency, LatencyBefore } from '../../kit/contracts/record-latency.ts';
import type { RetryMessage } from '../../kit/contracts/retry-message.ts';

/** The readings of one run on its way in; any may be unknown (a run read back for a re-score has none). */
export type RunArrival = {
  /** The run event's `timestamp`, epoch ms. */
  eventTimeMs: number;
  /** Its message's batch fetched (an OTLP run: the trace's first spans'). */
  fetchedAt?: number | undefined;
  /** That message held a run slot. */
  slotAt?: number | undefined;
  /** An OTLP run: the trace was complete enough to score. */
  assembledAt?: number | undefined;
};

/** The stages whose readings were known. */
function present(stages: { [Stage in keyof ArrivalLatency]?: number | undefined }): ArrivalLatency {
  const kept: ArrivalLatency = {};
  for (const stage of Object.keys(stages) as Array<keyof ArrivalLatency>) {
    const ms = stages[stage];
    if (ms !== undefined) kept[stage] = ms;
  }
  return kept;
}

/** The later of two readings, either unknown. */
const later = (a: number | undefined, b: number | undefined) => (a === undefined || !Number.isFinite(a) ? b : b === undefined ? a : Math.max(a, b));

/** A pair's way in: its stages before scoring, and when the last of them ended — the scorer's wait to start (`dispatchMs`) is timed from it. */
export type WayIn = { readonly stages: LatencyBefore; readonly endedAt: number | undefined };

/**
 * event → fetched (kafka) → slot held (runSlot) → complete (assembly, an OTLP run). Each stage
 * starts where the one before ended, never before the event: an OTLP trace's first spans may
 * arrive before its agent span ends (the run's timestamp), and a producer's clock may run ahead of
 * ours; the time before the run existed is no stage of it, so the stages sum to the time since it.
 */
export function runWayIn(arrival: RunArrival): WayIn {
  const { eventTimeMs } = arrival;
  const fetchedAt = later(eventTimeMs, arrival.fetchedAt);
  const slotAt = later(fetchedAt, arrival.slotAt);
  const assembledAt = later(slotAt, arrival.assembledAt);
  const read = (raw: number | undefined, clamped: number | undefined) => (raw === undefined ? undefined : clamped);
  const stages = present({ kafkaMs: elapsedMs(eventTimeMs, read(arrival.fetchedAt, fetchedAt)), runSlotMs: elapsedMs(fetchedAt, read(arrival.slotAt, slotAt)), assemblyMs: elapsedMs(slotAt, read(arrival.assembledAt, assembledAt)) });
  return { stages, endedAt: read(arrival.assembledAt, assembledAt) ?? read(arrival.slotAt, slotAt) };
}

/**
 * A retry's way in: the earlier attempts' stages (carried by the retry message) and the wait from
 * the last one's end until this attempt held its slot: the tier's delay, its produce and fetch. A
 * pair back from the batch tier (`fromBatch`) waited since it was deferred to its batch (its `dueAt`).
 */
export function retryWayIn(retry: Pick<RetryMessage, 'latency' | 'attempts' | 'dueAt'>, slotAt: number | undefined, fromBatch = false): WayIn {
  const lastFailedAt = Date.parse(fromBatch ? retry.dueAt : (retry.attempts.at(-1)?.failedAt ?? retry.dueAt));
  return { stages: sumLatency(retry.latency, present({ retryWaitMs: elapsedMs(lastFailedAt, slotAt) })), endedAt: slotAt };
}

/** A thread score: its last turn's event → that turn joined the thread state (kafka) → the thread closed (threadWait). */
export function threadWayIn(lastTurnEventMs: number, joinedAt: number | undefined, closedAt: number | undefined): WayIn {
  return { stages: present({ kafkaMs: elapsedMs(lastTurnEventMs, joinedAt), threadWaitMs: elapsedMs(joinedAt === undefined ? undefined : later(lastTurnEventMs, joinedAt), closedAt) }), endedAt: closedAt };
}

/** No stage of its way in counts (a re-score's run read back, a replay's old event), only its wait to start from `endedAt`. */
export function untimedWayIn(endedAt: number | undefined): WayIn {
  return { stages: {}, endedAt };
}

/** The stages before a scorer that started at `startedAt`: its way in's, and the wait since its end (`dispatchMs`: decoding, eligibility, the event loop's queue). */
export function latencyBeforeScoring(wayIn: WayIn | undefined, startedAt: number): LatencyBefore | undefined {
  if (wayIn === undefined) return undefined;
  const dispatchMs = elapsedMs(wayIn.endedAt, startedAt);
  if (dispatchMs === undefined) return wayIn.stages;
  // A first attempt's way in has no dispatch yet: the field is added, not summed (once per binding and run).
  return wayIn.stages.dispatchMs === undefined ? { ...wayIn.stages, dispatchMs } : sumLatency(wayIn.stages, { dispatchMs });
}

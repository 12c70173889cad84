// A pair's latency stages before its scorer runs (src/kit/contracts/record-latency.ts), from the
// readings the transport took: the run event's own timestamp, when its message was fetched, when
// it held a run slot, when an OTLP trace was complete; a retry's earlier attempts and its wait; a
// thread's last turn joining the state and the close. Pure: every reading is brought by the caller,
// on the records' clock.
import { elapsedMs, sumLatency } from '../../kit/contracts/record-latency.ts';
import type { ArrivalLatency, RecordLatency } from '../../kit/contracts/record-latency.ts';
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

function present(stages: Record<string, number | undefined>): ArrivalLatency {
  const kept: Record<string, number> = {};
  for (const [stage, ms] of Object.entries(stages)) if (ms !== undefined) kept[stage] = ms;
  return kept;
}

/** The later of two readings, either unknown. */
const later = (a: number | undefined, b: number | undefined) => (a === undefined || !Number.isFinite(a) ? b : b === undefined ? a : Math.max(a, b));

/**
 * event → fetched (kafka) → slot held (runSlot) → complete (assembly, an OTLP run). Each stage
 * starts where the one before ended, never before the event: an OTLP trace's first spans may
 * arrive before its agent span ends (the run's timestamp), and a producer's clock may run ahead of
 * ours; the time before the run existed is no stage of it, so the stages sum to the time since it.
 */
export function runArrivalLatency(arrival: RunArrival): ArrivalLatency {
  const { eventTimeMs } = arrival;
  const fetchedAt = later(eventTimeMs, arrival.fetchedAt);
  const slotAt = later(fetchedAt, arrival.slotAt);
  const assembledAt = later(slotAt, arrival.assembledAt);
  const read = (raw: number | undefined, clamped: number | undefined) => (raw === undefined ? undefined : clamped);
  return present({ kafkaMs: elapsedMs(eventTimeMs, read(arrival.fetchedAt, fetchedAt)), runSlotMs: elapsedMs(fetchedAt, read(arrival.slotAt, slotAt)), assemblyMs: elapsedMs(slotAt, read(arrival.assembledAt, assembledAt)) });
}

/**
 * A retry's stages before its scorer: the earlier attempts' (carried by the retry message) and
 * the wait from the last one's end until this attempt held its slot: the tier's delay, its
 * produce and fetch.
 */
export function retryLatencyBefore(retry: Pick<RetryMessage, 'latency' | 'attempts'>, slotAt: number | undefined): Partial<RecordLatency> {
  const lastFailedAt = Date.parse(retry.attempts.at(-1)!.failedAt);
  return sumLatency(retry.latency, present({ retryWaitMs: elapsedMs(lastFailedAt, slotAt) }));
}

/** A thread score: its last turn's event → that turn joined the thread state (kafka) → the thread closed (threadWait). */
export function threadArrivalLatency(lastTurnEventMs: number, joinedAt: number | undefined, closedAt: number | undefined): ArrivalLatency {
  return present({ kafkaMs: elapsedMs(lastTurnEventMs, joinedAt), threadWaitMs: elapsedMs(joinedAt === undefined ? undefined : later(lastTurnEventMs, joinedAt), closedAt) });
}

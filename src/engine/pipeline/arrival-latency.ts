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

/** event → fetched (kafka) → slot held (runSlot) → complete (assembly, an OTLP run). */
export function runArrivalLatency(arrival: RunArrival): ArrivalLatency {
  const { eventTimeMs, fetchedAt, slotAt, assembledAt } = arrival;
  return present({ kafkaMs: elapsedMs(eventTimeMs, fetchedAt), runSlotMs: elapsedMs(fetchedAt, slotAt), assemblyMs: elapsedMs(slotAt, assembledAt) });
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
  return present({ kafkaMs: elapsedMs(lastTurnEventMs, joinedAt), threadWaitMs: elapsedMs(joinedAt, closedAt) });
}

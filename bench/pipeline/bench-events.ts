// The events every scenario consumes: a pool of realistic sample runs (producers/sample),
// serialised once with their W3C traceparent header, plus a cheap way to stretch the pool to a
// backlog of any size (the pool cycled with fresh runIds) and to stamp a live event time for the
// latency run. Serialising here, once, keeps the producers of the benchmark off the hot path.
import type { KafkaMessage, Message } from 'kafkajs';
import { createSampleRunGenerator } from '../../producers/sample/index.ts';

/** Every pooled event carries this completion time; `withTimestamp` swaps it for a live one. */
const placeholderTime = '2000-01-01T00:00:00.000Z';
const placeholderField = `"timestamp":"${placeholderTime}"`;

export type BenchEvent = { runId: string; value: string; traceparent: string };

export type EventPool = {
  readonly events: readonly BenchEvent[];
  readonly averageBytes: number;
  /** Message `index` of a backlog: the pool cycled, each lap with its own runIds. */
  message(index: number): Message;
  /** Message `index` with its event `timestamp` set to `at` (for event-to-result latency). */
  timedMessage(index: number, at: Date): Message;
};

/** `count` distinct sample runs from a fixed seed: the same events in every run of the benchmark. */
export function createEventPool(count: number, seed = 'pipeline-bench'): EventPool {
  // Every trace sampled: a declined trace skips all scorers (docs/scorers.md, sampling), and the baselines cannot
  // skip anything, so the comparison is only fair when every event is scored.
  const generator = createSampleRunGenerator({ seed, clock: () => new Date(placeholderTime), sampledRatio: 1 });
  const events: BenchEvent[] = [];
  let bytes = 0;
  for (let index = 0; index < count; index += 1) {
    const { event, spanContext } = generator.next();
    const value = JSON.stringify(event);
    bytes += Buffer.byteLength(value);
    const flags = spanContext.traceFlags.toString(16).padStart(2, '0');
    events.push({ runId: event.runId, value, traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}` });
  }

  const lapped = (index: number): { runId: string; value: string; traceparent: string } => {
    const event = events[index % count]!;
    const lap = Math.floor(index / count);
    if (lap === 0) return event;
    // A runId must stay unique across laps: scoreIds derive from it and records are keyed by it.
    const runId = `${event.runId}-${lap}`;
    return { runId, value: event.value.replace(`"runId":"${event.runId}"`, `"runId":"${runId}"`), traceparent: event.traceparent };
  };
  const toMessage = ({ runId, value, traceparent }: BenchEvent): Message => ({ key: runId, value, headers: { traceparent } });

  return {
    events,
    averageBytes: count === 0 ? 0 : bytes / count,
    message: (index) => toMessage(lapped(index)),
    timedMessage(index, at) {
      const event = lapped(index);
      return toMessage({ ...event, value: event.value.replace(placeholderField, `"timestamp":"${at.toISOString()}"`) });
    },
  };
}

/** The pool as the consumer receives it from kafkajs: Buffers for key, value and header values. */
export function asConsumedMessages(pool: EventPool): KafkaMessage[] {
  return pool.events.map((event, index) => ({
    key: Buffer.from(event.runId),
    value: Buffer.from(event.value),
    headers: { traceparent: Buffer.from(event.traceparent) },
    timestamp: '0',
    offset: String(index),
    attributes: 0,
    size: 0,
  })) as unknown as KafkaMessage[];
}

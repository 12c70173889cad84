// Fakes at the seams of the per-message path: consumed Kafka messages, an output that accepts,
// fails or holds back publishes, a retry pacing that records its pauses instead of waiting, a
// MessageContext resolved the way the service resolves it, and the message path of a source.
import pino from 'pino';
import type { MessageContext } from '../../../consumers/message-context.ts';
import { createMessagePath } from '../../../consumers/message-path.ts';
import type { MessageEnd } from '../../../consumers/message-path.ts';
import { untracedMessage } from '../../../consumers/message-trace.ts';
import type { MessageTrace } from '../../../consumers/message-trace.ts';
import { runEventSource } from '../../../consumers/run-event-source.ts';
import type { RunSource } from '../../../consumers/run-source.ts';
import type { ConsumedMessage, MessageHeaders, OutgoingRecord } from '../../../kafka/kafka-records.ts';
import type { PublishRetry } from '../../../consumers/publish-until-acknowledged.ts';
import type { MessageOutput } from '../../../consumers/record-sink.ts';
import { ServiceStats } from '../../../consumers/service-stats.ts';
import type { ScorerBindingInput, ScorestreamConfigInput } from '../../../src/engine/config/config-types.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { testRun } from '../../helpers/runs.ts';
import type { TestRunOptions } from '../../helpers/runs.ts';
import type { AcknowledgedRecordFields } from '../../../consumers/emitter/record-emitter.ts';

export const source = { topic: 'agent-runs', partition: 3, offset: '17' };
/** The message's Kafka timestamp (epoch ms, as kafkajs reports it) and the same as an ISO time. */
export const messageTimestamp = { epochMs: '1796040000000', iso: new Date(1796040000000).toISOString() };

export function consumedMessage(options: { value: string | Buffer | null; key?: string | null; headers?: MessageHeaders; timestamp?: string; offset?: string }): ConsumedMessage {
  return {
    key: options.key === undefined || options.key === null ? null : Buffer.from(options.key),
    value: typeof options.value === 'string' ? Buffer.from(options.value) : options.value,
    headers: options.headers ?? {},
    timestamp: options.timestamp ?? messageTimestamp.epochMs,
    offset: options.offset ?? source.offset,
  };
}

/** A message carrying a valid run event (its Kafka key is the run id). */
export function runMessage(options: TestRunOptions & { headers?: MessageHeaders; event?: Record<string, unknown> }): ConsumedMessage {
  const { headers, event, ...run } = options;
  return consumedMessage({ key: run.runId, value: JSON.stringify({ ...testRun(run), ...event }), headers });
}

/**
 * An output that records every batch it accepted. `fail(n)` makes the next n publishes reject;
 * `hold()` keeps publishes pending until `release()` (to see what happens before acknowledgement).
 */
export function fakeOutput() {
  const accepted: OutgoingRecord[][] = [];
  let attempts = 0;
  let failures = 0;
  let held: Array<() => void> | undefined;
  const output: MessageOutput = {
    async publish(records) {
      attempts += 1;
      if (failures > 0) {
        failures -= 1;
        throw new Error('broker unavailable');
      }
      if (held !== undefined) await new Promise<void>((resolve) => held!.push(resolve));
      accepted.push([...records]);
    },
  };
  return {
    output,
    accepted,
    /** Every accepted record, in order. */
    records: () => accepted.flat(),
    attempts: () => attempts,
    fail(count: number) {
      failures = count;
    },
    hold() {
      held = [];
    },
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const resolve of waiting) resolve();
    },
  };
}

/** Retry pacing that records each pause and returns at once; `onWait` runs during a pause (e.g. to stop hard). */
export function recordedPacing(onWait: (delayMs: number) => void = () => undefined) {
  const delays: number[] = [];
  const publishRetry: PublishRetry = {
    firstDelayMs: 200,
    maxDelayMs: 10_000,
    wait: async (delayMs) => {
      delays.push(delayMs);
      onWait(delayMs);
    },
  };
  return { publishRetry, delays };
}

/** A scorer that scores every run 1. */
export const fixedScorer = createScorer({ id: 'fixed', description: 'scores every run 1' }).generateScore(() => 1);

export type TestContextOptions = {
  scorers?: ScorerBindingInput[];
  decisionsTopic?: string;
  maxMessageBytes?: number;
  maxRecordBytes?: number;
  now?: () => number;
  publishRetry?: PublishRetry;
  services?: MessageContext['services'];
  retries?: ScorestreamConfigInput['retries'];
  evidence?: ScorestreamConfigInput['evidence'];
  redaction?: ScorestreamConfigInput['redaction'];
};

/** The service's per-message context, with a fixed clock, fresh counters and a logger that writes nothing. */
export function messageContext(options: TestContextOptions = {}) {
  const hardStop = new AbortController();
  const config = resolveConfig({
    kafka: { brokers: ['127.0.0.1:9'] },
    groupId: 'unit',
    topics: { runs: source.topic, results: 'scores', deadLetter: 'dead-letters', decisions: options.decisionsTopic },
    scorers: options.scorers ?? [{ scorer: fixedScorer }],
    maxMessageBytes: options.maxMessageBytes,
    maxRecordBytes: options.maxRecordBytes,
    retries: options.retries,
    evidence: options.evidence,
    redaction: options.redaction,
  });
  const latencies: number[] = [];
  /** Every record handed to the metrics, with its latency (undefined: none). */
  const observed: { record: AcknowledgedRecordFields; latencyMs: number | undefined }[] = [];
  const context: MessageContext = {
    config,
    stats: new ServiceStats(),
    logger: pino({ level: 'silent' }),
    now: options.now ?? (() => Date.parse('2026-11-29T12:00:02.000Z')),
    hardStop: hardStop.signal,
    publishRetry: options.publishRetry ?? recordedPacing().publishRetry,
    services: options.services,
    observeRecord: (record, latencyMs) => {
      observed.push({ record, latencyMs });
      if (latencyMs !== undefined) latencies.push(latencyMs);
    },
  };
  return { context, hardStop, latencies, observed };
}

/** The JSON value of a published record. */
export function valueOf(record: OutgoingRecord | undefined): Record<string, unknown> {
  if (record === undefined) throw new Error('no record was published');
  return JSON.parse(String(record.value)) as Record<string, unknown>;
}

/** One message down the message path of `source` (default: run events) at `source`'s position, as the consumer sends it. */
export function processRunEvent(context: MessageContext, message: ConsumedMessage, output: MessageOutput, trace: MessageTrace = untracedMessage(message), from: RunSource = runEventSource): Promise<MessageEnd> {
  return createMessagePath(context).partition(from).process(message, { source: { ...source, offset: message.offset }, output, trace });
}

// Scenario (f): the cost of the work this design requires (kafkajs, the contract's validation, these scorers, the OTel
// SDK's exporter), each part measured alone in a fresh process, in main-thread CPU:
//   - decode: what validating one message costs (decodeAgentRunEvent: UTF-8, JSON.parse, the
//     compiled validator; zod for what it refuses);
//   - scorers: the three code scorers' own run(), called one after another on each decoded run
//     (the Mastra-style step pipeline they are written against, no spans, records or Kafka);
//   - records: JSON.stringify of the run's three score records, as the service publishes them;
//   - OTLP serialisation: the SDK's own protobuf serialiser over the very spans the service
//     records for these events (a score span per scorer, a span per prompt step), and the SDK's
//     whole work for them — create, record, end, batch, serialise — replayed without our code.
// With (a3)'s client work, decode + scorers + records bound what one thread can reach; the
// serialisation per event bounds what exporting every span on that thread costs. The report sets
// both against the targets, so a missed target shows whether the service's own cost or the floor
// is in the way.
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { ExportResultCode } from '@opentelemetry/core';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { KafkaMessage } from 'kafkajs';
import { runTraceContext, untracedMessage } from '../../consumers/message-trace.ts';
import { createMessagePath } from '../../consumers/message-path.ts';
import { runEventSource } from '../../consumers/run-event-source.ts';
import type { MessageOutput } from '../../consumers/record-sink.ts';
import type { ScorerLike } from '../../src/engine/config/config-types.ts';
import { decodeAgentRunEvent } from '../../src/kit/contracts/parse.ts';
import { collectRunFacts } from '../../src/engine/pipeline/run-facts.ts';
import { buildScorerInput } from '../../src/engine/pipeline/scorer-input.ts';
import { asConsumedMessages } from './bench-events.ts';
import type { EventPool } from './bench-events.ts';
import { serviceMessageContext } from './pipeline-alone.ts';

export type FloorsOptions = {
  pool: EventPool;
  scorers: readonly ScorerLike[];
  /** Passes over the pool for decode and scorers; the first warms the JIT up and is not counted. */
  passes: number;
  /** Events whose spans are recorded and serialised (the first pool events). */
  tracedEvents: number;
};

export type FloorsResult = {
  /** Events measured for decode and scorers (counted passes × pool). */
  events: number;
  /** Main-thread CPU seconds per event. */
  decodeSeconds: number;
  scorersSeconds: number;
  /** Serialising all of one event's score records (records per event: `recordsPerEvent`). */
  recordsSeconds: number;
  recordsPerEvent: number;
  spans: {
    events: number;
    count: number;
    perEvent: number;
    /** Main-thread CPU seconds to serialise one span as OTLP protobuf, in export batches of `batchSize`. */
    serializeSecondsPerSpan: number;
    /**
     * Main-thread CPU seconds per event for the SDK alone to create, record, end, batch and
     * serialise the event's spans — the same names, parents, attributes and events, replayed
     * through a tracer provider with a batch processor, no Scorestream code: what tracing costs
     * at the least while the service records these spans.
     */
    sdkSecondsPerEvent: number;
    bytesPerSpan: number;
    batchSize: number;
  };
};

const source = { topic: 'runs', partition: 0, offset: '0' };

function mainThreadSeconds(): number {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds per unit of `work` over the counted passes (the first pass is a warm-up). */
async function perUnit(passes: number, units: number, work: () => void | Promise<void>): Promise<number> {
  await work();
  const before = mainThreadSeconds();
  for (let pass = 1; pass < passes; pass += 1) await work();
  return (mainThreadSeconds() - before) / (units * Math.max(1, passes - 1));
}

/** The score records the service publishes for these messages, as objects again. */
async function publishedRecords(messages: readonly KafkaMessage[], scorers: readonly ScorerLike[]): Promise<unknown[]> {
  const records: unknown[] = [];
  const messageContext = serviceMessageContext(scorers);
  const output: MessageOutput = {
    publish: async (batch) => {
      for (const record of batch) records.push(JSON.parse(String(record.value)));
    },
  };
  const partition = createMessagePath(messageContext).partition(runEventSource);
  for (const message of messages) await partition.process(message, { source: { ...source, offset: message.offset }, output, trace: untracedMessage(message) });
  return records;
}

/**
 * Registers OpenTelemetry globals for the span part: run it in a process of its own (the
 * benchmark runs it in a child) and last in that process.
 */
export async function measureFloors(options: FloorsOptions): Promise<FloorsResult> {
  const messages = asConsumedMessages(options.pool);
  const events = messages.length;

  const decodeSeconds = await perUnit(options.passes, events, () => {
    for (const message of messages) if (!decodeAgentRunEvent(message.value).success) throw new Error(`benchmark event ${message.offset} does not decode`);
  });

  const inputs = messages.map((message) => {
    const decoded = decodeAgentRunEvent(message.value);
    if (!decoded.success) throw new Error(`benchmark event ${message.offset} does not decode`);
    return buildScorerInput(collectRunFacts(decoded.data, source, runTraceContext(untracedMessage(message), decoded.data).facts));
  });
  const scorersSeconds = await perUnit(options.passes, events, async () => {
    for (const input of inputs) for (const scorer of options.scorers) await scorer.run(input);
  });

  const records = await publishedRecords(messages, options.scorers);
  const recordsSeconds = await perUnit(options.passes, events, () => {
    for (const record of records) JSON.stringify(record);
  });

  const spans = await recordServiceSpans(messages.slice(0, options.tracedEvents), options.scorers);
  const batchSize = 2_048; // the benchmark's (c+tracing) export batch
  let bytes = 0;
  const serializeSecondsPerSpan = await perUnit(4, spans.length, () => {
    bytes = 0;
    for (let start = 0; start < spans.length; start += batchSize) bytes += ProtobufTraceSerializer.serializeRequest(spans.slice(start, start + batchSize))?.byteLength ?? 0;
  });
  const tracedEvents = Math.min(events, options.tracedEvents);
  const sdkSecondsPerEvent = await replayThroughSdk(spans, tracedEvents, batchSize);
  return {
    events: events * Math.max(1, options.passes - 1),
    decodeSeconds,
    scorersSeconds,
    recordsSeconds,
    recordsPerEvent: records.length / Math.max(1, events),
    spans: { events: tracedEvents, count: spans.length, perEvent: spans.length / Math.max(1, tracedEvents), serializeSecondsPerSpan, sdkSecondsPerEvent, bytesPerSpan: bytes / Math.max(1, spans.length), batchSize },
  };
}

/** The SDK's own work for `spans` (see FloorsResult.spans.sdkSecondsPerEvent), in main-thread CPU seconds per event. */
async function replayThroughSdk(spans: readonly ReadableSpan[], events: number, batchSize: number): Promise<number> {
  const serializing: SpanExporter = {
    export(batch, done) {
      ProtobufTraceSerializer.serializeRequest(batch);
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: async () => undefined,
  };
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: serializing, maxQueueSize: 65_536, maxExportBatchSize: batchSize, scheduledDelayMillis: 1_000 })] });
  const tracer = provider.getTracer('scorestream');
  const replay = async () => {
    for (const span of spans) {
      const parent = span.parentSpanContext === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, span.parentSpanContext);
      const replayed = tracer.startSpan(span.name, { kind: span.kind, links: span.links }, parent);
      replayed.setAttributes(span.attributes);
      for (const event of span.events) replayed.addEvent(event.name, event.attributes);
      replayed.end();
    }
    await provider.forceFlush();
  };
  try {
    return await perUnit(4, events, replay);
  } finally {
    await provider.shutdown();
  }
}

/**
 * The spans the service records for these messages, as scoring-consumer.ts runs them by default:
 * no process span (SCORESTREAM_TRACE_PROCESS_SPANS), each score span a child of the run's context.
 */
async function recordServiceSpans(messages: readonly KafkaMessage[], scorers: readonly ScorerLike[]): Promise<ReadableSpan[]> {
  const ended: ReadableSpan[] = [];
  const provider = new TracerProvider({
    spanProcessors: [{ onStart: () => undefined, onEnd: (span) => void ended.push(span), forceFlush: async () => undefined, shutdown: async () => undefined }],
  });
  try {
    if (!context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()) || !trace.setGlobalTracerProvider(provider)) {
      throw new Error('benchmark floors: an OpenTelemetry global was already registered; run them in a clean process');
    }
    const messageContext = serviceMessageContext(scorers);
    const output: MessageOutput = { publish: async () => undefined };
    const partition = createMessagePath(messageContext).partition(runEventSource);
    for (const message of messages) await partition.process(message, { source: { ...source, offset: message.offset }, output, trace: untracedMessage(message) });
    return ended;
  } finally {
    await provider.shutdown();
    trace.disable();
    context.disable();
  }
}

// The trace context of one consumed message, built in this one place, in two stages because the
// consumer opens its span before the body is decoded:
//   1. startMessageTrace (the scoring consumer, before decoding): the agent run's context as the
//      W3C headers carry it, and — only with SCORESTREAM_TRACE_PROCESS_SPANS — the consumer's
//      `process {topic}` span linked to it: a root span, as messaging conventions have it for
//      consumers that do their own work (untracedMessage otherwise);
//   2. runTraceContext (the run-event source, after decoding): the event's `trace` body field where
//      the headers brought no span context (producers that cannot set headers), and the process
//      span linked to that too.
// What stage 2 returns is handed down as is: its context is the parent of every score span and
// its facts (trace id, span id, sampled) are the run's (src/engine/pipeline/run-facts.ts). The W3C
// extraction itself is otel/run-trace-context.ts (docs/observability.md, traces).
import { ROOT_CONTEXT, SpanKind, trace as otelTrace } from '@opentelemetry/api';
import type { Link, Span, Tracer } from '@opentelemetry/api';
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import type { AgentRunEvent } from '../src/kit/contracts/agent-run-event.ts';
import { extractHeaderTraceContext, withBodyTraceContext } from '../otel/run-trace-context.ts';
import type { RunTraceContext } from '../otel/run-trace-context.ts';

export type MessageTrace = {
  /** The consumer's `process {topic}` span; none when a message is processed without one (benchmarks, tests). */
  readonly span: Span | undefined;
  /** The agent run's context as far as the headers tell it. */
  readonly fromHeaders: RunTraceContext;
};

/** Stage 1: reads the headers' context and starts the message's process span (the caller ends it). */
export function startMessageTrace(tracer: Tracer, message: ConsumedMessage, where: { topic: string; partition: number; groupId: string }): MessageTrace & { readonly span: Span } {
  const fromHeaders = extractHeaderTraceContext(message.headers);
  const producing = otelTrace.getSpanContext(fromHeaders.context);
  const links: Link[] = producing === undefined ? [] : [{ context: producing }];
  const span = tracer.startSpan(
    `process ${where.topic}`,
    {
      kind: SpanKind.CONSUMER,
      root: true,
      links,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.name': 'process',
        'messaging.operation.type': 'process',
        'messaging.destination.name': where.topic,
        'messaging.destination.partition.id': String(where.partition),
        'messaging.kafka.offset': Number(message.offset),
        'messaging.consumer.group.name': where.groupId,
        ...(message.key === null ? {} : { 'messaging.kafka.message.key': message.key.toString('utf8') }),
        ...(message.value === null ? {} : { 'messaging.message.body.size': message.value.length }),
      },
    },
    ROOT_CONTEXT,
  );
  return { span, fromHeaders };
}

/**
 * Stage 1 without a process span: the consumer's default (a span per message costs about a quarter
 * of what tracing costs per event, and the trace contract does not need it: docs/observability.md),
 * and processing outside the consumer (benchmarks, tests).
 */
export function untracedMessage(message: ConsumedMessage): MessageTrace {
  return { span: undefined, fromHeaders: extractHeaderTraceContext(message.headers) };
}

/** Stage 2: the run's trace context, once the event is decoded; links the process span to a context found in the body. */
export function runTraceContext(trace: MessageTrace, event: AgentRunEvent): RunTraceContext {
  const context = withBodyTraceContext(trace.fromHeaders, event.trace);
  if (context.source === 'body' && trace.span?.isRecording() === true) {
    // The process span could only link what the headers carried; the body's context is linked now.
    const producing = otelTrace.getSpanContext(context.context);
    if (producing !== undefined) trace.span.addLink({ context: producing });
  }
  return context;
}

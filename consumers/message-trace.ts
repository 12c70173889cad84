// The consumer's `process {topic}` span of one message: a root span (messaging conventions for
// consumers that do their own work) linked to the producing context found in the headers. The
// body is not decoded yet, so only the headers count here (extracted once by the caller, who
// hands them on to processRunMessage).
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { Link, Span, Tracer } from '@opentelemetry/api';
import type { KafkaMessage } from 'kafkajs';
import type { RunTraceContext } from '../otel/run-trace-context.ts';

export function startProcessSpan(tracer: Tracer, message: KafkaMessage, where: { topic: string; partition: number; groupId: string }, fromHeaders: RunTraceContext): Span {
  const producing = trace.getSpanContext(fromHeaders.context);
  const links: Link[] = producing === undefined ? [] : [{ context: producing }];
  return tracer.startSpan(
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
}

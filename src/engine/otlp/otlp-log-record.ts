// OpenTelemetry log records on the OTLP input (docs/otlp.md, "Content on the logs signal"): the
// GenAI instrumentations' log-based events (`gen_ai.client.inference.operation.details`,
// `gen_ai.user.message`, `gen_ai.choice`, …; Google ADK, Semantic Kernel, openai-v2 in EVENT_ONLY)
// carry a model call's content on the logs signal, correlated to its span by trace and span id.
// The Collector writes them to the same topic as the spans, keyed by trace id
// (partition_logs_by_trace_id), so a trace's records and spans share a partition and its assembly.
//
// A record travels the assembly as a carrier span: a child of the span it belongs to, holding the
// record as its one event, with an id made from the record's content (so a record delivered twice
// is kept once, as a span is). The trace assembler needs nothing new: carriers count against its
// caps, a late one is dropped as late, their messages commit behind the trace's work. When the
// trace closes, attachLogRecords moves each record onto its span as a span event — exactly what the
// older span-event content looks like, so the same readers read it (span-content.ts) — and counts
// the records whose span never arrived.
import { createHash } from 'node:crypto';
import type { OtlpAttributes, OtlpSpan, OtlpSpanEvent, OtlpValue } from './otlp-span.ts';
import { NO_ATTRIBUTES, spanStatus } from './span-parts.ts';

/** One log record as read from either encoding. */
export type OtlpLogRecord = {
  traceId: string;
  spanId: string;
  timeMs: number;
  /** The record's `event_name`, else its `event.name` attribute (older SDKs), else ''. */
  eventName: string;
  attributes: OtlpAttributes;
  body: OtlpValue;
  resource: OtlpAttributes;
  scope?: string;
};

const CARRIER_NAME = 'scorestream.log_record';
const CARRIER_PREFIX = 'log-';

export function isLogRecordCarrier(span: OtlpSpan): boolean {
  return span.spanId.startsWith(CARRIER_PREFIX) && span.name === CARRIER_NAME;
}

/**
 * The record as a span event: its name, and its attributes with the body's fields beside them (a
 * structured body — the per-message GenAI events put `content`, `role`, `tool_calls`, `message`
 * there; Semantic Kernel a JSON string of one — reads as the span events of old; any other body as
 * `body`). An attribute wins over a
 * body field of the same name.
 */
export function logRecordEvent(record: OtlpLogRecord): OtlpSpanEvent {
  const name = record.eventName !== '' ? record.eventName : typeof record.attributes['event.name'] === 'string' ? record.attributes['event.name'] : '';
  // Semantic Kernel writes its per-message events' body as a JSON string: read as the map it encodes.
  const body = typeof record.body === 'string' ? jsonObjectOr(record.body) : record.body;
  const fromBody: OtlpAttributes = body === null ? {} : typeof body === 'object' && !Array.isArray(body) ? body : { body };
  return { name, timeMs: record.timeMs, attributes: { ...fromBody, ...record.attributes } };
}

/** A string that is a JSON object, as that object; any other string as it is. */
function jsonObjectOr(text: string): OtlpValue {
  if (!text.startsWith('{')) return text;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as OtlpAttributes) : text;
  } catch {
    return text;
  }
}

/**
 * Whether a carrier holds GenAI content: a `gen_ai.*` event, or `gen_ai.*` attributes (or body
 * fields). An app's ordinary log line, which a logs pipeline carries beside them, is none: the
 * OTLP source drops it before the assembly (docs/otlp.md, "Content on the logs signal").
 */
export function carriesGenAiContent(carrier: OtlpSpan): boolean {
  const [event] = carrier.events;
  if (event === undefined) return false;
  return event.name.startsWith('gen_ai.') || Object.keys(event.attributes).some((key) => key.startsWith('gen_ai.'));
}

/** The record as a carrier span under its span; its id a hash of the record, so a redelivered record is the same span. */
export function logRecordCarrier(record: OtlpLogRecord): OtlpSpan {
  const event = logRecordEvent(record);
  const digest = createHash('sha256').update(`${record.traceId}/${record.spanId}/${record.timeMs}/${event.name}/${JSON.stringify(event.attributes)}`).digest('hex').slice(0, 24);
  const carrier: OtlpSpan = {
    traceId: record.traceId,
    spanId: `${CARRIER_PREFIX}${digest}`,
    parentSpanId: record.spanId,
    name: CARRIER_NAME,
    startTimeMs: record.timeMs,
    endTimeMs: record.timeMs,
    attributes: NO_ATTRIBUTES,
    events: [event],
    status: spanStatus(0, ''),
    resource: record.resource,
  };
  if (record.scope !== undefined) carrier.scope = record.scope;
  return carrier;
}

/**
 * A closed trace's spans with every carried record moved onto its span as an event (in a copy of the span) (after the
 * span's own events, all in time order), and how many records had no span of theirs in the trace.
 */
export function attachLogRecords(spans: readonly OtlpSpan[]): { spans: OtlpSpan[]; orphans: number } {
  if (!spans.some(isLogRecordCarrier)) return { spans: spans as OtlpSpan[], orphans: 0 };
  const own = spans.filter((span) => !isLogRecordCarrier(span));
  const byId = new Map(own.map((span) => [span.spanId, span]));
  const carried = new Map<OtlpSpan, OtlpSpanEvent[]>();
  let orphans = 0;
  for (const carrier of spans) {
    if (!isLogRecordCarrier(carrier)) continue;
    const span = byId.get(carrier.parentSpanId!);
    if (span === undefined) {
      orphans += 1;
      continue;
    }
    carried.set(span, [...(carried.get(span) ?? []), ...carrier.events]);
  }
  // New span objects: the trace's own stay as they arrived (another reading of them attaches again, not twice).
  const attached = own.map((span) => {
    const events = carried.get(span);
    return events === undefined ? span : { ...span, events: [...span.events, ...events].sort((a, b) => a.timeMs - b.timeMs) };
  });
  return { spans: attached, orphans };
}

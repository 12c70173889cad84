// One OpenTelemetry span as the OTLP input sees it after decoding: ids as W3C hex, times in
// epoch milliseconds, attributes as plain JSON values, and its resource's attributes beside it.
// Both encodings of the Collector's Kafka exporter (otlp_proto, otlp_json) decode to this shape
// (decode-otlp.ts), and trace assembly (trace-assembler.ts) and the run mapping
// (run-from-trace.ts) read only this.

/** An attribute value: OTLP's AnyValue as JSON (int64 values become numbers, bytes base64). */
export type OtlpValue = string | number | boolean | null | OtlpValue[] | { [key: string]: OtlpValue };

export type OtlpAttributes = Record<string, OtlpValue>;

export type OtlpSpanEvent = { name: string; timeMs: number; attributes: OtlpAttributes };

/** OTLP's status codes: 0 unset, 1 ok, 2 error. */
export type OtlpStatus = { code: 0 | 1 | 2; message?: string };

export type OtlpSpan = {
  traceId: string;
  spanId: string;
  /** Absent on a trace's root span. */
  parentSpanId?: string;
  traceState?: string;
  name: string;
  startTimeMs: number;
  endTimeMs: number;
  attributes: OtlpAttributes;
  events: OtlpSpanEvent[];
  status: OtlpStatus;
  /** The attributes of the resource that emitted the span (service.name, ...). */
  resource: OtlpAttributes;
  /** The instrumentation scope's name (e.g. the tracer name of the AI SDK integration). */
  scope?: string;
};

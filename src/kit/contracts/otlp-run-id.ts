// The run id the OTLP input gives an agent span (docs/otlp.md): its trace id and span id, so
// re-assembling the same trace gives the same run id and so the same scoreIds, and feedback on a
// trace (`target: { type: 'trace' }`) is keyed like the run's records (record-key.ts).
export function runIdOf(span: { readonly traceId: string; readonly spanId: string }): string {
  return `${span.traceId}-${span.spanId}`;
}

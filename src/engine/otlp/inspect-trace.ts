// What `scorestream otlp inspect` shows of one trace: the runs the OTLP input makes of it (the very
// same mapping, find-runs.ts and run-from-trace.ts), which rule found each, what each carries, and
// which of their spans' attributes and events no part of the mapping read — the first thing to
// look at when an agent is not scored (docs/otlp.md, "Seeing why"). Reads are counted by handing
// the mapping spans whose attribute maps record every key looked up; the mapping reads by key and
// never enumerates values wholesale, so an attribute not looked up was not used.
import { findRuns } from './find-runs.ts';
import type { ClassifiedSpan, RunFindingOptions } from './find-runs.ts';
import type { OtlpAttributes, OtlpSpan } from './otlp-span.ts';
import { attachLogRecords } from './otlp-log-record.ts';
import { assembleRun } from './run-from-trace.ts';
import type { AssembledRun } from './run-from-trace.ts';

export type InspectedRun = {
  run: AssembledRun;
  /** The run's spans (its own first), with their role and convention. */
  spans: ClassifiedSpan[];
  /** Attribute keys no reader looked up, numeric segments as `*`, with how many spans had them. */
  unmapped: Array<{ key: string; spans: number }>;
};

export type InspectedTrace = {
  traceId: string;
  spanCount: number;
  runs: InspectedRun[];
  /** Spans outside every run. */
  outside: ClassifiedSpan[];
  /** Why the trace yields no run, as the service would decide it. */
  noRun?: { reason: 'not_an_agent_trace' | 'incomplete_trace'; detail: string };
};

/** A copy of the span whose attribute maps (its own, its events') record each key read into `reads`. */
function recording(span: OtlpSpan, reads: Set<string>): OtlpSpan {
  const watch = (attributes: OtlpAttributes, prefix: string): OtlpAttributes =>
    new Proxy(attributes, {
      get(target, key, receiver) {
        if (typeof key === 'string') reads.add(`${prefix}${key}`);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  return {
    ...span,
    attributes: watch(span.attributes, `${span.spanId}:`),
    events: span.events.map((event) => ({ ...event, attributes: watch(event.attributes, `${span.spanId}:event:${event.name}:`) })),
  };
}

export function inspectTrace(received: readonly OtlpSpan[], options: RunFindingOptions): InspectedTrace {
  const reads = new Set<string>();
  // Log records on their spans, as the service joins them (otlp-log-record.ts).
  const spans = attachLogRecords(received).spans;
  const watched = spans.map((span) => recording(span, reads));
  const found = findRuns(watched, options);
  const runs = found.runs.map((run) => {
    const assembled = assembleRun(run);
    const runSpans = [found.classified.get(run.span.spanId)!, ...run.own];
    return { run: assembled, spans: runSpans, unmapped: [] as InspectedRun['unmapped'] };
  });
  // Reads of every run are in before any run's unmapped keys are counted (runs share no span).
  for (const inspected of runs) inspected.unmapped = unmappedKeys(inspected.spans, reads);
  const traceId = spans[0]?.traceId ?? '';
  const rootArrived = spans.some((span) => span.parentSpanId === undefined);
  const noRun =
    runs.length > 0
      ? undefined
      : rootArrived
        ? { reason: 'not_an_agent_trace' as const, detail: `no agent span (GenAI invoke_agent, OpenInference AGENT, OpenLLMetry agent, ai.generateText / ai.streamText)${options.rootSpanRuns ? ' and no model call under the root span' : ', and rootSpanRuns is off'}` }
        : { reason: 'incomplete_trace' as const, detail: 'neither an agent span nor the root span is in the trace (the service waits idleTimeoutMs for them)' };
  return { traceId, spanCount: spans.length, runs, outside: found.outside, ...(noRun === undefined ? {} : { noRun }) };
}

/**
 * The attributes and events of the run's spans that no reader looked up on any of its spans (one
 * model call's usage read stands for the same key on the others), numeric segments as `*`.
 */
function unmappedKeys(spans: readonly ClassifiedSpan[], reads: ReadonlySet<string>): InspectedRun['unmapped'] {
  const pattern = (key: string) => key.replace(/\.\d+(?=\.|$)/g, '.*');
  const read = new Set<string>();
  const present = new Map<string, Set<string>>();
  const note = (key: string, spanId: string, wasRead: boolean) => {
    if (wasRead) read.add(key);
    const spansWith = present.get(key) ?? new Set<string>();
    spansWith.add(spanId);
    present.set(key, spansWith);
  };
  for (const { span } of spans) {
    for (const key of Object.keys(span.attributes)) note(pattern(key), span.spanId, reads.has(`${span.spanId}:${key}`));
    for (const event of span.events) {
      const prefix = `${span.spanId}:event:${event.name}:`;
      note(`event ${event.name}`, span.spanId, Object.keys(event.attributes).some((key) => reads.has(`${prefix}${key}`)));
    }
  }
  return [...present]
    .filter(([key]) => !read.has(key))
    .map(([key, spansWith]) => ({ key, spans: spansWith.size }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

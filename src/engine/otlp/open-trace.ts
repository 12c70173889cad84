// An open trace as the trace assembler (trace-assembler.ts) holds it, and the two operations on its
// spans that run for every span added: finding a span id, and appending a span with its owner.
import type { OtlpSpan } from './otlp-span.ts';

// A trace is held as compactly as assembly allows (the spans of every message in flight stay
// here until their traces close, so their size is the garbage collector's work): its spans in one
// array, their owners only once a second owner contributed, a span-id index only once a scan
// would cost more than it.
export type OpenTrace<Owner> = {
  readonly traceId: string;
  readonly openedAt: number;
  /** In arrival order, each span id once. */
  spans: OtlpSpan[];
  /** The owner of each span, beside `spans`: only once an owner other than `owners[0]` added one. */
  spanOwners: Owner[] | undefined;
  /** Span id → its place in `spans`: only once the trace holds INDEXED_FROM spans. */
  index: Map<string, number> | undefined;
  readonly owners: Owner[];
  lastArrivalAt: number;
  /** When the latest agent or root span arrived; the trace is ready `gracePeriodMs` after. */
  readyAt: number | undefined;
  rootArrived: boolean;
  /** Which queue entry is the trace's current one (the latest move of its deadline); 0 once closed. */
  dueEntry: number;
  /** The add that last touched the trace; -1 once closed. */
  touchedIn: number;
};

/** Below this many spans a trace finds a span id by a scan of its spans. */
const INDEXED_FROM = 16;

export function indexOfSpan(trace: OpenTrace<unknown>, spanId: string): number {
  if (trace.index !== undefined) return trace.index.get(spanId) ?? -1;
  const { spans } = trace;
  for (let index = 0; index < spans.length; index += 1) if (spans[index]!.spanId === spanId) return index;
  return -1;
}

export function appendSpan<Owner>(trace: OpenTrace<Owner>, span: OtlpSpan, owner: Owner): void {
  const { spans } = trace;
  if (trace.spanOwners !== undefined) trace.spanOwners.push(owner);
  else if (owner !== trace.owners[0]) {
    trace.spanOwners = new Array<Owner>(spans.length).fill(trace.owners[0]!);
    trace.spanOwners.push(owner);
  }
  // A push reserves 16 slots more, and most traces hold two or three spans: up to three, an array of the exact size.
  if (spans.length === 0) trace.spans = [span];
  else if (spans.length === 1) trace.spans = [spans[0]!, span];
  else if (spans.length === 2) trace.spans = [spans[0]!, spans[1]!, span];
  else spans.push(span);
  if (trace.index !== undefined) trace.index.set(span.spanId, trace.spans.length - 1);
  else if (trace.spans.length === INDEXED_FROM) trace.index = new Map(trace.spans.map((held, index) => [held.spanId, index]));
}

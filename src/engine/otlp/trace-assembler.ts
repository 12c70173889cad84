// Trace assembly for the OTLP input: spans arrive in batches, a trace's spans spread over several
// batches (and Kafka messages), and an agent run is only complete once its agent span and its
// descendants are in. This buffers spans per trace and says when each trace is closed:
//   - ready:    a run-defining span (agent span or root span) arrived, plus the grace period for
//               descendants exported in later batches; a later such span extends it;
//   - idle:     no span for `idleTimeoutMs` and none of the above (a trace that never finishes);
//   - overflow: the open-trace cap was reached (the oldest trace is closed to make room) or the
//               trace reached its span cap.
// Spans of a trace closed a short while ago are late: they are counted and dropped rather than
// opening a new trace that could only ever time out. Everything is bounded: open traces, spans per
// trace, and the memory of closed trace ids. Pure: no timers; the caller passes `now` and calls
// closeDue() when nextDeadline() comes (consumers/otlp-source.ts). Each add names an `owner` (the
// Kafka message the spans came from); a closed trace lists its owners so their offsets can be
// committed once the trace's runs are done (docs/delivery.md). One assembler holds one claimed
// partition's traces; a caller with several keeps them within one open-trace cap together
// (tracesToOpen, oldestOpenedAt, closeOldest).
//
// Finding what is due costs O(1) per trace, not a pass over every open trace per message: the two
// deadlines are the last arrival plus idleTimeoutMs and the last run-defining span plus
// gracePeriodMs, so appending a trace to the queue of its kind whenever its deadline moves keeps
// each queue in deadline order (due-queue.ts). That order takes time that does not go backwards:
// an earlier `now` than one already seen counts as the latest seen (a clock stepped back delays a
// close by the step; it never closes a trace early). How a trace's spans are held: open-trace.ts.
import { DueQueue } from './due-queue.ts';
import { appendSpan, indexOfSpan } from './open-trace.ts';
import type { OpenTrace } from './open-trace.ts';
import type { OtlpSpan } from './otlp-span.ts';

export type TraceAssemblyLimits = {
  /** Wait after a run-defining span for descendants exported in later batches. */
  gracePeriodMs: number;
  /** Close a trace that saw no span for this long and never became ready. */
  idleTimeoutMs: number;
  maxOpenTraces: number;
  maxSpansPerTrace: number;
};

export type CloseReason = 'ready' | 'idle' | 'overflow';

export type ClosedTrace<Owner> = {
  traceId: string;
  reason: CloseReason;
  /** In arrival order; a span delivered twice (a re-read message) is kept once. */
  spans: OtlpSpan[];
  /** Every owner that contributed spans, in order of first contribution. */
  owners: Owner[];
  /** The owner whose spans included each span id (the run's records go out with the agent span's message). */
  ownerOf(spanId: string): Owner | undefined;
  /** Whether the trace's root span (no parent) arrived. */
  rootArrived: boolean;
};

export type AddResult<Owner> = {
  /** Traces this add touched that are still open (the owner now waits for them). */
  openedOrJoined: string[];
  /** Spans dropped as late: their trace was closed already. */
  lateSpans: number;
  /** Traces closed by this add because a cap was reached. */
  overflowed: ClosedTrace<Owner>[];
};

export class TraceAssembler<Owner> {
  private readonly open = new Map<string, OpenTrace<Owner>>();
  /** Open traces without a run-defining span, in order of their last arrival (so of their idle deadline). */
  private readonly waitingIdle = new DueQueue<Owner>();
  /** Open traces with one, in order of the latest such span's arrival (so of their grace deadline). */
  private readonly waitingReady = new DueQueue<Owner>();
  private dueEntries = 0;
  private adds = 0;
  private latestNow = -Infinity;
  /**
   * Times inside are ms since the first `now` seen: small integers, which V8 keeps in the trace
   * itself where an epoch time takes a boxed number per field. Every time in or out is epoch ms.
   */
  private origin = 0;
  /** Recently closed trace ids, oldest first, at most maxOpenTraces of them. */
  private readonly closed = new Set<string>();
  private spanCount = 0;

  private readonly limits: TraceAssemblyLimits;
  private readonly isRunSpan: (span: OtlpSpan) => boolean;

  /** `isRunSpan`: whether a span defines a run (an agent span); such a span starts the grace period. */
  constructor(limits: TraceAssemblyLimits, isRunSpan: (span: OtlpSpan) => boolean) {
    this.limits = limits;
    this.isRunSpan = isRunSpan;
  }

  get openTraces(): number {
    return this.open.size;
  }

  get bufferedSpans(): number {
    return this.spanCount;
  }

  add(spans: readonly OtlpSpan[], owner: Owner, at: number): AddResult<Owner> {
    const now = this.monotonic(at);
    const add = ++this.adds;
    /** Traces this add touched, in order of first touch (a closed one is marked, not removed). */
    const touched: Array<OpenTrace<Owner>> = [];
    const overflowed: ClosedTrace<Owner>[] = [];
    let lateSpans = 0;
    // The spans of a trace mostly come one after another: the previous span's trace, while open, is found without a lookup.
    let previous: OpenTrace<Owner> | undefined;
    for (const span of spans) {
      let trace = previous !== undefined && previous.traceId === span.traceId && previous.touchedIn !== -1 ? previous : this.open.get(span.traceId);
      if (trace === undefined) {
        // An open trace is never among the closed ones (a closed id is forgotten before its trace can open again).
        if (this.closed.has(span.traceId)) {
          lateSpans += 1;
          continue;
        }
        if (this.open.size >= this.limits.maxOpenTraces) overflowed.push(this.close(this.open.values().next().value!, 'overflow'));
        trace = { traceId: span.traceId, openedAt: now, spans: [], spanOwners: undefined, index: undefined, owners: [owner], lastArrivalAt: now, readyAt: undefined, rootArrived: false, dueEntry: 0, touchedIn: 0 };
        this.open.set(span.traceId, trace);
      } else if (!trace.owners.includes(owner)) trace.owners.push(owner);
      previous = trace;
      trace.lastArrivalAt = now;
      if (indexOfSpan(trace, span.spanId) < 0) {
        appendSpan(trace, span, owner);
        this.spanCount += 1;
      }
      if (span.parentSpanId === undefined) trace.rootArrived = true;
      if (span.parentSpanId === undefined || this.isRunSpan(span)) trace.readyAt = now;
      if (trace.touchedIn !== add) {
        trace.touchedIn = add;
        touched.push(trace);
      }
      if (trace.spans.length >= this.limits.maxSpansPerTrace) overflowed.push(this.close(trace, 'overflow'));
    }
    // Once per touched trace, not per span: its deadline moved to `now`, the latest time of all, so it goes last.
    const openedOrJoined: string[] = [];
    for (const trace of touched) {
      if (trace.touchedIn === -1) continue; // closed by a cap meanwhile
      openedOrJoined.push(trace.traceId);
      if (trace.readyAt !== undefined && trace.readyAt !== now) continue; // ready before: its deadline did not move
      trace.dueEntry = ++this.dueEntries;
      (trace.readyAt === undefined ? this.waitingIdle : this.waitingReady).push(trace, trace.dueEntry);
    }
    this.waitingIdle.compact(this.open.size);
    this.waitingReady.compact(this.open.size);
    return { openedOrJoined, lateSpans, overflowed };
  }

  /** How many traces `spans` would open: trace ids neither open nor closed a short while ago. */
  tracesToOpen(spans: readonly OtlpSpan[]): number {
    const ids = new Set<string>();
    for (const span of spans) if (!this.open.has(span.traceId) && !this.closed.has(span.traceId)) ids.add(span.traceId);
    return ids.size;
  }

  /** When the oldest open trace opened, or undefined when none is open. */
  oldestOpenedAt(): number | undefined {
    const oldest = this.open.values().next().value;
    return oldest === undefined ? undefined : this.origin + oldest.openedAt;
  }

  /** Closes the oldest open trace as an overflow, to make room for another assembler's (undefined when none is open). */
  closeOldest(): ClosedTrace<Owner> | undefined {
    const oldest = this.open.values().next().value;
    return oldest === undefined ? undefined : this.close(oldest, 'overflow');
  }

  /** When the next open trace is due (epoch ms), or undefined when none is open. */
  nextDeadline(): number | undefined {
    const idle = this.waitingIdle.first();
    const ready = this.waitingReady.first();
    if (idle === undefined) return ready === undefined ? undefined : this.origin + this.dueAt(ready);
    return this.origin + (ready === undefined ? this.dueAt(idle) : Math.min(this.dueAt(idle), this.dueAt(ready)));
  }

  /** Closes and returns every trace due at `now`, earliest deadline first. */
  closeDue(at: number): ClosedTrace<Owner>[] {
    const now = this.monotonic(at);
    const due: ClosedTrace<Owner>[] = [];
    for (;;) {
      const idle = this.waitingIdle.first();
      const ready = this.waitingReady.first();
      const next = idle === undefined ? ready : ready === undefined ? idle : this.dueAt(idle) <= this.dueAt(ready) ? idle : ready;
      if (next === undefined || this.dueAt(next) > now) return due;
      due.push(this.close(next, next.readyAt === undefined ? 'idle' : 'ready'));
    }
  }

  /** Closes every open trace at once (nothing to wait for any more: e.g. a drain in a test or benchmark). */
  closeAll(): ClosedTrace<Owner>[] {
    return [...this.open.values()].map((trace) => this.close(trace, trace.readyAt === undefined ? 'idle' : 'ready'));
  }

  private dueAt(trace: OpenTrace<Owner>): number {
    return trace.readyAt === undefined ? trace.lastArrivalAt + this.limits.idleTimeoutMs : trace.readyAt + this.limits.gracePeriodMs;
  }

  /** `now` as a time inside (since the origin), never earlier than one seen before. */
  private monotonic(now: number): number {
    if (this.latestNow === -Infinity) this.origin = now;
    if (now > this.latestNow) this.latestNow = now;
    return this.latestNow - this.origin;
  }

  private close(trace: OpenTrace<Owner>, reason: CloseReason): ClosedTrace<Owner> {
    this.open.delete(trace.traceId);
    trace.dueEntry = 0;
    trace.touchedIn = -1;
    this.spanCount -= trace.spans.length;
    this.closed.add(trace.traceId);
    if (this.closed.size > this.limits.maxOpenTraces) this.closed.delete(this.closed.values().next().value!);
    return {
      traceId: trace.traceId,
      reason,
      // The trace is closed: nothing changes its spans any more.
      spans: trace.spans,
      owners: trace.owners,
      ownerOf: (spanId) => {
        const index = indexOfSpan(trace, spanId);
        return index < 0 ? undefined : trace.spanOwners === undefined ? trace.owners[0] : trace.spanOwners[index];
      },
      rootArrived: trace.rootArrived,
    };
  }
}

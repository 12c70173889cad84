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
// each queue in deadline order; an entry left behind by a later move, or by a close, is skipped
// when it reaches the head (DueQueue). Arrays, not a Map re-inserted on each move: a Map's
// iterator walks over the deleted entries at its front, which made each look at the head cost a
// pass over the traces closed since the table was last rebuilt. That order takes time that does
// not go backwards: an earlier `now` than one already seen counts as the latest seen (a clock
// stepped back delays a close by the step; it never closes a trace early).
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

type OpenTrace<Owner> = {
  traceId: string;
  openedAt: number;
  spans: Map<string, { span: OtlpSpan; owner: Owner }>;
  owners: Owner[];
  lastArrivalAt: number;
  /** When the latest agent or root span arrived; the trace is ready `gracePeriodMs` after. */
  readyAt: number | undefined;
  rootArrived: boolean;
  /** Which queue entry is the trace's current one (the latest move of its deadline); 0 once closed. */
  dueEntry: number;
};

/** Traces in the order their deadlines were last moved, the stale entries skipped at the head. */
class DueQueue<Owner> {
  private entries: Array<{ trace: OpenTrace<Owner>; entry: number }> = [];
  private head = 0;

  push(trace: OpenTrace<Owner>, entry: number): void {
    this.entries.push({ trace, entry });
  }

  /** The trace whose deadline comes first, stale entries dropped on the way. */
  first(): OpenTrace<Owner> | undefined {
    const { entries } = this;
    while (this.head < entries.length && entries[this.head]!.entry !== entries[this.head]!.trace.dueEntry) this.head += 1;
    if (this.head === entries.length) {
      this.entries = [];
      this.head = 0;
      return undefined;
    }
    // Dropped entries are given back once they are half the array (amortised O(1)).
    if (this.head > 1_024 && this.head * 2 > entries.length) {
      this.entries = entries.slice(this.head);
      this.head = 0;
    }
    return this.entries[this.head]!.trace;
  }

  /** Rebuilt without stale entries when they outnumber the live ones (a trace moved many times). */
  compact(live: number): void {
    if (this.entries.length - this.head <= 2 * live + 1_024) return;
    this.entries = this.entries.slice(this.head).filter(({ trace, entry }) => trace.dueEntry === entry);
    this.head = 0;
  }
}

export class TraceAssembler<Owner> {
  private readonly open = new Map<string, OpenTrace<Owner>>();
  /** Open traces without a run-defining span, in order of their last arrival (so of their idle deadline). */
  private readonly waitingIdle = new DueQueue<Owner>();
  /** Open traces with one, in order of the latest such span's arrival (so of their grace deadline). */
  private readonly waitingReady = new DueQueue<Owner>();
  private dueEntries = 0;
  private latestNow = -Infinity;
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
    const touched = new Set<string>();
    const overflowed: ClosedTrace<Owner>[] = [];
    let lateSpans = 0;
    for (const span of spans) {
      if (this.closed.has(span.traceId)) {
        lateSpans += 1;
        continue;
      }
      let trace = this.open.get(span.traceId);
      if (trace === undefined) {
        if (this.open.size >= this.limits.maxOpenTraces) {
          const oldest = this.open.values().next().value!;
          overflowed.push(this.close(oldest, 'overflow'));
          touched.delete(oldest.traceId);
        }
        trace = { traceId: span.traceId, openedAt: now, spans: new Map(), owners: [], lastArrivalAt: now, readyAt: undefined, rootArrived: false, dueEntry: 0 };
        this.open.set(span.traceId, trace);
      }
      if (!trace.owners.includes(owner)) trace.owners.push(owner);
      trace.lastArrivalAt = now;
      if (!trace.spans.has(span.spanId)) {
        trace.spans.set(span.spanId, { span, owner });
        this.spanCount += 1;
      }
      if (span.parentSpanId === undefined) trace.rootArrived = true;
      if (span.parentSpanId === undefined || this.isRunSpan(span)) trace.readyAt = now;
      touched.add(span.traceId);
      if (trace.spans.size >= this.limits.maxSpansPerTrace) {
        overflowed.push(this.close(trace, 'overflow'));
        touched.delete(trace.traceId);
      }
    }
    // Once per touched trace, not per span: its deadline moved to `now`, the latest time of all, so it goes last.
    for (const traceId of touched) {
      const trace = this.open.get(traceId)!;
      if (trace.readyAt !== undefined && trace.readyAt !== now) continue; // ready before: its deadline did not move
      trace.dueEntry = ++this.dueEntries;
      (trace.readyAt === undefined ? this.waitingIdle : this.waitingReady).push(trace, trace.dueEntry);
    }
    this.waitingIdle.compact(this.open.size);
    this.waitingReady.compact(this.open.size);
    return { openedOrJoined: [...touched], lateSpans, overflowed };
  }

  /** How many traces `spans` would open: trace ids neither open nor closed a short while ago. */
  tracesToOpen(spans: readonly OtlpSpan[]): number {
    const ids = new Set<string>();
    for (const span of spans) if (!this.open.has(span.traceId) && !this.closed.has(span.traceId)) ids.add(span.traceId);
    return ids.size;
  }

  /** When the oldest open trace opened, or undefined when none is open. */
  oldestOpenedAt(): number | undefined {
    return this.open.values().next().value?.openedAt;
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
    if (idle === undefined) return ready === undefined ? undefined : this.dueAt(ready);
    return ready === undefined ? this.dueAt(idle) : Math.min(this.dueAt(idle), this.dueAt(ready));
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

  private monotonic(now: number): number {
    if (now > this.latestNow) this.latestNow = now;
    return this.latestNow;
  }

  private close(trace: OpenTrace<Owner>, reason: CloseReason): ClosedTrace<Owner> {
    this.open.delete(trace.traceId);
    trace.dueEntry = 0;
    this.spanCount -= trace.spans.size;
    this.closed.add(trace.traceId);
    if (this.closed.size > this.limits.maxOpenTraces) this.closed.delete(this.closed.values().next().value!);
    const entries = trace.spans;
    return {
      traceId: trace.traceId,
      reason,
      spans: [...entries.values()].map((entry) => entry.span),
      owners: trace.owners,
      ownerOf: (spanId) => entries.get(spanId)?.owner,
      rootArrived: trace.rootArrived,
    };
  }
}

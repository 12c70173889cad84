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
// gracePeriodMs, so keeping the traces waiting for each in order of that time (re-inserted when it
// moves) keeps them in order of their deadlines. That takes time that does not go backwards: an
// earlier `now` than one already seen counts as the latest seen (a clock stepped back delays a
// close by the step; it never closes a trace early).
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
};

export class TraceAssembler<Owner> {
  private readonly open = new Map<string, OpenTrace<Owner>>();
  /** Open traces without a run-defining span, in order of their last arrival (so of their idle deadline). */
  private readonly waitingIdle = new Map<string, OpenTrace<Owner>>();
  /** Open traces with one, in order of the latest such span's arrival (so of their grace deadline). */
  private readonly waitingReady = new Map<string, OpenTrace<Owner>>();
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
        trace = { traceId: span.traceId, openedAt: now, spans: new Map(), owners: [], lastArrivalAt: now, readyAt: undefined, rootArrived: false };
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
      if (trace.readyAt === undefined) {
        this.waitingIdle.delete(traceId);
        this.waitingIdle.set(traceId, trace);
      } else if (trace.readyAt === now) {
        this.waitingIdle.delete(traceId);
        this.waitingReady.delete(traceId);
        this.waitingReady.set(traceId, trace);
      }
    }
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
    const idle = this.waitingIdle.values().next().value;
    const ready = this.waitingReady.values().next().value;
    if (idle === undefined) return ready === undefined ? undefined : this.dueAt(ready);
    return ready === undefined ? this.dueAt(idle) : Math.min(this.dueAt(idle), this.dueAt(ready));
  }

  /** Closes and returns every trace due at `now`, earliest deadline first. */
  closeDue(at: number): ClosedTrace<Owner>[] {
    const now = this.monotonic(at);
    const due: ClosedTrace<Owner>[] = [];
    for (;;) {
      const idle = this.waitingIdle.values().next().value;
      const ready = this.waitingReady.values().next().value;
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
    this.waitingIdle.delete(trace.traceId);
    this.waitingReady.delete(trace.traceId);
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

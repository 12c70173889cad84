// The trace assembler's deadline order (trace-assembler.ts): open traces in the order their
// deadlines were last moved. A trace is appended whenever its deadline moves, and since every move
// is to the latest time seen, the queue stays in deadline order; the entry a later move or a close
// left behind is skipped when it reaches the head. Arrays rather than a Map re-inserted on each
// move: a Map's iterator walks over the deleted entries at its front, so each look at the head
// cost a pass over the traces closed since the table was last rebuilt.
import type { OpenTrace } from './open-trace.ts';

/** Traces in the order their deadlines were last moved, the stale entries skipped at the head. */
export class DueQueue<Owner> {
  // Two arrays side by side rather than an object per entry.
  private traces: Array<OpenTrace<Owner>> = [];
  private entries: number[] = [];
  private head = 0;

  push(trace: OpenTrace<Owner>, entry: number): void {
    this.traces.push(trace);
    this.entries.push(entry);
  }

  /** The trace whose deadline comes first, stale entries dropped on the way. */
  first(): OpenTrace<Owner> | undefined {
    const { traces, entries } = this;
    while (this.head < entries.length && entries[this.head] !== traces[this.head]!.dueEntry) this.head += 1;
    if (this.head === entries.length) {
      this.traces = [];
      this.entries = [];
      this.head = 0;
      return undefined;
    }
    // Dropped entries are given back once they are half the array (amortised O(1)).
    if (this.head > 1_024 && this.head * 2 > entries.length) {
      this.traces = traces.slice(this.head);
      this.entries = entries.slice(this.head);
      this.head = 0;
    }
    return this.traces[this.head]!;
  }

  /** Rebuilt without stale entries when they outnumber the live ones (a trace moved many times). */
  compact(live: number): void {
    if (this.entries.length - this.head <= 2 * live + 1_024) return;
    const traces: Array<OpenTrace<Owner>> = [];
    const entries: number[] = [];
    for (let index = this.head; index < this.entries.length; index += 1) {
      const trace = this.traces[index]!;
      if (trace.dueEntry !== this.entries[index]) continue;
      traces.push(trace);
      entries.push(this.entries[index]!);
    }
    this.traces = traces;
    this.entries = entries;
    this.head = 0;
  }
}

// When each thread of one partition's thread state (thread-state.ts) is next due, and the order of
// those deadlines for the state's one timer: a thread has at most one live deadline, kept by key;
// the heap (deadline-heap.ts) holds every deadline pushed, and an entry whose stamp is no longer its
// thread's is stale, skipped when it surfaces. So moving a deadline costs a push, not a search.
import { DeadlineHeap } from './deadline-heap.ts';
import type { HeapItem } from './deadline-heap.ts';

type Scheduled = { at: number; stamp: number };

export class ThreadSchedule {
  readonly #scheduled = new Map<string, Scheduled>();
  readonly #heap = new DeadlineHeap();
  #stamp = 0;

  /** The earliest live deadline (epoch ms), stale entries dropped on the way; undefined when no thread is scheduled. */
  next(): number | undefined {
    for (let top = this.#heap.peek(); top !== undefined; top = this.#heap.peek()) {
      if (this.#isLive(top)) return top.at;
      this.#heap.pop();
    }
    return undefined;
  }

  /** The key of a thread due by `now`, earliest first, taken off the schedule (the caller schedules it again); undefined when none is due. */
  takeDue(now: number): string | undefined {
    for (let top = this.#heap.peek(); top !== undefined && top.at <= now; top = this.#heap.peek()) {
      this.#heap.pop();
      if (!this.#isLive(top)) continue;
      this.#scheduled.delete(top.key);
      return top.key;
    }
    return undefined;
  }

  /** The thread's deadline is `at` from now on (its earlier one, if any, goes stale). */
  set(key: string, at: number): void {
    const current = this.#scheduled.get(key);
    if (current?.at === at) return;
    const stamp = ++this.#stamp;
    this.#scheduled.set(key, { at, stamp });
    this.#heap.push({ at, key, stamp });
    if (this.#heap.size > 2 * this.#scheduled.size + 1_024) this.#heap.compact((item) => this.#isLive(item));
  }

  /** The thread has no deadline any more (its heap entry goes stale). */
  delete(key: string): void {
    this.#scheduled.delete(key);
  }

  clear(): void {
    this.#scheduled.clear();
    this.#heap.clear();
  }

  #isLive(item: HeapItem): boolean {
    return this.#scheduled.get(item.key)?.stamp === item.stamp;
  }
}

// A min-heap of (deadline, key) for the thread state's one timer: nextDeadline() is its top. An
// entry is never updated in place; a thread whose deadline moves is pushed again with a new stamp,
// and the stale entries are skipped when they surface (lazy deletion). `compact` rebuilds the heap
// from the live deadlines when stale entries outnumber them, so it stays within a small multiple
// of the number of threads.

export type HeapItem = { at: number; key: string; stamp: number };

export class DeadlineHeap {
  #items: HeapItem[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(item: HeapItem): void {
    const items = this.#items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent]!.at <= item.at) break;
      items[index] = items[parent]!;
      index = parent;
    }
    items[index] = item;
  }

  peek(): HeapItem | undefined {
    return this.#items[0];
  }

  pop(): HeapItem | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right]!.at < items[left]!.at ? right : left;
      if (items[child]!.at >= last.at) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = last;
    return top;
  }

  /** Keeps only the items `isLive` accepts, in heap order again. */
  compact(isLive: (item: HeapItem) => boolean): void {
    const live = this.#items.filter(isLive).sort((a, b) => a.at - b.at);
    // A sorted array is a valid min-heap.
    this.#items = live;
  }

  clear(): void {
    this.#items = [];
  }
}

import { describe, expect, it } from 'vitest';
import { DeadlineHeap } from '../../../../../src/engine/threads/deadline-heap.ts';

describe('DeadlineHeap', () => {
  it('pops items in deadline order', () => {
    const heap = new DeadlineHeap();
    const deadlines = [50, 10, 40, 10, 30, 20, 60, 0];
    deadlines.forEach((at, stamp) => heap.push({ at, key: `k${stamp}`, stamp }));
    const popped: number[] = [];
    for (let item = heap.pop(); item !== undefined; item = heap.pop()) popped.push(item.at);
    expect(popped).toEqual([...deadlines].sort((a, b) => a - b));
  });

  it('compacts to the live items, still in order', () => {
    const heap = new DeadlineHeap();
    for (let stamp = 0; stamp < 100; stamp += 1) heap.push({ at: 1_000 - stamp, key: 'k', stamp });
    heap.compact((item) => item.stamp % 10 === 0);
    expect(heap.size).toBe(10);
    expect(heap.peek()).toMatchObject({ at: 910, stamp: 90 });
  });
});

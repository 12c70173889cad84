import { describe, expect, it } from 'vitest';
import { RollingCounter } from '../../../../../src/engine/budget/rolling-window.ts';

describe('RollingCounter', () => {
  it('counts what was added during the last window and forgets it after one window', () => {
    let now = 1_000_000;
    const counter = new RollingCounter('minute', () => now);
    counter.add(3);
    now += 30_000;
    counter.add(2);
    expect(counter.total()).toBe(5);
    now += 30_000; // the first amount is 60 s old: out of the window
    expect(counter.total()).toBe(2);
    now += 30_000;
    expect(counter.total()).toBe(0);
  });

  it('corrects an amount in the slot it was added to, so the correction leaves the window with it', () => {
    let now = 5_000_000;
    const counter = new RollingCounter('minute', () => now);
    const mark = counter.add(100);
    now += 10_000;
    counter.adjust(mark, -60);
    expect(counter.total()).toBe(40);
    now += 55_000;
    expect(counter.total()).toBe(0);
  });

  it('counts a positive correction of an amount that already left the window now, and drops a negative one', () => {
    let now = 7_000_000;
    const counter = new RollingCounter('minute', () => now);
    const first = counter.add(10);
    const second = counter.add(10);
    now += 61_000;
    counter.adjust(first, 5);
    counter.adjust(second, -5);
    expect(counter.total()).toBe(5);
  });

  it('uses slots of a sixtieth of the window: an hour forgets in minutes, a day in 24-minute steps', () => {
    let now = 0;
    const hour = new RollingCounter('hour', () => now);
    const day = new RollingCounter('day', () => now);
    hour.add(1);
    day.add(1);
    now = 3_600_000 - 1;
    expect(hour.total()).toBe(1);
    now = 3_600_000;
    expect(hour.total()).toBe(0);
    expect(day.total()).toBe(1);
    now = 86_400_000;
    expect(day.total()).toBe(0);
  });
});

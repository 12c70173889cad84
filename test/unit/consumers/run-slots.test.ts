import { describe, expect, it } from 'vitest';
import { RunSlots } from '../../../consumers/run-slots.ts';

describe('RunSlots', () => {
  it('hands out at most `capacity` slots and wakes a waiter on release', async () => {
    const slots = new RunSlots(2);
    expect(await slots.acquire()).toBe(true);
    expect(await slots.acquire()).toBe(true);
    let third = false;
    const waiting = slots.acquire().then((held) => (third = held));
    await Promise.resolve();
    expect(third).toBe(false);
    expect(slots.waiting).toBe(1);
    slots.release();
    await waiting;
    expect(third).toBe(true);
    expect(slots.inUse).toBe(2);
  });

  it('keeps calling whileWaiting (heartbeats) while full', async () => {
    const slots = new RunSlots(1);
    await slots.acquire();
    let beats = 0;
    const waiting = slots.acquire({ intervalMs: 5, whileWaiting: async () => void (beats += 1) });
    await new Promise((resolve) => setTimeout(resolve, 40));
    slots.release();
    expect(await waiting).toBe(true);
    expect(beats).toBeGreaterThan(0);
  });

  it('lets a failing whileWaiting (a rebalance) abort the wait', async () => {
    const slots = new RunSlots(1);
    await slots.acquire();
    const waiting = slots.acquire({ intervalMs: 1, whileWaiting: async () => Promise.reject(new Error('The group is rebalancing')) });
    await expect(waiting).rejects.toThrow(/rebalancing/);
  });

  it('resolves false when cancelled (shutdown) and passes the wake-up on', async () => {
    const slots = new RunSlots(1);
    await slots.acquire();
    let stopping = false;
    const cancelled = slots.acquire({ cancelled: () => stopping });
    const other = slots.acquire();
    stopping = true;
    slots.release();
    expect(await cancelled).toBe(false);
    expect(await other).toBe(true);
  });

  it('throws on a release without an acquire', () => {
    expect(() => new RunSlots(1).release()).toThrow(/released more often/);
    expect(() => new RunSlots(0)).toThrow(/positive integer/);
  });
});

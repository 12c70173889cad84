// A counter over a rolling window (the last minute, hour or day) with an injected clock. The window
// is cut into 60 slots, so an amount leaves the window between 59/60 and 60/60 of a window after
// it was added: exact enough for a spending cap, and O(60) memory whatever the traffic.
import type { BudgetWindow } from '../../kit/contracts/decision-record.ts';

export const windowMs: Record<BudgetWindow, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

const slotCount = 60;

export class RollingCounter {
  private readonly slotMs: number;
  private readonly slots = new Float64Array(slotCount);
  /** The slot number (time / slotMs) each slot last held; older contents are stale. */
  private readonly slotEpochs = new Float64Array(slotCount).fill(-Infinity);
  private readonly now: () => number;

  constructor(window: BudgetWindow, now: () => number) {
    this.slotMs = windowMs[window] / slotCount;
    this.now = now;
  }

  /** Adds `amount` at the current time; the returned mark lets `adjust` correct it later. */
  add(amount: number): number {
    const epoch = Math.floor(this.now() / this.slotMs);
    const index = epoch % slotCount;
    if (this.slotEpochs[index] !== epoch) {
      this.slotEpochs[index] = epoch;
      this.slots[index] = 0;
    }
    this.slots[index] = this.slots[index]! + amount;
    return epoch;
  }

  /**
   * Corrects an amount added at `mark` by `delta` (a reservation settled with the real usage), in
   * the slot it was added to, so a correction leaves the window together with what it corrects.
   * When that slot already left the window, a positive delta is counted now and a negative one is
   * dropped (what it would have given back is no longer counted anyway).
   */
  adjust(mark: number, delta: number): void {
    const index = mark % slotCount;
    const inWindow = mark > Math.floor(this.now() / this.slotMs) - slotCount;
    if (inWindow && this.slotEpochs[index] === mark) this.slots[index] = this.slots[index]! + delta;
    else if (delta > 0) this.add(delta);
  }

  /** What was added during the window ending now. */
  total(): number {
    const epoch = Math.floor(this.now() / this.slotMs);
    let sum = 0;
    for (let index = 0; index < slotCount; index += 1) {
      if (this.slotEpochs[index]! > epoch - slotCount) sum += this.slots[index]!;
    }
    return Math.max(0, sum);
  }
}

// The cap on runs in flight. A message takes a slot before it is dispatched and gives it back
// when all its records are acknowledged; while no slot is free the caller waits (and keeps
// its group membership alive through `whileWaiting`, e.g. kafkajs' heartbeat()).
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';

export type SlotWaitOptions = {
  /** Called about every `intervalMs` while waiting; its rejection aborts the wait (e.g. a rebalance). */
  whileWaiting?: () => Promise<void>;
  /** Default KAFKA_DEFAULTS.consumer.slotWaitHeartbeatMs. */
  intervalMs?: number;
  /** Resolves false instead of waiting on once this returns true (shutdown). */
  cancelled?: () => boolean;
};

export class RunSlots {
  readonly capacity: number;
  private used = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError(`run slot capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
  }

  get inUse(): number {
    return this.used;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  tryAcquire(): boolean {
    if (this.used >= this.capacity) return false;
    this.used += 1;
    return true;
  }

  /** Resolves true once a slot is held, or false when cancelled first. */
  async acquire(options: SlotWaitOptions = {}): Promise<boolean> {
    if (options.cancelled?.()) return false;
    if (this.tryAcquire()) return true;
    const intervalMs = options.intervalMs ?? KAFKA_DEFAULTS.consumer.slotWaitHeartbeatMs;
    for (;;) {
      const freed = await new Promise<boolean>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          const index = this.waiters.indexOf(wake);
          if (index >= 0) this.waiters.splice(index, 1);
          resolve(false);
        }, intervalMs);
        this.waiters.push(wake);
      });
      if (options.cancelled?.()) {
        if (freed) this.wakeNext(); // pass the wake-up on rather than lose it
        return false;
      }
      if (this.tryAcquire()) return true;
      if (!freed && options.whileWaiting) await options.whileWaiting();
    }
  }

  release(): void {
    if (this.used === 0) throw new Error('run slot released more often than acquired');
    this.used -= 1;
    this.wakeNext();
  }

  /** Wakes every waiter, e.g. so they notice a shutdown. */
  wakeAll(): void {
    while (this.waiters.length > 0) this.waiters.shift()!();
  }

  private wakeNext(): void {
    this.waiters.shift()?.();
  }
}

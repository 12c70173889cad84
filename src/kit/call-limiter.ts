// A counting semaphore with a FIFO queue: the judges' per-model cap (limit-judge-concurrency.ts),
// the local model's, and the group consumer's partitions handled at once (platformatic-consumer.ts).
export class CallLimiter {
  readonly limit: number;
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  get activeCalls(): number {
    return this.active;
  }

  get queuedCalls(): number {
    return this.queue.length;
  }

  /** `onWaited` hears how long the call waited for its slot (0 when one was free). */
  async run<T>(call: () => PromiseLike<T>, onWaited?: (waitedMs: number) => void): Promise<T> {
    if (this.active >= this.limit) {
      const queuedAt = performance.now();
      await new Promise<void>((resolve) => this.queue.push(resolve));
      onWaited?.(performance.now() - queuedAt);
    } else {
      this.active += 1;
      onWaited?.(0);
    }
    try {
      return await call();
    } finally {
      const next = this.queue.shift();
      if (next === undefined) this.active -= 1;
      else next(); // hand the slot straight over
    }
  }
}

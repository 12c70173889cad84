// The OTLP source's scheduler of trace work (otlp-source.ts): the work of traces closed together
// (a grace period ending for a whole fetch's traces at once) starts `perTurn` traces at a time, a
// turn of the event loop apart. Started all at once, every run's scoring state is alive at the same
// time, and the garbage collector copies it all; held back with the loop free in between, it is
// as when that work blocked the loop until it had started, without blocking it.
//
// While work waits to start (`busy`), the assembly closes no more traces; `onIdle` tells it when
// the last waiting work started, so it can close what came due meanwhile.

/** Closed traces whose work starts in one turn of the event loop: as many as the messages runsInFlight allows by default. */
export const STARTED_PER_TURN = 256;

const noop = () => undefined;

export class TurnPacer {
  readonly #perTurn: number;
  readonly #onIdle: () => void;
  readonly #waiting: Array<() => void> = [];
  #started = 0;
  #startedThisTurn = 0;
  #turnScheduled = false;

  constructor(onIdle: () => void, perTurn = STARTED_PER_TURN) {
    this.#onIdle = onIdle;
    this.#perTurn = perTurn;
  }

  /** Work waits to start: traces closing now would add to it, so the caller holds them. */
  get busy(): boolean {
    return this.#waiting.length > this.#started;
  }

  /**
   * `work` started now while this turn has room and nothing waits, else queued for a later turn;
   * a queued start when `cancelled()` says so resolves undefined without starting it (its claim ended).
   */
  start(work: () => Promise<unknown>, cancelled: () => boolean): Promise<unknown> {
    if (!this.#turnScheduled) {
      if (this.#startedThisTurn < this.#perTurn) {
        this.#startedThisTurn += 1;
        if (this.#startedThisTurn === 1) queueMicrotask(this.#endTurn);
        return work();
      }
      this.#turnScheduled = true;
      setImmediate(this.#nextTurn);
    }
    return new Promise((resolve) => {
      this.#waiting.push(() => resolve(cancelled() ? undefined : work()));
    });
  }

  /** Work started outside a queued turn (a tick, an overflow) counts against one turn, until the microtasks after it. */
  readonly #endTurn = () => {
    if (!this.#turnScheduled) this.#startedThisTurn = 0;
  };

  readonly #nextTurn = () => {
    this.#turnScheduled = false;
    this.#startedThisTurn = 0;
    const waiting = this.#waiting;
    while (this.#started < waiting.length && this.#startedThisTurn < this.#perTurn) {
      const start = waiting[this.#started]!;
      waiting[this.#started] = noop;
      this.#started += 1;
      this.#startedThisTurn += 1;
      start();
    }
    if (this.#started < waiting.length) {
      this.#turnScheduled = true;
      setImmediate(this.#nextTurn);
      return;
    }
    waiting.length = 0;
    this.#started = 0;
    this.#startedThisTurn = 0;
    this.#onIdle();
  };
}

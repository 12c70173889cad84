// Holds each partition of the retry topic until its head is due (docs/delivery.md, retries):
// a message whose due time (header `scorestream-retry-due`) lies ahead is not dispatched; its
// partition is paused and a timer resumes it at the due time, when kafkajs fetches again from the
// first unresolved offset — that message. Messages of a partition are due in about the order they
// were written (each pair's delay is added to the time it failed), so waiting for the head holds
// back little. No polling: a paused partition is not fetched, and one timer per partition waits.
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import { RETRY_DUE_HEADER } from '../src/kit/contracts/retry-message.ts';

export type RetryGateOptions = {
  /** Wall clock in ms (injected in tests). */
  now: () => number;
  /** The timer that resumes a partition (default setTimeout; unref'd so it never keeps the process up). */
  setTimer?: (callback: () => void, delayMs: number) => { clear(): void };
};

export type RetryGate = {
  /**
   * Whether a message due at `dueAtMs` may be processed now. When it is not yet due, `pause()` is called (it
   * returns the partition's resume function) and the partition is resumed at the due time.
   */
  admit(topic: string, partition: number, dueAtMs: number, pause: () => () => void): boolean;
  /** Partitions held right now. */
  readonly held: number;
  /** Stops every timer (shutdown); held partitions stay paused. */
  close(): void;
};

/** The due time in epoch ms; 0 (due) when the header is missing or unreadable. */
export function retryDueMs(message: Pick<ConsumedMessage, 'headers'>): number {
  const raw = message.headers?.[RETRY_DUE_HEADER];
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : undefined;
  const due = text === undefined ? Number.NaN : Number(text);
  return Number.isFinite(due) ? due : 0;
}

const defaultSetTimer = (callback: () => void, delayMs: number) => {
  const timer = setTimeout(callback, delayMs);
  timer.unref();
  return { clear: () => clearTimeout(timer) };
};

export function createRetryGate(options: RetryGateOptions): RetryGate {
  const setTimer = options.setTimer ?? defaultSetTimer;
  const timers = new Map<string, { clear(): void }>();
  return {
    admit(topic, partition, dueAtMs, pause) {
      const waitMs = dueAtMs - options.now();
      if (waitMs <= 0) return true;
      const key = `${topic}[${partition}]`;
      timers.get(key)?.clear();
      const resume = pause();
      timers.set(
        key,
        setTimer(() => {
          timers.delete(key);
          resume();
        }, waitMs),
      );
      return false;
    },
    get held() {
      return timers.size;
    },
    close() {
      for (const timer of timers.values()) timer.clear();
      timers.clear();
    },
  };
}

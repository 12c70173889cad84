// Retries an admin request while a topic's partition leaders settle. Right after a topic is
// created (or a broker restarts), the metadata can already name a leader that does not yet serve
// the partition: ListOffsets then fails with "This server is not the leader for that
// topic-partition", and kafkajs' admin gives up at once on that (fetchTopicOffsets,
// fetchTopicOffsetsByTimestamp). Seen when the demo started its dashboard on topics the service
// had created a moment before, on a busy 2-core CI broker.
import { setTimeout as delay } from 'node:timers/promises';
import { retryUntilDone } from '../src/kit/backoff.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';

/** How long to wait for leaders, and the clock to wait by (injected in tests). */
export type LeaderWait = {
  timeoutMs?: number;
  /** Pause between attempts. */
  sleep?: (ms: number) => Promise<unknown>;
  now?: () => number;
};

/**
 * kafkajs' errors for "not known or not led yet", matched by name: instanceof fails across two
 * copies of kafkajs, and Node's ESM loader cannot import these classes by name from kafkajs'
 * CommonJS build (test/unit/modules-load-in-node.test.ts).
 */
export function isLeaderNotYetKnown(error: unknown): boolean {
  const { name, retriable } = (error ?? {}) as { name?: unknown; retriable?: unknown };
  return (name === 'KafkaJSProtocolError' && retriable === true) || name === 'KafkaJSNumberOfRetriesExceeded';
}

/** Runs `request` until it succeeds, retrying leader errors for up to `timeoutMs` (default 30 s); any other error at once. */
export function whileLeadersSettle<T>(request: () => Promise<T>, wait: LeaderWait = {}): Promise<T> {
  return retryWhileLeadersSettle(request, isLeaderNotYetKnown, wait);
}

/**
 * Runs `request` until it succeeds, retrying the errors `isSettling` recognises — each client's
 * own "no leader yet" — for up to `timeoutMs` (default 30 s), pausing by KAFKA_DEFAULTS.topics.leaderRetry;
 * any other error, or one past the deadline, is thrown at once.
 */
export function retryWhileLeadersSettle<T>(request: () => Promise<T>, isSettling: (error: unknown) => boolean, wait: LeaderWait = {}): Promise<T> {
  const timeoutMs = wait.timeoutMs ?? KAFKA_DEFAULTS.topics.leaderWaitMs;
  const now = wait.now ?? Date.now;
  const sleep = wait.sleep ?? delay;
  const deadline = now() + timeoutMs;
  return retryUntilDone(request, {
    backoff: KAFKA_DEFAULTS.topics.leaderRetry,
    wait: sleep,
    onFailure: (error, _failures, pause) => {
      if (!isSettling(error) || now() + pause > deadline) throw error;
    },
  });
}

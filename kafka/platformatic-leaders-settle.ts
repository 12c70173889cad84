// Retries a @platformatic/kafka request while partition leaders settle: right after a topic is
// created, or while a broker restarts, the metadata can name a leader that does not serve the
// partition yet (NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, UNKNOWN_TOPIC_OR_PARTITION on
// ListOffsets), and the client gives up after its own few retries. The kafkajs twin, and the
// incident that called for it, is while-leaders-settle.ts; here the library's `canRetry` decides
// (platformatic-errors.ts), so an ACL refusal or an unknown topic is thrown at once.
import { isRetriablePlatformaticError } from './platformatic-errors.ts';
import { retryWhileLeadersSettle } from './while-leaders-settle.ts';
import type { LeaderWait } from './while-leaders-settle.ts';

/** Runs `request` until it succeeds, retrying retriable errors for up to `timeoutMs` (default 30 s); any other error at once. */
export function whilePlatformaticLeadersSettle<T>(request: () => Promise<T>, wait: LeaderWait = {}): Promise<T> {
  return retryWhileLeadersSettle(request, isRetriablePlatformaticError, wait);
}

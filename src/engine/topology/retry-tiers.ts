// The retry tiers (docs/delivery.md, retries): one topic per distinct delay of `retries.delaysMs`,
// named after the delay — `{topics.retry}-10s`, `-1m`, `-10m`, `-1h` for the defaults — as
// Kafka's non-blocking retry pattern has it. A pair waits on the tier of its delay, so every
// message of a tier is due no later than the ones written after it and a tier read in order
// holds nothing back behind a later one.

/** A delay as a topic-name suffix: whole hours, minutes or seconds when it is one, else milliseconds. */
export function retryTierName(delayMs: number): string {
  if (delayMs % 3_600_000 === 0) return `${delayMs / 3_600_000}h`;
  if (delayMs % 60_000 === 0) return `${delayMs / 60_000}m`;
  if (delayMs % 1_000 === 0) return `${delayMs / 1_000}s`;
  return `${delayMs}ms`;
}

export type RetryTier = { readonly delayMs: number; readonly topic: string };

/** The tier topic of a delay. */
export function retryTierTopic(retryTopic: string, delayMs: number): string {
  return `${retryTopic}-${retryTierName(delayMs)}`;
}

/** Every tier of a retry config, shortest delay first (a delay listed twice is one tier). */
export function retryTiers(config: { topics: { retry: string }; retries: { enabled: boolean; delaysMs: readonly number[] } }): RetryTier[] {
  if (!config.retries.enabled) return [];
  return [...new Set(config.retries.delaysMs)].sort((left, right) => left - right).map((delayMs) => ({ delayMs, topic: retryTierTopic(config.topics.retry, delayMs) }));
}

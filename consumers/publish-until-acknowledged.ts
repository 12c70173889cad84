// Publish with retry: hands records to the message's output and returns only once they were
// accepted (at-least-once: acknowledged by Kafka; exactly-once: held for the partition's next
// transaction), which is what lets the message's offset be committed. A failure is retried with
// backoff for as long as it takes: giving up would lose the records, and committing the offset
// without them would lose them for good. Only the hard stop ends the retries: the error is
// thrown, the message's offset stays uncommitted and the run is scored again after a restart
// (docs/delivery.md, shutdown).
import type { Logger } from 'pino';
import type { Source } from '../src/kit/contracts/common.ts';
import type { OutgoingRecord } from '../producers/record-publisher.ts';
import type { MessageOutput } from './record-sink.ts';
import type { ServiceStats } from './service-stats.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';

export type PublishRetry = {
  /** The pause after the first failure; doubled after each further one, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Waits out one pause (tests pass one that returns at once). */
  wait: (delayMs: number) => Promise<void>;
};

export const defaultPublishRetry: PublishRetry = Object.freeze({
  firstDelayMs: KAFKA_DEFAULTS.publish.firstRetryDelayMs,
  maxDelayMs: KAFKA_DEFAULTS.publish.maxRetryDelayMs,
  wait: (delayMs: number) => new Promise<void>((resolve) => setTimeout(resolve, delayMs)),
});

export type PublishContext = {
  hardStop: AbortSignal;
  publishRetry: PublishRetry;
  stats: Pick<ServiceStats, 'publishRetries'>;
  logger: Logger;
};

export async function publishUntilAcknowledged(output: MessageOutput, records: OutgoingRecord[], source: Source, context: PublishContext): Promise<void> {
  const { publishRetry } = context;
  let delayMs = publishRetry.firstDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await output.publish(records);
      return;
    } catch (error) {
      if (context.hardStop.aborted) throw error;
      context.stats.publishRetries += 1;
      context.logger.warn({ err: error, attempt, source }, 'publishing records failed; retrying (the offset is not committed until they are acknowledged)');
      await publishRetry.wait(delayMs);
      delayMs = Math.min(delayMs * 2, publishRetry.maxDelayMs);
    }
  }
}

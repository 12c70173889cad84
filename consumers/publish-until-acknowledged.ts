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
import { retryUntilDone } from '../src/kit/backoff.ts';
import type { Backoff } from '../src/kit/backoff.ts';

/** The backoff of a publish (src/kit/backoff.ts): the first pause, doubled after each further failure up to `maxDelayMs`. */
export type PublishRetry = Backoff & {
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
  await retryUntilDone(() => output.publish(records), {
    backoff: publishRetry,
    wait: publishRetry.wait,
    onFailure: (error, attempt) => {
      if (context.hardStop.aborted) throw error;
      context.stats.publishRetries += 1;
      context.logger.warn({ err: error, attempt, source }, 'publishing records failed; retrying (the offset is not committed until they are acknowledged)');
    },
  });
}

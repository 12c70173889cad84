// Waits for one open judge batch to end and reads its answers (batch/batch-partition.ts): polled on
// the backoff from `pollMs` doubling to `maxPollMs`; a poll or a read that trying again may cure is
// tried again on the same schedule, any other failure ends the wait (the caller submits the
// batch's requests again). The sleep is the claim's: it rejects once the claim ended.
import type { Logger } from 'pino';
import { backoffDelayMs, retryUntilDone } from '../../src/kit/backoff.ts';
import { ScorestreamError } from '../../src/kit/errors.ts';
import type { BatchAnswers, BatchProvider } from '../../src/engine/judge-batch/batch-provider.ts';
import type { OpenBatch } from '../../src/engine/judge-batch/open-batch.ts';
import type { BatchStats } from '../service-stats.ts';

export type PollOpenBatchOptions = {
  provider: BatchProvider;
  backoff: { firstDelayMs: number; maxDelayMs: number };
  sleep(delayMs: number): Promise<void>;
  logger: Logger;
  stats: BatchStats;
};

export async function pollOpenBatch(open: OpenBatch, options: PollOpenBatchOptions): Promise<BatchAnswers> {
  const { provider, backoff, logger, stats } = options;
  for (let polls = 1; ; polls += 1) {
    await options.sleep(backoffDelayMs(backoff, polls));
    stats.polls += 1;
    try {
      if ((await provider.poll(open.batchId)).phase === 'ended') break;
    } catch (error) {
      if (!ScorestreamError.isInstance(error) || !error.canRetry) throw error;
      logger.warn({ err: error, batchId: open.batchId }, 'polling a judge batch failed; polling again');
    }
  }
  const answers = await retryUntilDone(() => provider.answers(open.batchId), {
    backoff,
    wait: (delayMs) => options.sleep(delayMs),
    onFailure: (error) => {
      if (!ScorestreamError.isInstance(error) || !error.canRetry) throw error;
    },
  });
  stats.batchesEnded += 1;
  return answers;
}

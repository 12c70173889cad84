// Waits for one open judge batch to end and reads its answers (batch/batch-partition.ts): the
// polling is waitForBatch's (src/engine/judge-batch/wait-for-batch.ts: the backoff from `pollMs`
// doubling to `maxPollMs`, a poll that trying again may cure tried again), counted and logged here;
// reading the answers is tried again on the same schedule when it may be cured. Any other failure
// ends the wait (the caller submits the batch's requests again). The sleep is the claim's: it
// rejects once the claim ended.
import type { Logger } from 'pino';
import { retryUntilDone } from '../../src/kit/backoff.ts';
import { ScorestreamError } from '../../src/kit/errors.ts';
import type { BatchAnswers, BatchProvider } from '../../src/engine/judge-batch/batch-provider.ts';
import type { OpenBatch } from '../../src/engine/judge-batch/open-batch.ts';
import { waitForBatch } from '../../src/engine/judge-batch/wait-for-batch.ts';
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
  await waitForBatch(provider, open.batchId, {
    backoff,
    wait: (delayMs) => options.sleep(delayMs),
    onPoll: (_state, error) => {
      stats.polls += 1;
      if (error !== undefined) logger.warn({ err: error, batchId: open.batchId }, 'polling a judge batch failed; polling again');
    },
  });
  stats.polls += 1; // the poll that found it ended
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

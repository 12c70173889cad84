// Reads the open judge batches of a claimed batch-tier partition back from its partition of
// `{retry}-batch-state` (compacted: the latest record per batch id, a tombstone once its answers
// were used), to the end it had. A failed read is tried again with backoff until the claim ends; a
// record that cannot be read is logged and left out (its requests are then submitted again).
import type { Logger } from 'pino';
import { KAFKA_DEFAULTS } from '../../kafka/kafka-defaults.ts';
import { retryUntilDone } from '../../src/kit/backoff.ts';
import { readOpenBatch } from '../../src/engine/judge-batch/open-batch.ts';
import type { OpenBatch } from '../../src/engine/judge-batch/open-batch.ts';
import { ClaimEndedError } from '../run-source.ts';
import type { ReadChangelog } from '../thread-source.ts';

export type RestoreOpenBatchesOptions = {
  readState: ReadChangelog;
  partition: number;
  logger: Logger;
  /** The claim's sleep: rejects once the claim ended. */
  sleep(delayMs: number): Promise<void>;
  gone(): boolean;
};

export async function restoreOpenBatches(options: RestoreOpenBatchesOptions): Promise<Map<string, OpenBatch>> {
  const { partition, logger } = options;
  const found = new Map<string, OpenBatch>();
  const claimEnded = () => new ClaimEndedError('the batch tier’s partition claim ended before its open batches were restored');
  await retryUntilDone(
    () =>
      options.readState(partition, ({ key, value }) => {
        if (value === null) return void found.delete(key);
        const read = readOpenBatch(value);
        if (read.ok) found.set(key, read.batch);
        else logger.warn({ partition, key, problem: read.problem }, 'a batch state record cannot be read; its requests are submitted again');
      }),
    {
      backoff: KAFKA_DEFAULTS.groupLessReads.restoreRetry,
      wait: (delayMs) => options.sleep(delayMs),
      onFailure: (error, attempt) => {
        if (options.gone() || error instanceof ClaimEndedError) throw claimEnded();
        found.clear();
        logger.warn({ err: error, partition, attempt }, 'restoring the batch tier’s open batches failed; trying again (the partition’s pairs wait)');
      },
    },
  );
  if (options.gone()) throw claimEnded();
  return found;
}

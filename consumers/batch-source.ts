// The batch tier's source (docs/spend-and-replay.md, the batch tier): `{topics.retry}-batch` holds
// pairs of batch-mode bindings waiting on judge requests (a retry message with its `batch`). Each
// claimed partition batches, submits, polls and resumes them (batch/batch-partition.ts), its open
// batches restored from `{retry}-batch-state` when it is claimed. A message that is not a
// RetryMessage is dead-lettered. The topics are the service's own: no loop guard applies.
import type { RetryMessage } from '../src/kit/contracts/retry-message.ts';
import { BatchPartition } from './batch/batch-partition.ts';
import type { BatchPartitionOptions } from './batch/batch-partition.ts';
import { decodeRetryMessage } from './retry-source.ts';
import type { RunSource } from './run-source.ts';

/** What every claimed partition of the batch tier is made with (batch/batch-partition.ts). */
export type BatchSourceOptions = BatchPartitionOptions;

export type BatchSource = RunSource<RetryMessage> & { close(): void };

export function createBatchSource(options: BatchSourceOptions): BatchSource {
  const live = new Set<BatchPartition>();
  const { stats } = options.context;
  return {
    name: 'batch',
    internal: true,
    decode: decodeRetryMessage,
    claim(perform, claimed) {
      if (claimed === undefined) throw new TypeError('the batch source needs its claimed partition (topic, partition, detached output)');
      const key = `${claimed.topic}[${claimed.partition}]`;
      const partition: BatchPartition = new BatchPartition(options, perform, claimed, () => {
        live.delete(partition);
        if (stats.batch.byPartition.get(key) === gauges) stats.batch.byPartition.delete(key);
      });
      const gauges = () => partition.gauges();
      stats.batch.byPartition.set(key, gauges);
      live.add(partition);
      return partition;
    },
    close() {
      for (const partition of [...live]) partition.end();
    },
  };
}

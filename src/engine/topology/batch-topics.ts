// The batch tier's two topics (docs/spend-and-replay.md, the batch tier), while a binding's judge
// mode is 'batch': `{topics.retry}-batch`, the pairs waiting on a judge batch (a retry message with
// its `batch` requests), consumed by the batch task; and `{topics.retry}-batch-state`, compacted,
// the batches open at the provider for each partition of the first — partition n's batches on
// partition n, so whoever claims a partition finds its open batches there, polls them instead of
// submitting again, and moves them with the partition on a rebalance.
import type { TopicEntry } from './topic-entry.ts';

export const batchTierTopic = (retryTopic: string): string => `${retryTopic}-batch`;
/** A replay with `--judge-mode batch` has a batch tier of its own, never the live service's: `{retry}-replay-<replay id>-batch` and its state. */
export const replayRetryPrefix = (retryTopic: string, replayId: string): string => `${retryTopic}-replay-${replayId}`;
export const batchStateTopic = (retryTopic: string): string => `${retryTopic}-batch-state`;

export function batchTierEntries(retryTopic: string): TopicEntry[] {
  return [
    {
      id: 'batch-tier',
      name: batchTierTopic(retryTopic),
      kind: 'internal',
      key: 'the pair’s scoreId, placed by runId — recordKeyFor',
      partitions: { rule: 'default' },
      cleanup: 'delete',
      access: {
        service: { operations: ['Read', 'Write'], why: 'batch-mode judges: defer pairs to the batch tier, and read them back to batch, poll and score them', creates: true },
        replay: { operations: ['Read', 'Write'], why: 'replay --judge-mode batch: the same, on its own batch tier {retry}-replay-<id>-batch', creates: true },
      },
      task: 'batch',
    },
    {
      id: 'batch-state',
      name: batchStateTopic(retryTopic),
      kind: 'internal',
      key: 'the provider’s batch id, partition n of the batch tier’s batches on partition n — batchStateKey',
      partitions: { rule: 'like', topic: 'batch-tier' },
      cleanup: 'compact',
      access: {
        service: { operations: ['Read', 'Write'], why: 'batch-mode judges: record the batches open at the provider, and read them back when a batch-tier partition is claimed', creates: true },
        replay: { operations: ['Read', 'Write'], why: 'replay --judge-mode batch: the same, for its own batch tier', creates: true },
      },
    },
  ];
}

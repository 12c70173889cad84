// Reads one partition of a compacted changelog topic from its beginning to the end it had when the
// read started — the restore of a claimed partition's state (docs/threads.md, the transport) —
// group-less (read-range.ts: no consumer group, so no group ACL, nothing to delete afterwards).
// Under read_committed an aborted write is never seen, and a partition whose tail is transaction
// markers still ends.
import type { AccessContext } from './kafka-access-error.ts';
import type { KafkaEdge } from './kafka-edge.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import { explainKafkaError } from './kafka-preflight.ts';

export type ChangelogRecord = { key: string; value: string | null };

export type ReadChangelogOptions = {
  topic: string;
  partition: number;
  /** Each record, in offset order. */
  onRecord: (record: ChangelogRecord) => void;
  /** Gives up after this long (default KAFKA_DEFAULTS.groupLessReads.restoreTimeoutMs): the caller tries again. */
  timeoutMs?: number;
};

/** Resolves with the number of records read once the partition was read to its end. */
export async function readChangelogPartition(edge: Pick<KafkaEdge, 'readRange'>, options: ReadChangelogOptions): Promise<number> {
  const { topic, partition } = options;
  let read = 0;
  const range = edge.readRange({
    partitions: [{ topic, partition }],
    from: 'beginning',
    until: 'end-at-start',
    onBatch: (_topic, _partition, messages) => {
      for (const message of messages) {
        if (message.key === null) continue;
        options.onRecord({ key: message.key.toString('utf8'), value: message.value === null ? null : message.value.toString('utf8') });
        read += 1;
      }
    },
  });
  const timeoutMs = options.timeoutMs ?? KAFKA_DEFAULTS.groupLessReads.restoreTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`could not read partition ${partition} of the changelog topic '${topic}' to its end within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([range.done, timedOut]);
    return read;
  } finally {
    clearTimeout(timer);
    await range.stop();
  }
}

/**
 * The reader of a state topic's partitions (a by-thread partition's thread state, a batch-tier
 * partition's open batches), with a refusal of the cluster (no READ on the topic) turned into what
 * to grant: its source logs it and tries again, so an ACL granted late lets the work resume.
 */
export function stateTopicReader(edge: Pick<KafkaEdge, 'readRange'>, topic: string, access: AccessContext, why: string): (partition: number, onRecord: (record: ChangelogRecord) => void) => Promise<number> {
  const restoring: AccessContext = { ...access, topics: [{ topic, operations: `READ (${why})` }] };
  return (partition, onRecord) =>
    readChangelogPartition(edge, { topic, partition, onRecord }).catch((error: unknown) => {
      throw explainKafkaError(error, restoring);
    });
}

// What a replay reads: its id and consumer group (deterministic from what the command names — a
// relative `--from 10m` by its words, not by the time it resolves to — or given with `--id`, so the
// same command run again is the same replay), and per partition of the runs topic the offset range
// [start, end): start = the first offset at or after `from` (Kafka's offsets for a timestamp),
// end = the first offset at or after `to`, or the high watermark taken at start. The range is
// resolved once, when the replay first starts, and recorded (replay-state.ts).
import { createHash } from 'node:crypto';
import type { KafkaAdmin } from '../kafka/kafka-admin.ts';

/**
 * A time as a replay names it: `spec` identifies it — an absolute time's ISO form, or a duration
 * ago as written (`10m ago`) — and `at` is what it resolved to when the command ran.
 */
export type ReplayTime = { spec: string; at: Date };

/** A Date is an absolute time, named by its ISO form. */
export const replayTimeOf = (time: Date | ReplayTime): ReplayTime => (time instanceof Date ? { spec: time.toISOString(), at: time } : time);

export type ReplayRequest = {
  /** The live service's group; the replay's own group is named after it. */
  groupId: string;
  topic: string;
  from: ReplayTime;
  to?: ReplayTime;
  /** Scorer ids replayed; empty = every scorer of the config. */
  scorers: readonly string[];
  /** The replay's name (`--id`); default: from the live group, the topic, from, to and the scorers. */
  id?: string;
};

export type PartitionRange = { partition: number; start: number; end: number };

export type ReplayRange = {
  id: string;
  groupId: string;
  partitions: PartitionRange[];
  /** Runs in the range (sum of end − start). */
  total: number;
};

/** The `--id` given, else `replay-<12 hex>` from the live group, topic, from, to (as named) and the sorted scorer ids. */
export function replayId(request: ReplayRequest): string {
  if (request.id !== undefined) return request.id;
  const identity = JSON.stringify([request.groupId, request.topic, request.from.spec, request.to?.spec ?? null, [...request.scorers].sort()]);
  return `replay-${createHash('sha256').update(identity).digest('hex').slice(0, 12)}`;
}

export function replayGroupId(request: ReplayRequest): string {
  return `${request.groupId}.${replayId(request)}`;
}

export async function resolveReplayRange(admin: Pick<KafkaAdmin, 'offsetsForTime' | 'partitionOffsets'>, request: ReplayRequest): Promise<ReplayRange> {
  const starts = await admin.offsetsForTime(request.topic, request.from.at.getTime());
  const to = request.to;
  const ends = to === undefined ? (await admin.partitionOffsets(request.topic)).map(({ partition, high }) => ({ partition, offset: high })) : await admin.offsetsForTime(request.topic, to.at.getTime());
  const endOf = new Map(ends.map(({ partition, offset }) => [partition, Number(offset)]));
  const partitions = starts
    .map(({ partition, offset }) => {
      const start = Number(offset);
      return { partition, start, end: Math.max(start, endOf.get(partition) ?? start) };
    })
    .sort((a, b) => a.partition - b.partition);
  return { id: replayId(request), groupId: replayGroupId(request), partitions, total: partitions.reduce((sum, range) => sum + range.end - range.start, 0) };
}

/**
 * Gives the replay's group its start offsets where it has none committed yet; a partition with a
 * committed offset (an earlier run of the same replay) continues from there. The group must have
 * no members (the replay's consumer has not started).
 */
export async function seedReplayOffsets(admin: Pick<KafkaAdmin, 'committedOffsets' | 'setCommittedOffsets'>, groupId: string, topic: string, range: ReplayRange): Promise<void> {
  const committed = await committedOffsets(admin, groupId, topic);
  const missing = range.partitions.filter(({ partition }) => committed.get(partition) === undefined);
  await admin.setCommittedOffsets(groupId, topic, missing.map(({ partition, start }) => ({ partition, offset: BigInt(start) })));
}

/** The group's committed offset per partition; absent when it has none. */
export async function committedOffsets(admin: Pick<KafkaAdmin, 'committedOffsets'>, groupId: string, topic: string): Promise<Map<number, number>> {
  const offsets = new Map<number, number>();
  for (const { partition, offset } of await admin.committedOffsets(groupId, topic)) if (offset !== undefined) offsets.set(partition, Number(offset));
  return offsets;
}

/** How far the replay got: runs done (committed within the range) of the total. */
export function replayProgress(range: ReplayRange, committed: ReadonlyMap<number, number>): { done: number; total: number; finished: boolean } {
  let done = 0;
  let finished = true;
  for (const { partition, start, end } of range.partitions) {
    const at = Math.min(end, Math.max(start, committed.get(partition) ?? start));
    done += at - start;
    if (at < end) finished = false;
  }
  return { done, total: range.total, finished };
}

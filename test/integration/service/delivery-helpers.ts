// Helpers of the delivery tests (rebalance revocation, exactly-once): read a whole topic at a
// chosen isolation level, count (run, scorer) pairs, and map the runs topic's offsets to run ids.
import { expect } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { testKafka, uniqueGroupId } from '../../helpers/kafka.ts';

export type Isolation = 'read_committed' | 'read_uncommitted';

export const pairOf = (record: Pick<ScoreRecord, 'runId' | 'scorerId'>) => `${record.runId}/${record.scorerId}`;

/** How many times each (run, scorer) pair appears. */
export function pairCounts(records: ReadonlyArray<Pick<ScoreRecord, 'runId' | 'scorerId'>>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(pairOf(record), (counts.get(pairOf(record)) ?? 0) + 1);
  return counts;
}

/** Every expected pair exactly once, and nothing else. */
export function expectExactlyOnce(records: ReadonlyArray<Pick<ScoreRecord, 'runId' | 'scorerId'>>, runIds: readonly string[], scorerIds: readonly string[]): void {
  const counts = pairCounts(records);
  const duplicated = [...counts].filter(([, count]) => count > 1).map(([pair, count]) => `${pair} ×${count}`);
  const expected = runIds.flatMap((runId) => scorerIds.map((scorerId) => `${runId}/${scorerId}`));
  const missing = expected.filter((pair) => !counts.has(pair));
  expect({ duplicated, missing, total: records.length }).toEqual({ duplicated: [], missing: [], total: expected.length });
}

/**
 * Reads `topic` from the beginning at the given isolation level until the records stop coming
 * (`idleMs` without a message after the first fetch), then returns them parsed. Meant for topics
 * nobody writes to any more (the service was stopped or killed).
 */
export async function readAll<T = Record<string, unknown>>(topic: string, options: { isolation: Isolation; idleMs?: number; timeoutMs?: number }): Promise<T[]> {
  const consumer = testKafka('scorestream-test-read-all').consumer({
    groupId: uniqueGroupId('read-all'),
    maxWaitTimeInMs: 100,
    readUncommitted: options.isolation === 'read_uncommitted',
  });
  const records: T[] = [];
  const idleMs = options.idleMs ?? 2_000;
  let lastActivity = Date.now();
  let fetched = false;
  await consumer.connect();
  try {
    consumer.on(consumer.events.FETCH, (event) => {
      // Idle time counts from the first fetch (joining the group takes a while), and a fetch
      // that brought batches is activity even before eachMessage ran.
      if (!fetched || event.payload.numberOfBatches > 0) lastActivity = Date.now();
      fetched = true;
    });
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        lastActivity = Date.now();
        records.push(JSON.parse(message.value!.toString('utf8')) as T);
      },
    });
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    while (!fetched || Date.now() - lastActivity < idleMs) {
      if (Date.now() > deadline) throw new Error(`readAll(${topic}): still receiving after ${options.timeoutMs ?? 60_000} ms (${records.length} records)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return records;
  } finally {
    await consumer.disconnect();
  }
}

/** The group's committed offset per partition of `topic` (-1 when none). */
export async function committedOffsets(groupId: string, topic: string): Promise<Map<number, number>> {
  const admin = testKafka('scorestream-test-admin').admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return new Map((entry?.partitions ?? []).map(({ partition, offset }) => [partition, Number(offset)]));
  } finally {
    await admin.disconnect();
  }
}

/** The high watermark per partition of `topic`. */
export async function highWatermarks(topic: string): Promise<Map<number, number>> {
  const admin = testKafka('scorestream-test-admin').admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(offsets.map(({ partition, high }) => [partition, Number(high)]));
  } finally {
    await admin.disconnect();
  }
}

// Helpers of the delivery tests (rebalance revocation, exactly-once): count (run, scorer) pairs,
// check them against exactly once, and watch a group's committed offsets.
import { expect } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { testKafka, uniqueGroupId } from '../../helpers/kafka.ts';
import { highWatermarks } from '../../helpers/read-all.ts';

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

export type CommitWatch = {
  /** Stops watching; resolves with how many samples were checked and every violation seen. */
  stop(): Promise<{ checks: number; violations: string[] }>;
};

/**
 * Samples the group's committed offsets on the runs topic every `intervalMs` and checks, for each
 * sample, two promises of at-least-once delivery: every run below a committed offset has a record
 * for every scorer (checked once a reader of the results topic caught up with what was written
 * by the time of the sample), and committed offsets never move backwards.
 */
export async function watchCommits(options: {
  groupId: string;
  runsTopic: string;
  resultsTopic: string;
  /** `${partition}:${offset}` of the runs topic → run id. */
  runAt: ReadonlyMap<string, string>;
  scorerIds: readonly string[];
  intervalMs?: number;
}): Promise<CommitWatch> {
  const seen = new Set<string>();
  const position = new Map<number, number>();
  const reader = testKafka('scorestream-test-commit-watch').consumer({ groupId: uniqueGroupId('commit-watch'), maxWaitTimeInMs: 100 });
  await reader.connect();
  await reader.subscribe({ topics: [options.resultsTopic], fromBeginning: true });
  await reader.run({
    eachMessage: async ({ partition, message }) => {
      seen.add(pairOf(JSON.parse(message.value!.toString('utf8')) as ScoreRecord));
      position.set(partition, Number(message.offset) + 1);
    },
  });
  const violations: string[] = [];
  const last = new Map<number, number>();
  let checks = 0;
  let running = true;

  const caughtUp = async (watermarks: Map<number, number>) => {
    const deadline = Date.now() + 15_000;
    while ([...watermarks].some(([partition, high]) => (position.get(partition) ?? 0) < high)) {
      if (Date.now() > deadline) throw new Error('watchCommits: the results reader did not catch up within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const loop = (async () => {
    while (running) {
      const committed = await committedOffsets(options.groupId, options.runsTopic);
      await caughtUp(await highWatermarks(options.resultsTopic));
      for (const [partition, offset] of committed) {
        if (offset < (last.get(partition) ?? -1)) violations.push(`partition ${partition}: committed offset moved back from ${last.get(partition)} to ${offset}`);
        last.set(partition, Math.max(offset, last.get(partition) ?? -1));
        for (let below = 0; below < offset; below += 1) {
          const runId = options.runAt.get(`${partition}:${below}`);
          if (runId === undefined) continue;
          for (const scorerId of options.scorerIds) {
            if (!seen.has(`${runId}/${scorerId}`)) violations.push(`partition ${partition} committed at ${offset} but ${runId}/${scorerId} (offset ${below}) has no record`);
          }
        }
      }
      checks += 1;
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
    }
  })();

  return {
    async stop() {
      running = false;
      await loop;
      await reader.disconnect();
      return { checks, violations: [...new Set(violations)] };
    },
  };
}

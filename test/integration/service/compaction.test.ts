// Score records under log compaction, on a real broker's log cleaner: a results topic with
// `cleanup.policy=compact`, segments rolled every second and an eager cleaner. 100 runs × 3 scorers
// are scored twice (a second consumer group re-scores them, as a crash or a replay would), so the
// topic holds every pair twice. After compaction exactly one record per (run, scorer) is left: the
// duplicates are gone and no pair is. The same 300 records keyed by run id, as the service keyed them
// before, go to a second compacted topic beside it: there compaction keeps 100 of 300, one per run —
// the bug this keying fixes, and the proof that the cleaner ran in this test.
import { describe, expect, it } from 'vitest';
import { scoreIdFor } from '../../../src/kit/contracts/score-id.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { answerLengthScorer, refundOnlyScorer } from '../../fixtures/scorers.ts';
import { testKafka, useTopic } from '../../helpers/kafka.ts';
import type { ReadMessage } from '../../helpers/kafka.ts';
import { readMessages } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, startTestService } from '../../helpers/service.ts';

const runs = 100;
const partitions = 3;
const segmentMs = 1_000;
/** Compaction as a platform team would set it for a latest-score view, made eager for the test. */
const compacted = {
  'cleanup.policy': 'compact',
  'segment.ms': String(segmentMs),
  'min.cleanable.dirty.ratio': '0.01',
  'min.compaction.lag.ms': '0',
  'delete.retention.ms': '0',
};
const rollKey = 'roll-segment';

const constantScorer = createScorer({ id: 'constant', description: 'Always 0.5' }).generateScore(() => 0.5);
const pair = (record: Pick<ScoreRecord, 'runId' | 'scorerId'>) => `${record.runId}/${record.scorerId}`;

/** Everything the topic holds now, read from the beginning to its current end (what survived compaction). */
async function readWhole(topic: string): Promise<ReadMessage[]> {
  const admin = testKafka('compaction-offsets').admin();
  await admin.connect();
  try {
    // Compaction keeps offsets and removes records between them: read up to each partition's end.
    const offsets = await admin.fetchTopicOffsets(topic);
    const ends = new Map(offsets.map(({ partition, high }) => [partition, Number(high)]));
    const consumer = testKafka('compaction-reader').consumer({ groupId: `compaction-read-${Date.now()}-${Math.random()}`, maxWaitTimeInMs: 100 });
    const received: ReadMessage[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      const done = new Set<number>([...ends].filter(([, end]) => end === 0).map(([partition]) => partition));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`readWhole(${topic}): not at the end within 30 s (${received.length} records)`)), 30_000);
        if (done.size === ends.size) {
          clearTimeout(timer);
          resolve();
        }
        consumer
          .run({
            eachMessage: async ({ partition, message }) => {
              received.push({ partition, offset: message.offset, key: message.key, value: message.value, headers: { ...message.headers } });
              if (Number(message.offset) + 1 >= ends.get(partition)!) done.add(partition);
              if (done.size === ends.size) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch(reject);
      });
      return received.filter((message) => message.key?.toString() !== rollKey);
    } finally {
      await consumer.disconnect();
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * The cleaner never touches a partition's active segment: once `segment.ms` has passed, one more
 * record per partition rolls it, so everything written before becomes cleanable.
 */
async function rollSegments(topic: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, segmentMs + 200));
  await produceRaw(topic, Array.from({ length: partitions }, (_, partition) => ({ key: rollKey, value: '{}', partition })));
}

/** Polls until the topic holds `expected` records (the cleaner runs every 15 s on the broker's default). */
async function untilCompactedTo(topic: string, expected: number, timeoutMs = 150_000): Promise<ReadMessage[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await readWhole(topic);
    if (messages.length <= expected || Date.now() > deadline) return messages;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

describe('score records on a compacted results topic', () => {
  it('keeps exactly one record per (run, scorer) after compaction — 300 of 300 — where run-id keys kept 100 of 300', async () => {
    // The runs and results topics have as many partitions, so a record lands on its run's partition.
    const [runsTopic, results, keyedByRun, deadLetter] = await Promise.all([
      useTopic({ prefix: 'compaction-runs', partitions }),
      useTopic({ prefix: 'compaction-scores', partitions, config: compacted }),
      useTopic({ prefix: 'compaction-by-run', partitions, config: compacted }),
      useTopic({ prefix: 'compaction-dlq' }),
    ]);
    const runIds = Array.from({ length: runs }, (_, index) => `compaction-${index}`);
    await produceRaw(runsTopic, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const scorers = [{ scorer: answerLengthScorer }, { scorer: refundOnlyScorer }, { scorer: constantScorer }];

    // Scored twice over: a second group re-scores every run, as after a crash before the commit.
    for (let round = 0; round < 2; round += 1) {
      const service = await startTestService({ topics: { runs: runsTopic, results, deadLetter }, retries: { enabled: false }, scorers });
      await expect.poll(() => service.stats.completed, { timeout: 60_000 }).toBe(runs);
      await service.stop({ timeoutMs: 5_000 });
    }
    const written = await readMessages(results, { count: runs * 3 * 2, timeoutMs: 60_000 });
    const writtenRecords = written.map((message) => JSON.parse(message.value!.toString('utf8')) as ScoreRecord);
    expect(new Set(writtenRecords.map(pair)).size).toBe(runs * 3);
    for (const message of written) {
      const record = JSON.parse(message.value!.toString('utf8')) as ScoreRecord;
      expect(message.key?.toString()).toBe(scoreIdFor(record));
      // Placed by run id: with as many partitions as the runs topic, on the run event's own partition.
      expect(message.partition).toBe(record.source.partition);
    }

    // The same pairs keyed by run id, as the service keyed them before.
    const once = [...new Map(written.map((message) => [message.key!.toString(), message])).values()];
    expect(once).toHaveLength(runs * 3);
    await produceRaw(
      keyedByRun,
      once.map((message) => ({ key: (JSON.parse(message.value!.toString('utf8')) as ScoreRecord).runId, value: message.value })),
    );

    await Promise.all([rollSegments(results), rollSegments(keyedByRun)]);
    const [left, leftByRun] = await Promise.all([untilCompactedTo(results, runs * 3), untilCompactedTo(keyedByRun, runs)]);

    // Run-id keys: compaction kept one record per run and deleted the other scorers' records.
    expect(leftByRun).toHaveLength(runs);
    // scoreId keys: every pair is still there, exactly once.
    const records = left.map((message) => JSON.parse(message.value!.toString('utf8')) as ScoreRecord);
    expect(records).toHaveLength(runs * 3);
    expect(new Set(records.map(pair))).toEqual(new Set(runIds.flatMap((runId) => ['answer-length', 'refund-only', 'constant'].map((scorerId) => `${runId}/${scorerId}`))));
    // And it was compaction, not a lost round: the topic had every pair twice before.
    expect(written).toHaveLength(runs * 3 * 2);
  });
});

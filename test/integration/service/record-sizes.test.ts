// Records the broker would refuse never stall a partition (docs/delivery.md, record sizes), on a
// real broker:
//   - a score record over the limit among small ones is shed of its evidence with a marker and keeps
//     its verdict, one too large even without evidence goes out as failed/record_too_large (no verdict), every pair is recorded,
//     every offset committed, and the service stops on SIGTERM with exit 0;
//   - a results topic whose max.message.bytes is below maxRecordBytes: the broker refuses the
//     request, and only the refused record is replaced by a smaller form, not the records beside it;
//   - an input message over maxMessageBytes on a runs topic that allows 4 MB (run events, and
//     OTLP) is dead-lettered with as much of its value as fits and the hash of the whole, and the
//     offsets move on.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../../src/kit/contracts/dead-letter.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { hoardingScorer, verboseScorer } from '../../fixtures/record-sizes.config.ts';
import { uniqueGroupId, useTopic } from '../../helpers/kafka.ts';
import { otlpTraffic } from '../../helpers/otlp-traces.ts';
import { testRun } from '../../helpers/runs.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
import { committedTotal, produceRaw, readRecords, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

const sizesConfig = fileURLToPath(new URL('../../fixtures/record-sizes.config.ts', import.meta.url));
const pairKey = (record: { runId: string; scorerId: string }) => `${record.runId}|${record.scorerId}`;
const latestPerPair = (records: ScoreRecord[]) => new Map(records.map((record) => [pairKey(record), record]));

/** One message per request: a 700 kB run must not share a produce request with others. */
async function produceEach(topic: string, runs: Array<{ runId: string; answer?: string; partition: number }>) {
  for (const run of runs) await produceRaw(topic, [{ key: run.runId, value: JSON.stringify(testRun({ runId: run.runId, ...(run.answer === undefined ? {} : { answer: run.answer }) })), partition: run.partition }]);
}

describe('record sizes', () => {
  it('sheds the evidence of a record over the limit, fails one too large even without it, records every pair, commits every offset, and exits 0 on SIGTERM', { timeout: 120_000 }, async () => {
    const topics = await useServiceTopics(3);
    const groupId = uniqueGroupId('sizes');
    const runs = Array.from({ length: 30 }, (_, index) => ({
      runId: `size-${index}`,
      partition: index % 3,
      // Three runs with a 350 kB answer (the run is 700 kB: under maxMessageBytes); one whose reason is 1.2 MB.
      ...(index % 10 === 3 ? { answer: 'x'.repeat(350_000) } : index === 7 ? { answer: 'HUGE answer' } : {}),
    }));
    const service = spawnService({ topics, groupId, config: sizesConfig });
    await waitForLog(service, /scorestream is consuming/);
    await produceEach(topics.runs, runs);
    const records = await readUntil<ScoreRecord>(topics.results, (seen) => latestPerPair(seen).size >= runs.length * 3, 90_000);
    const byPair = latestPerPair(records);
    expect(byPair.size).toBe(90);
    for (const run of runs.filter((candidate) => candidate.answer?.startsWith('x') === true)) {
      const hoarded = byPair.get(`${run.runId}|hoarder`)!;
      expect(hoarded).toMatchObject({ status: 'scored', score: 1, verdict: 'pass', steps: {}, truncated: { limitBytes: 1_000_000, dropped: [{ part: 'steps' }] } });
      expect(hoarded.truncated!.originalBytes).toBeGreaterThan(1_000_000);
      expect(hoarded.truncated!.dropped[0]!.bytes).toBeGreaterThan(1_000_000);
      expect(byPair.get(`${run.runId}|answer-length`)).toMatchObject({ status: 'scored' });
    }
    expect(byPair.get('size-7|verbose')).toMatchObject({ status: 'failed', scoreId: expect.any(String), error: { code: 'record_too_large', retryable: false } });
    expect(byPair.get('size-7|verbose')).not.toHaveProperty('verdict');
    expect(byPair.get('size-8|verbose')).toMatchObject({ status: 'scored', score: 0.5, verdict: 'pass' });
    const others = [...byPair.values()].filter((record) => record.truncated === undefined && record.status !== 'failed');
    expect(others).toHaveLength(90 - 3 - 1);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 }).toBe(runs.length);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });

  it('a record the broker refuses (its topic allows less than maxRecordBytes) fails alone: the records it shared a request with are written, it is written smaller', { timeout: 120_000 }, async () => {
    const topics = await useServiceTopics(1);
    const results = await useTopic({ prefix: 'small-scores', config: { 'max.message.bytes': '300000' } });
    const groupId = uniqueGroupId('refused');
    const service = await startTestService({ topics: { ...topics, results }, groupId, scorers: [{ scorer: hoardingScorer, pass: { atLeast: 0.5 } }, { scorer: verboseScorer }, { scorer: answerLengthScorer }], retries: { enabled: false } });
    // A 150 kB answer: the hoarder's record is 450 kB (within maxRecordBytes, over the topic's 300 kB).
    const runs = Array.from({ length: 12 }, (_, index) => ({ runId: `refused-${index}`, partition: 0, ...(index === 4 ? { answer: 'y'.repeat(150_000) } : index === 9 ? { answer: 'HUGE' } : {}) }));
    await produceEach(topics.runs, runs);
    const records = await readUntil<ScoreRecord>(results, (seen) => latestPerPair(seen).size >= runs.length * 3, 90_000);
    const byPair = latestPerPair(records);
    expect(byPair.size).toBe(36);
    expect(byPair.get('refused-4|hoarder')).toMatchObject({ status: 'scored', verdict: 'pass', steps: {}, truncated: { dropped: [{ part: 'steps' }] } });
    expect(byPair.get('refused-4|hoarder')!.truncated!.limitBytes).toBeLessThan(500_000);
    expect(byPair.get('refused-9|verbose')).toMatchObject({ status: 'failed', error: { code: 'record_too_large' } });
    expect([...byPair.values()].filter((record) => record.status === 'scored' && record.truncated === undefined)).toHaveLength(34);
    // The hoarder's record was refused and written smaller; the verbose one was over maxRecordBytes already.
    expect(service.stats.recordsRefused).toBeGreaterThanOrEqual(1);
    expect(service.stats.recordsDropped).toBe(0);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 }).toBe(runs.length);
  });

  it.each(['run-event', 'otlp'] as const)('dead-letters a 1.1 MB %s message on a runs topic that allows 4 MB with as much of its value as fits and its hash, and moves on', { timeout: 120_000 }, async (format) => {
    const topics = await useServiceTopics(1);
    const runs = await useTopic({ prefix: 'runs-4mb', config: { 'max.message.bytes': '4194304' } });
    const groupId = uniqueGroupId(`oversized-${format}`);
    const traffic = format === 'otlp' ? otlpTraffic({ traces: 20, agentEvery: 2, encoding: 'otlp_proto', byTrace: true }) : undefined;
    const small = format === 'otlp' ? traffic!.messages : Array.from({ length: 10 }, (_, index) => ({ key: `small-${index}`, value: Buffer.from(JSON.stringify(testRun({ runId: `small-${index}` }))) }));
    const big = Buffer.from(format === 'otlp' ? 'o'.repeat(1_150_000) : JSON.stringify(testRun({ runId: 'big', answer: 'z'.repeat(550_000) })));
    expect(big.length).toBeGreaterThan(1_100_000);
    const half = Math.floor(small.length / 2);
    const service = await startTestService({
      topics: { ...topics, runs },
      groupId,
      scorers: [{ scorer: answerLengthScorer }],
      ...(format === 'otlp' ? { input: { format: 'otlp', gracePeriodMs: 200 } } : {}),
    });
    await produceRaw(runs, small.slice(0, half));
    await produceRaw(runs, [{ key: 'big', value: big }]);
    await produceRaw(runs, small.slice(half));
    const [deadLetter] = await readRecords<DeadLetter>(topics.deadLetter, 1, 60_000);
    expect(deadLetter).toMatchObject({ error: { code: 'oversized' }, key: { data: 'big' }, valueSha256: createHash('sha256').update(big).digest('hex') });
    expect(deadLetter!.truncated!.droppedBytes).toBeGreaterThan(100_000);
    expect(deadLetter!.truncated!.keptBytes + deadLetter!.truncated!.droppedBytes).toBe(big.length);
    expect(big.subarray(0, deadLetter!.truncated!.keptBytes).toString('utf8')).toBe(deadLetter!.value!.data);
    const expected = format === 'otlp' ? traffic!.agents.length : small.length;
    await readUntil<ScoreRecord>(topics.results, (seen) => new Set(seen.map((record) => record.runId)).size >= expected, 60_000);
    await expect.poll(() => committedTotal(groupId, runs), { timeout: 30_000 }).toBe(small.length + 1);
    expect(service.stats.deadLettersByCode.get('oversized')).toBe(1);
  });
});

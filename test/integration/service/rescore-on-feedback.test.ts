// Re-scoring on feedback against a real broker (docs/feedback.md, re-scoring): the scoring service
// and the feedback join, both real. A thumbs-down on a run the judges passed makes the join ask for
// a re-score of each pair; the service scores again only the binding that opted in (`rescoreOn`),
// reading the run event back from the runs topic, and publishes exactly one record marked with
// that feedback under the re-score's id; the binding without the option is refused and counted. A
// duplicate of the feedback asks for nothing more, and the re-score is not joined as a pair; a
// vote changed from up to down asks. A request whose run is not on the topic any more is a
// run_unavailable decision; a request read again is scored under the same id and key. Under
// exactly-once delivery the re-score is one committed record, in the same transaction as the
// request's offset.
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../src/kit/contracts/decision-record.ts';
import type { FeedbackRecord } from '../../../src/kit/contracts/feedback-record.ts';
import { recordKeyFor } from '../../../src/kit/contracts/record-key.ts';
import type { RescoreRequest } from '../../../src/kit/contracts/rescore-request.ts';
import { rescoreIdFor } from '../../../src/kit/contracts/score-id.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { startAgreementJoin } from '../../../service/agreement-join.ts';
import type { AgreementJoin } from '../../../service/agreement-join.ts';
import { readMessages, uniqueGroupId, useTopic, testEdge } from '../../helpers/kafka.ts';
import { readAllKeyed } from '../../helpers/read-all.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

async function until(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

const thumbsDown = (runId: string): FeedbackRecord => ({ schemaVersion: 1, feedbackId: `fb-${runId}`, target: { type: 'run', runId }, source: 'end_user', submitter: { id: 'user-7' }, name: 'thumbs', value: false, comment: 'It never said when my order ships.', submittedAt: new Date().toISOString() });

describe('re-scoring on feedback', () => {
  const joins: AgreementJoin[] = [];
  afterEach(async () => {
    for (const join of joins.splice(0)) await join.stop();
  });

  it('re-scores a thumbs-down once, only for the binding that opted in, and a duplicate feedback asks for nothing more', { timeout: 120_000 }, async () => {
    const topics = await useServiceTopics(2);
    const [rescore, feedback, agreements] = await Promise.all([useTopic({ prefix: 'rescore', partitions: 2 }), useTopic({ prefix: 'feedback', partitions: 2 }), useTopic({ prefix: 'agreements', config: { 'cleanup.policy': 'compact' } })]);
    await useTopic({ name: `${feedback}-dlq` });
    // Both judges pass every run (0.9); the opted one counts how often it ran.
    let optedRuns = 0;
    const opted = createScorer({ id: 'opted', description: 'answers well' }).generateScore(() => {
      optedRuns += 1;
      return 0.9;
    });
    const plain = createScorer({ id: 'plain', description: 'answers well too' }).generateScore(() => 0.9);
    const service = await startTestService({
      topics: { ...topics, rescore },
      retries: { enabled: false },
      scorers: [
        { scorer: opted, version: '1', rescoreOn: ['thumbs-down'] },
        { scorer: plain, version: '1' },
      ],
    });
    const join = await startAgreementJoin({ edge: testEdge('scorestream-test-agreement'), resultsTopic: topics.results, feedbackTopic: feedback, agreementsTopic: agreements, rescoreTopic: rescore, windowMs: 3_600_000, ttlMs: 600_000, flushIntervalMs: 100 });
    joins.push(join);

    await produceRaw(topics.runs, [{ key: 'run-1', value: JSON.stringify(testRun({ runId: 'run-1' })) }]);
    await until('both scores read by the join', () => join.counters.scoresRead === 2);
    const sentAt = Date.now();
    await produceRaw(feedback, [{ key: 'run-1', value: JSON.stringify(thumbsDown('run-1')) }]);

    const records = await readUntil<ScoreRecord>(topics.results, (seen) => seen.some((record) => record.rescore !== undefined), 60_000);
    await until('both requests decided by the service', () => (service.stats.rescores.get('admitted') ?? 0) + (service.stats.rescores.get('not_enabled') ?? 0) === 2);
    expect(join.counters.rescoresRequested).toBe(2); // one per disagreeing pair; the service decides
    expect(Object.fromEntries(service.stats.rescores)).toEqual({ admitted: 1, not_enabled: 1 });
    const original = records.find((record) => record.scorerId === 'opted' && record.rescore === undefined)!;
    const rescored = records.filter((record) => record.rescore !== undefined);
    expect(rescored).toHaveLength(1);
    // Its run event is read back, old by design: its wait to start (the read included) and its scorer are timed, no way in.
    expect(Object.keys(rescored[0]!.latency!).filter((stage) => stage !== 'judgeMs').sort()).toEqual(['dispatchMs', 'scoringMs']);
    expect(rescored[0]).toMatchObject({
      status: 'scored',
      score: 0.9,
      runId: 'run-1',
      scorerId: 'opted',
      scorerVersion: '1',
      scoreId: rescoreIdFor({ runId: 'run-1', scorerId: 'opted', scorerVersion: '1', feedbackId: 'fb-run-1' }),
      rescore: { feedbackId: 'fb-run-1', reason: 'thumbs-down' },
      source: original.source, // the run event it read back is the one first scored
    });
    expect(optedRuns).toBe(2);
    console.info(`[rescore] feedback sent → re-score record scored in ${Date.parse(rescored[0]!.scoredAt) - sentAt} ms (the join's request, the run read back by its position (fetchAt), the scorer)`);

    // The same feedback again (a double click): the join knows the pairs, so nothing is asked or scored again.
    await produceRaw(feedback, [{ key: 'run-1', value: JSON.stringify(thumbsDown('run-1')) }]);
    await until('the duplicate joined again', () => join.counters.pairsRepeated === 2);
    await delay(3_000); // what a second re-score would need, several times over (the first took well under)
    expect(join.counters.rescoresRequested).toBe(2);
    expect(optedRuns).toBe(2);
    // The re-score is read by the join but not joined: two pairs in all, neither with the re-score.
    expect(join.counters.rescoresRead).toBe(1);
    expect(join.counters.pairsPublished).toBe(2);
    const all = await readMessages(topics.results, { count: 3 });
    await expect(readMessages(topics.results, { count: 4, timeoutMs: 2_000 })).rejects.toThrow('got 3 of 4');
    // Its Kafka key is the re-score's id: a redelivered request's record would replace it under compaction.
    const rescoredMessage = all.find((message) => (JSON.parse(message.value!.toString()) as ScoreRecord).rescore !== undefined)!;
    expect(rescoredMessage.key?.toString()).toBe(rescored[0]!.scoreId);

    // A changed vote (same feedbackId): a thumbs-up agrees and asks for nothing; changed to a thumbs-down, it asks.
    await produceRaw(topics.runs, [{ key: 'run-2', value: JSON.stringify(testRun({ runId: 'run-2' })) }]);
    await until('run-2 scored and read by the join', () => join.counters.scoresRead === 5);
    await produceRaw(feedback, [{ key: 'run-2', value: JSON.stringify({ ...thumbsDown('run-2'), value: true }) }]);
    await until('the thumbs-up joined', () => join.counters.pairsPublished === 4);
    expect(join.counters.rescoresRequested).toBe(2);
    await produceRaw(feedback, [{ key: 'run-2', value: JSON.stringify(thumbsDown('run-2')) }]);
    const changed = await readUntil<ScoreRecord>(topics.results, (seen) => seen.some((record) => record.rescore?.feedbackId === 'fb-run-2'), 60_000);
    expect(changed.filter((record) => record.rescore !== undefined).map((record) => [record.runId, record.scorerId, record.rescore?.reason])).toEqual([
      ['run-1', 'opted', 'thumbs-down'],
      ['run-2', 'opted', 'thumbs-down'],
    ]);
    expect(join.counters.rescoresRequested).toBe(4);
    expect(optedRuns).toBe(4);

    // A request whose run event is not at its offset any more: a run_unavailable decision, marked.
    const lost: RescoreRequest = { schemaVersion: 1, runId: 'run-1', scorerId: 'opted', scorerVersion: '1', scoreId: original.scoreId, source: { ...original.source, offset: '999' }, rescore: { feedbackId: 'fb-lost', reason: 'thumbs-down' }, requestedAt: new Date().toISOString() };
    await produceRaw(rescore, [{ key: recordKeyFor(lost).key, value: JSON.stringify(lost) }]);
    const decisions = await readUntil<DecisionRecord>(topics.decisions, (seen) => seen.some((decision) => decision.reason === 'run_unavailable'), 60_000);
    expect(decisions.find((decision) => decision.reason === 'run_unavailable')).toMatchObject({
      runId: 'run-1',
      scorerId: 'opted',
      decision: 'skipped',
      rescore: { feedbackId: 'fb-lost', reason: 'thumbs-down' },
      detail: expect.stringContaining('offset 999'),
    });
    expect(service.stats.rescores.get('run_unavailable')).toBe(1);
    expect(optedRuns).toBe(4);

    // A request read again (redelivered after a crash, or sent twice): scored again under the same id and Kafka key, which compaction collapses.
    const again: RescoreRequest = { ...lost, source: original.source, rescore: { feedbackId: 'fb-run-1', reason: 'thumbs-down' } };
    await produceRaw(rescore, [{ key: recordKeyFor(again).key, value: JSON.stringify(again) }]);
    const twice = (await readMessages(topics.results, { count: 7 })).filter((message) => (JSON.parse(message.value!.toString()) as ScoreRecord).rescore?.feedbackId === 'fb-run-1');
    expect(twice.map((message) => message.key?.toString())).toEqual([rescored[0]!.scoreId, rescored[0]!.scoreId]);
    expect(twice.map((message) => (JSON.parse(message.value!.toString()) as ScoreRecord).scoreId)).toEqual([rescored[0]!.scoreId, rescored[0]!.scoreId]);
  });

  it('re-scores a thumbs-down exactly once under exactly-once delivery: one committed record, marked and keyed by the re-score id, and the request\'s offset committed', { timeout: 120_000 }, async () => {
    const topics = await useServiceTopics(2);
    const [rescore, feedback, agreements] = await Promise.all([useTopic({ prefix: 'rescore', partitions: 2 }), useTopic({ prefix: 'feedback', partitions: 2 }), useTopic({ prefix: 'agreements', config: { 'cleanup.policy': 'compact' } })]);
    await useTopic({ name: `${feedback}-dlq` });
    const groupId = uniqueGroupId('eos-rescore');
    let optedRuns = 0;
    const opted = createScorer({ id: 'opted', description: 'answers well' }).generateScore(() => {
      optedRuns += 1;
      return 0.9;
    });
    const service = await startTestService({
      topics: { ...topics, rescore },
      groupId,
      delivery: 'exactly-once',
      retries: { enabled: false },
      scorers: [
        { scorer: opted, version: '1', rescoreOn: ['thumbs-down'] },
        { scorer: createScorer({ id: 'plain', description: 'answers well too' }).generateScore(() => 0.9), version: '1' },
      ],
    });
    const join = await startAgreementJoin({ edge: testEdge('scorestream-test-agreement'), resultsTopic: topics.results, feedbackTopic: feedback, agreementsTopic: agreements, rescoreTopic: rescore, windowMs: 3_600_000, ttlMs: 600_000, flushIntervalMs: 100 });
    joins.push(join);

    await produceRaw(topics.runs, [{ key: 'eos-run', value: JSON.stringify(testRun({ runId: 'eos-run' })) }]);
    await until('both scores read by the join', () => join.counters.scoresRead === 2);
    await produceRaw(feedback, [{ key: 'eos-run', value: JSON.stringify(thumbsDown('eos-run')) }]);

    await until('both requests decided by the service', () => (service.stats.rescores.get('admitted') ?? 0) + (service.stats.rescores.get('not_enabled') ?? 0) === 2);
    expect(Object.fromEntries(service.stats.rescores)).toEqual({ admitted: 1, not_enabled: 1 });
    // Each request's offset goes out in a transaction: the admitted one's with its record, the refused one's with none.
    await expect.poll(() => committedTotal(groupId, rescore), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 }).toBe(1);
    await service.stop({ timeoutMs: 5_000 });

    const committed = await readAllKeyed<ScoreRecord>(topics.results, { isolation: 'read_committed' });
    const rescored = committed.filter((message) => message.value.rescore !== undefined);
    const scoreId = rescoreIdFor({ runId: 'eos-run', scorerId: 'opted', scorerVersion: '1', feedbackId: 'fb-eos-run' });
    expect(rescored).toHaveLength(1);
    expect(rescored[0]!.key).toBe(scoreId);
    expect(rescored[0]!.transactional).toBe(true); // written in the request's transaction, not beside it
    const original = committed.find((message) => message.value.scorerId === 'opted' && message.value.rescore === undefined)!.value;
    expect(rescored[0]!.value).toMatchObject({ status: 'scored', score: 0.9, runId: 'eos-run', scorerId: 'opted', scoreId, rescore: { feedbackId: 'fb-eos-run', reason: 'thumbs-down' }, source: original.source });
    expect(committed).toHaveLength(3); // the two first scores and the one re-score, nothing twice
    // Nothing aborted was left behind: what a read_uncommitted reader sees is the same.
    const keys = (messages: { key: string | null }[]) => messages.map((message) => message.key).sort();
    expect(keys(await readAllKeyed<ScoreRecord>(topics.results, { isolation: 'read_uncommitted' }))).toEqual(keys(committed));
    expect(optedRuns).toBe(2);
    expect(service.stats.transactionFailures).toBe(0);
  });
});

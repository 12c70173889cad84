// Feedback on a thread against a real broker (docs/feedback.md, feedback on a thread): the scoring
// service with thread scorers and the feedback join, both real, the feedback sent with
// publishFeedback. Thread feedback is keyed by the thread key (tenant + thread id) and lands on the
// partition of the thread's score records; feedback sent before the thread's first score is
// compared with version 1 and stays with it when the thread resumes; feedback sent after version 1
// is compared with it, then replaced — once, under the same agreementId — by version 2, the first
// version scored after it. Another tenant's thread of the same id, and feedback naming no tenant,
// meet nothing. A disagreeing thread pair asks for no re-score and is counted as refused. A
// restarted join publishes nothing again. Not one agreement record beyond the expected ones.
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunPublisher } from '../../../producers/index.ts';
import type { RunPublisher } from '../../../producers/index.ts';
import type { AgreementPair, AgreementRecord, AgreementWindow } from '../../../src/kit/contracts/agreement-record.ts';
import type { FeedbackRecord } from '../../../src/kit/contracts/feedback-record.ts';
import { parseAgreementRecord } from '../../../src/kit/contracts/parse.ts';
import { threadKeyFor } from '../../../src/kit/contracts/thread-ids.ts';
import { startAgreementJoin } from '../../../service/agreement-join.ts';
import type { AgreementJoin } from '../../../service/agreement-join.ts';
import { threadBindings } from '../../fixtures/thread-bindings.ts';
import { readMessages, testKafka, useTopic, testEdge } from '../../helpers/kafka.ts';
import { produceRaw, startTestService } from '../../helpers/service.ts';
import { threadScores, turn, useThreadTopics } from './thread-helpers.ts';
import type { ThreadScore } from './thread-helpers.ts';

const THREAD = 't-fb';
const THREAD_KEY = threadKeyFor('acme', THREAD);
const THREAD_SCORERS = ['run-score-mean', 'turn-count'];

async function until(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

function thumbs(feedbackId: string, up: boolean, tenantId?: string): FeedbackRecord {
  return {
    schemaVersion: 1,
    feedbackId,
    target: { type: 'thread', threadId: THREAD },
    source: 'end_user',
    submitter: { id: 'user-7' },
    name: 'thumbs',
    value: up,
    ...(tenantId === undefined ? {} : { metadata: { tenantId } }),
    submittedAt: new Date().toISOString(),
  };
}

async function agreementRecords(topic: string, count: number): Promise<AgreementRecord[]> {
  const messages = await readMessages(topic, { count });
  return messages.map((message) => {
    const parsed = parseAgreementRecord(JSON.parse(message.value!.toString()));
    if (!parsed.success) throw new Error(JSON.stringify(parsed.problems));
    return parsed.data;
  });
}

describe('feedback on a thread', () => {
  const joins: AgreementJoin[] = [];
  let publisher: RunPublisher | undefined;
  afterEach(async () => {
    for (const join of joins.splice(0)) await join.stop();
    await publisher?.close();
    publisher = undefined;
  });

  it("joins a thread's scores, version by version as documented, and nothing of another tenant's thread of the same id", { timeout: 180_000 }, async () => {
    // Results and feedback with as many partitions, so the thread key puts both sides on one partition number.
    const [runs, results, deadLetter, decisions, feedback, agreements, rescore] = await Promise.all([
      useTopic({ prefix: 'runs', partitions: 2 }),
      useTopic({ prefix: 'scores', partitions: 3 }),
      useTopic({ prefix: 'dlq' }),
      useTopic({ prefix: 'decisions' }),
      useTopic({ prefix: 'feedback', partitions: 3 }),
      useTopic({ prefix: 'agreements', config: { 'cleanup.policy': 'compact' } }),
      useTopic({ prefix: 'rescore' }),
    ]);
    await useTopic({ name: `${feedback}-dlq` });
    useThreadTopics(runs);
    await startTestService({ topics: { runs, results, deadLetter, decisions }, scorers: threadBindings(1_000) });
    const joinOptions = { edge: testEdge('scorestream-test-agreement'), resultsTopic: results, feedbackTopic: feedback, agreementsTopic: agreements, rescoreTopic: rescore, windowMs: 3_600_000, ttlMs: 600_000, flushIntervalMs: 100 };
    const join = await startAgreementJoin(joinOptions);
    joins.push(join);
    publisher = createRunPublisher({ kafka: testKafka('scorestream-test-publisher'), feedbackTopic: feedback });

    // Before the thread is scored: acme's thumbs-down, globex's about its own thread 't-fb', and one naming no tenant.
    await publisher.publishFeedback([thumbs('fb-early', false, 'acme'), thumbs('fb-globex', false, 'globex'), thumbs('fb-no-tenant', false)]);
    await until('the first feedback read', () => join.counters.feedbackRead === 3 && join.counters.feedbackThreads === 3);
    await produceRaw(runs, [turn(THREAD, 1), turn(THREAD, 2)]);
    const v1 = await threadScores(results, (found) => found.length >= 2);
    expect(v1.map((score) => [score.scorerId, score.thread.key, score.thread.version]).sort()).toEqual(THREAD_SCORERS.map((scorerId) => [scorerId, THREAD_KEY, 1]));
    await until('fb-early paired with version 1', () => join.counters.pairsPublished === 2);

    // After version 1: compared with it, until version 2 is scored.
    await until('version 1 scored before the next feedback is given', () => Date.now() > Math.max(...v1.map((score) => Date.parse(score.scoredAt))));
    await publisher.publishFeedback(thumbs('fb-late', true, 'acme'));
    await until('fb-late paired with version 1', () => join.counters.pairsPublished === 4);
    await produceRaw(runs, [turn(THREAD, 3)]);
    const all = await threadScores(results, (found) => found.length >= 4);
    const v2 = all.filter((score) => score.thread.version === 2);
    expect(v2.map((score) => [score.scorerId, score.thread.turns, score.thread.supersedes]).sort()).toEqual(
      THREAD_SCORERS.map((scorerId) => [scorerId, 3, v1.find((score) => score.scorerId === scorerId)!.thread.versionId]),
    );
    await until('fb-late moved to version 2', () => join.counters.pairsPublished === 6);
    await until('the windows published', () => join.counters.windowsPublished >= 2);
    await delay(300); // a last flush of the windows

    const published = join.counters.pairsPublished + join.counters.windowsPublished;
    const records = await agreementRecords(agreements, published);
    const pairs = records.filter((record): record is AgreementPair => record.kind === 'pair');
    const scoreOf = (scores: ThreadScore[], scorerId: string) => scores.find((score) => score.scorerId === scorerId)!;
    // fb-early × v1, fb-late × v1, then fb-late × v2 under the ids of its v1 pairs (published after them).
    expect(pairs.map((pair) => `${pair.feedbackId} ${pair.scorerId} v${pair.thread?.version}`).sort()).toEqual(
      ['fb-early', 'fb-late'].flatMap((feedbackId) => THREAD_SCORERS.flatMap((scorerId) => (feedbackId === 'fb-early' ? [1] : [1, 2]).map((version) => `${feedbackId} ${scorerId} v${version}`))).sort(),
    );
    for (const scorerId of THREAD_SCORERS) {
      const late = pairs.filter((pair) => pair.feedbackId === 'fb-late' && pair.scorerId === scorerId);
      expect(late.map((pair) => pair.thread?.version), scorerId).toEqual([1, 2]);
      expect(late[1]!.agreementId).toBe(late[0]!.agreementId);
    }
    const compacted = new Map(pairs.map((pair) => [pair.agreementId, pair]));
    expect(compacted.size).toBe(4);
    for (const pair of compacted.values()) {
      const version = pair.feedbackId === 'fb-early' ? v1 : v2;
      const score = scoreOf(version, pair.scorerId);
      expect(pair).toMatchObject({ scoreId: score.scoreId, runId: score.runId, thread: { id: THREAD, key: THREAD_KEY, version: score.thread.version }, judge: { score: score.status === 'scored' ? score.score : Number.NaN } });
      expect(pair.human.label).toBe(pair.feedbackId === 'fb-early' ? 'fail' : 'pass');
    }
    // turn-count scored 2 and 3 turns: a pass on the 0.5 threshold; the thumbs-down disagrees, the thumbs-up agrees.
    expect([...compacted.values()].filter((pair) => pair.scorerId === 'turn-count').map((pair) => [pair.feedbackId, pair.agree]).sort()).toEqual([['fb-early', false], ['fb-late', true]]);
    // Per scorer, each (feedback, scorer) counted once: n = 2, whatever was replaced.
    const windows = new Map(records.filter((record): record is AgreementWindow => record.kind === 'window').map((window) => [window.scorerId, window]));
    for (const scorerId of THREAD_SCORERS) expect(windows.get(scorerId), scorerId).toMatchObject({ n: 2 });
    await expect(readMessages(agreements, { count: published + 1, timeoutMs: 3_000 })).rejects.toThrow(`got ${published} of ${published + 1}`);

    // A thread score is not re-scored on feedback: its disagreements are refused and counted, nothing is asked.
    const disagreeing = pairs.filter((pair) => !pair.agree && pair.human.label === 'fail').length;
    expect(disagreeing).toBeGreaterThanOrEqual(1);
    expect(join.counters).toMatchObject({ rescoresRequested: 0, rescoresRefused: disagreeing });
    await expect(readMessages(rescore, { count: 1, timeoutMs: 2_000 })).rejects.toThrow('got 0 of 1');

    // Keyed by the thread key: acme's feedback on the partition of acme's thread scores.
    const feedbackMessages = await readMessages(feedback, { count: 4 });
    const keys = new Map(feedbackMessages.map((message) => [(JSON.parse(message.value!.toString()) as FeedbackRecord).feedbackId, message]));
    expect(Object.fromEntries([...keys].map(([feedbackId, message]) => [feedbackId, message.key!.toString()]))).toEqual({ 'fb-early': THREAD_KEY, 'fb-late': THREAD_KEY, 'fb-globex': 'globex:t-fb', 'fb-no-tenant': ':t-fb' });
    const scoreMessages = await readMessages(results, { count: 7 }); // three turns' answer-length records, four thread scores
    const threadPartitions = new Set(scoreMessages.filter((message) => (JSON.parse(message.value!.toString()) as { thread?: unknown }).thread !== undefined).map((message) => message.partition));
    expect([...threadPartitions]).toEqual([keys.get('fb-early')!.partition]);
    expect(keys.get('fb-late')!.partition).toBe(keys.get('fb-early')!.partition);

    // A restart: the ledger rebuilt from the agreements topic, both topics replayed from now − ttl; nothing published again.
    await join.stop();
    joins.splice(joins.indexOf(join), 1);
    const second = await startAgreementJoin(joinOptions);
    joins.push(second);
    await second.caughtUp;
    await until('the replayed pairs met again', () => second.counters.pairsRepeated >= 4);
    await delay(500);
    expect(second.counters).toMatchObject({ feedbackRead: 4, pairsPublished: 0, rescoresRefused: 0 });
    const total = published + second.counters.windowsPublished;
    await expect(readMessages(agreements, { count: total + 1, timeoutMs: 3_000 })).rejects.toThrow(`got ${total} of ${total + 1}`);
  });
});

// The live feedback join against a real broker (service/agreement-join.ts, docs/feedback.md):
// feedback before and after its score record, duplicates of both, bad feedback dead-lettered with
// its reason, and a restart with a pending join — rebuilt from the topics themselves, no
// agreement lost and none published twice (not only in the compacted view: not at all).
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgreementPair, AgreementRecord, AgreementWindow } from '../../../src/kit/contracts/agreement-record.ts';
import type { FeedbackRecord } from '../../../src/kit/contracts/feedback-record.ts';
import { parseAgreementRecord, parseDeadLetter } from '../../../src/kit/contracts/parse.ts';
import { startAgreementJoin } from '../../../service/agreement-join.ts';
import type { AgreementJoin } from '../../../service/agreement-join.ts';
import { scoreRecord } from '../../helpers/dashboard-records.ts';
import { readMessages, testKafka, useTopic, testEdge } from '../../helpers/kafka.ts';

const WINDOW_MS = 3_600_000;

function thumbs(runId: string, up: boolean, fields: Partial<FeedbackRecord> = {}): FeedbackRecord {
  return { schemaVersion: 1, feedbackId: `fb-${runId}`, target: { type: 'run', runId }, source: 'end_user', name: 'thumbs', value: up, submittedAt: new Date().toISOString(), ...fields };
}

async function produce(topic: string, messages: { key: string; value: string }[]): Promise<void> {
  // Idempotent: a send retried after the broker wrote it must not double a feedback (and the counts).
  const producer = testKafka('scorestream-test-producer').producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic, messages, acks: -1 });
  } finally {
    await producer.disconnect();
  }
}

const scoreMessage = (runId: string, score: number, scoreId = `score-${runId}`) => ({ key: runId, value: JSON.stringify(scoreRecord({ status: 'scored', score }, { runId, scoreId, scorerId: 'completeness', version: '1', at: Date.now() })) });
const feedbackMessage = (feedback: FeedbackRecord) => ({ key: feedback.target.type === 'run' ? feedback.target.runId : 'x', value: JSON.stringify(feedback) });

async function until(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

async function agreementRecords(topic: string, count: number): Promise<AgreementRecord[]> {
  const messages = await readMessages(topic, { count });
  return messages.map((message) => {
    const parsed = parseAgreementRecord(JSON.parse(message.value!.toString()));
    if (!parsed.success) throw new Error(JSON.stringify(parsed.problems));
    return parsed.data;
  });
}

const pairsOf = (records: AgreementRecord[]) => records.filter((record): record is AgreementPair => record.kind === 'pair');
const latestWindow = (records: AgreementRecord[]) => records.filter((record): record is AgreementWindow => record.kind === 'window').at(-1);

describe('the feedback join against Kafka', () => {
  const joins: AgreementJoin[] = [];
  afterEach(async () => {
    for (const join of joins.splice(0)) await join.stop();
  });

  async function topics() {
    const [results, feedback] = await Promise.all([useTopic({ prefix: 'scores', partitions: 2 }), useTopic({ prefix: 'feedback', partitions: 2 })]);
    const agreements = await useTopic({ prefix: 'agreements', config: { 'cleanup.policy': 'compact' } });
    // The join's dead letters go to `{feedback}-dlq` (the topology's rule, src/engine/topology/).
    const deadLetter = await useTopic({ name: `${feedback}-dlq` });
    return { results, feedback, agreements, deadLetter };
  }

  async function start(names: Awaited<ReturnType<typeof topics>>) {
    const join = await startAgreementJoin({ edge: testEdge('scorestream-test-agreement'), resultsTopic: names.results, feedbackTopic: names.feedback, agreementsTopic: names.agreements, windowMs: WINDOW_MS, ttlMs: 600_000, flushIntervalMs: 100 });
    joins.push(join);
    return join;
  }

  it('joins feedback that comes before its score and after it, once each despite duplicates, and dead-letters bad feedback with its reason', async () => {
    const names = await topics();
    const join = await start(names);
    // Run a: the thumbs-down first, then a score the judge passed (a disagreement).
    await produce(names.feedback, [feedbackMessage(thumbs('run-a', false, { comment: 'wrong answer' }))]);
    await until('feedback a read', () => join.counters.feedbackRead === 1);
    await produce(names.results, [scoreMessage('run-a', 0.9)]);
    // Run b: the score first, then a thumbs-up (an agreement).
    await produce(names.results, [scoreMessage('run-b', 0.8)]);
    await until('score b read', () => join.counters.scoresRead === 2);
    await produce(names.feedback, [feedbackMessage(thumbs('run-b', true))]);
    await until('two pairs', () => join.counters.pairsPublished === 2);
    // Both again, and two records that are not feedback.
    await produce(names.results, [scoreMessage('run-b', 0.8)]);
    await produce(names.feedback, [feedbackMessage(thumbs('run-b', true)), { key: 'run-c', value: '{not json' }, { key: 'run-c', value: JSON.stringify({ schemaVersion: 1, feedbackId: 'f-bad', target: { type: 'run', runId: '' } }) }]);
    await until('the duplicates read', () => join.counters.scoresRead === 3 && join.counters.feedbackRead === 3 && join.counters.deadLettersByCode.size === 2);
    // The counters of a batch rise as it is read; its pairs are decided at its end.
    await until('the duplicates joined again', () => join.counters.pairsRepeated === 2);
    await until('the window published', () => join.counters.windowsPublished >= 1);
    expect(join.counters.pairsPublished).toBe(2);
    await delay(300); // a last flush of the windows
    const published = join.counters.pairsPublished + join.counters.windowsPublished;
    const records = await agreementRecords(names.agreements, published);
    const pairs = pairsOf(records);
    expect(pairs.map((pair) => [pair.runId, pair.human.label, pair.judge.label, pair.agree]).sort()).toEqual([
      ['run-a', 'fail', 'pass', false],
      ['run-b', 'pass', 'pass', true],
    ]);
    expect(pairs.find((pair) => pair.runId === 'run-a')?.human.comment).toBe('wrong answer');
    const window = latestWindow(records);
    expect(window).toMatchObject({ scorerId: 'completeness', scorerVersion: '1', n: 2, agreements: 1, accuracy: 0.5, confusion: { labels: ['fail', 'pass'], counts: [[0, 1], [0, 1]] } });
    // κ with every judge label 'pass': chance agreement equals observed, κ = 0.
    expect(window?.kappa).toBe(0);
    expect(pairs).toHaveLength(2);
    // Nothing else was published: a read of one more record times out.
    await expect(readMessages(names.agreements, { count: published + 1, timeoutMs: 3_000 })).rejects.toThrow(`got ${published} of ${published + 1}`);

    const deadLetters = (await readMessages(names.deadLetter, { count: 2 })).map((message) => parseDeadLetter(JSON.parse(message.value!.toString())));
    expect(deadLetters.map((letter) => (letter.success ? letter.data.error.code : 'unparsable')).sort()).toEqual(['invalid_json', 'schema_violation']);
    const violation = deadLetters.find((letter) => letter.success && letter.data.error.code === 'schema_violation');
    expect(violation?.success && violation.data.source.topic).toBe(names.feedback);
    expect(violation?.success && violation.data.error.problems?.length).toBeGreaterThan(0);
  });

  it("publishes through the emitter: a person's e-mail address never reaches the agreements topic, and a comment the broker refuses is cut, not dropped", async () => {
    const [results, feedback] = await Promise.all([useTopic({ prefix: 'scores' }), useTopic({ prefix: 'feedback' })]);
    // A topic that takes 4 KiB at most: a pair with a 40 KB comment is refused as it is (MESSAGE_TOO_LARGE).
    const agreements = await useTopic({ prefix: 'agreements', config: { 'cleanup.policy': 'compact', 'max.message.bytes': '4096' } });
    await useTopic({ name: `${feedback}-dlq` });
    const join = await startAgreementJoin({ edge: testEdge('scorestream-test-agreement'), resultsTopic: results, feedbackTopic: feedback, agreementsTopic: agreements, rescoreTopic: null, windowMs: WINDOW_MS, ttlMs: 600_000, flushIntervalMs: 100 });
    joins.push(join);
    const address = 'reviewer.alice@example.com';
    await produce(results, [scoreMessage('run-mail', 0.9), scoreMessage('run-long', 0.9)]);
    await produce(feedback, [
      feedbackMessage(thumbs('run-mail', false, { comment: `wrong: mail me at ${address}`, submitter: { id: address, name: 'Alice' } })),
      feedbackMessage(thumbs('run-long', false, { comment: `${address} `.repeat(1_500) })),
    ]);
    await until('two pairs', () => join.counters.pairsPublished === 2);
    await until('a window', () => join.counters.windowsPublished >= 1);
    const published = join.counters.pairsPublished + join.counters.windowsPublished;
    const messages = await readMessages(agreements, { count: published });
    for (const message of messages) expect(message.value!.toString()).not.toContain('example.com');
    const pairs = pairsOf(await agreementRecords(agreements, published));
    expect(pairs.find((pair) => pair.runId === 'run-mail')?.human).toMatchObject({ comment: 'wrong: mail me at [redacted:email]', submitter: { id: '[redacted:email]', name: 'Alice' } });
    const long = pairs.find((pair) => pair.runId === 'run-long')!;
    expect(long.truncated?.comment.keptBytes).toBeGreaterThan(0);
    expect(long.truncated?.comment.droppedBytes).toBeGreaterThan(0);
    expect(long.human.comment?.startsWith('[redacted:email] [redacted:email]')).toBe(true);
    expect(join.output.recordsRefused).toBeGreaterThanOrEqual(1);
    expect(join.output.recordsDropped).toBe(0);
  });

  it('keeps a pending join across a restart and publishes no pair twice', async () => {
    const names = await topics();
    const first = await start(names);
    // d completes before the stop; e's feedback waits for a score that comes while the join is down.
    await produce(names.results, [scoreMessage('run-d', 0.2)]);
    await produce(names.feedback, [feedbackMessage(thumbs('run-d', false)), feedbackMessage(thumbs('run-e', false))]);
    await until('pair d', () => first.counters.pairsPublished === 1 && first.counters.feedbackRead === 2);
    await until('window d', () => first.counters.windowsPublished >= 1);
    expect(first.join.stats()).toMatchObject({ runs: 2, scores: 1, feedback: 2 });
    await first.stop();
    joins.splice(joins.indexOf(first), 1);

    await produce(names.results, [scoreMessage('run-e', 0.95)]);
    const second = await start(names);
    await second.caughtUp;
    await until('pair e', () => second.counters.pairsPublished === 1);
    // The replay completed d again: known to the ledger from the agreements topic, not published.
    await until('d repeated', () => second.counters.pairsRepeated === 1);
    // A duplicate of d's feedback after the restart: repeated too.
    await produce(names.feedback, [feedbackMessage(thumbs('run-d', false))]);
    await until('the duplicate read', () => second.counters.pairsRepeated === 2);
    await until('windows', () => second.counters.windowsPublished >= 1);

    await delay(300);
    // On the topic: d's pair and window(s) (first run), the window republished at the rebuild, e's pair and its window(s).
    const published = first.counters.pairsPublished + first.counters.windowsPublished + second.counters.pairsPublished + second.counters.windowsPublished;
    const records = await agreementRecords(names.agreements, published);
    const pairs = pairsOf(records);
    expect(pairs.map((pair) => pair.runId)).toEqual(['run-d', 'run-e']);
    expect(pairs.map((pair) => pair.agree)).toEqual([true, false]);
    expect(latestWindow(records)).toMatchObject({ n: 2, agreements: 1, confusion: { counts: [[1, 1], [0, 0]] } });
    await expect(readMessages(names.agreements, { count: published + 1, timeoutMs: 3_000 })).rejects.toThrow(`got ${published} of ${published + 1}`);
  });
});

// The retry path without Kafka: a transient failure on the runs topic becomes a retry message on
// the tier of its delay (and a deferred decision) instead of a failed record; the retry message,
// processed by the retry source, re-scores the pair under the same scoreId and sampling, defers it
// again, or ends it as failed with every attempt's evidence once maxAgeMs passed. Fakes at the
// seams: the output and the clock.
import { describe, expect, it } from 'vitest';
import { retrySource } from '../../../consumers/retry-source.ts';
import type { OutgoingRecord } from '../../../kafka/kafka-records.ts';
import type { ScorestreamConfigInput } from '../../../src/engine/config/config-types.ts';
import { RETRY_DUE_HEADER, retryMessageSchema } from '../../../src/kit/contracts/retry-message.ts';
import type { RetryMessage } from '../../../src/kit/contracts/retry-message.ts';
import { scoreIdFor } from '../../../src/kit/contracts/score-id.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { ScorestreamError } from '../../../src/kit/errors.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { consumedMessage, fakeOutput, fixedScorer, messageContext, processRunEvent, runMessage, source, valueOf } from './message-fixtures.ts';

const start = Date.parse('2026-11-29T12:00:00.000Z');

/** A scorer whose judge is down while `state.down`: it throws a transient error. */
function flakyScorer(state: { down: boolean }) {
  return createScorer({ id: 'flaky', description: 'fails while its judge is down' }).generateScore(() => {
    if (state.down) throw new ScorestreamError('judge answered 503', { code: 'judge_unavailable', canRetry: true });
    return 0.7;
  });
}

function setUp(options: { retries?: ScorestreamConfigInput['retries']; maxRecordBytes?: number; scorers?: ScorestreamConfigInput['scorers'] } = {}) {
  const state = { down: true };
  let nowMs = start;
  const { context } = messageContext({
    scorers: options.scorers ?? [{ scorer: flakyScorer(state), sampling: { type: 'ratio', rate: 1 } }, { scorer: fixedScorer }],
    decisionsTopic: 'decisions',
    retries: options.retries ?? { delaysMs: [1_000, 5_000], maxAgeMs: 60_000 },
    now: () => nowMs,
    ...(options.maxRecordBytes === undefined ? {} : { maxRecordBytes: options.maxRecordBytes }),
  });
  return {
    state,
    context,
    setNow: (ms: number) => void (nowMs = ms),
    async runMessage() {
      const output = fakeOutput();
      await processRunEvent(context, runMessage({ runId: 'run-1' }), output.output);
      return output.records();
    },
    async retry(record: OutgoingRecord) {
      const output = fakeOutput();
      const message = consumedMessage({ key: 'run-1', value: String(record.value), headers: record.headers as Record<string, string>, offset: '5' });
      await processRunEvent(context, message, output.output, undefined, retrySource);
      return output.records();
    },
  };
}

const onTopic = (records: OutgoingRecord[], topic: string) => records.filter((record) => record.topic === topic);
/** The records on any retry tier of `retryTopic` (`{retryTopic}-<delay>`). */
const onTiers = (records: OutgoingRecord[], retryTopic: string) => records.filter((record) => record.topic.startsWith(`${retryTopic}-`));

describe('the retry path', () => {
  it('defers a transient failure to the retry topic with a deferred decision; other pairs are published as usual', async () => {
    const path = setUp();
    const records = await path.runMessage();
    const retryTopic = path.context.config.topics.retry;
    expect(retryTopic).toBe('agent-runs-retry');
    expect(onTopic(records, 'scores').map((record) => valueOf(record).scorerId)).toEqual(['fixed']);
    // The first attempt waits on the tier of the first delay.
    const [retry] = onTopic(records, 'agent-runs-retry-1s');
    // Keyed like the pair's score record: by its scoreId, on its run's partition.
    expect(retry).toMatchObject({ key: scoreIdFor({ runId: 'run-1', scorerId: 'flaky' }), partitionKey: 'run-1' });
    expect(retry!.headers).toMatchObject({ [RETRY_DUE_HEADER]: String(start + 1_000) });
    const message = retryMessageSchema.parse(valueOf(retry));
    expect(message).toMatchObject({
      runId: 'run-1',
      scorerId: 'flaky',
      attempt: 1,
      firstFailedAt: new Date(start).toISOString(),
      dueAt: new Date(start + 1_000).toISOString(),
      source,
      sampling: { rate: 1 },
      attempts: [{ error: { code: 'judge_unavailable', retryable: true, failedStep: 'generateScore' } }],
    });
    expect(onTopic(records, 'decisions').map(valueOf)).toEqual([
      expect.objectContaining({ decision: 'deferred', reason: 'deferred_retry', scorerId: 'flaky', retry: { attempt: 1, dueAt: new Date(start + 1_000).toISOString() } }),
    ]);
    expect(path.context.stats.retriesDeferred).toBe(1);
    expect(path.context.stats.totals().failed).toBe(0);
  });

  it('re-scores a due pair under the same scoreId and sampling, with the earlier attempts as history', async () => {
    const path = setUp();
    const [retry] = onTiers(await path.runMessage(), path.context.config.topics.retry);
    path.state.down = false;
    path.setNow(start + 1_000);
    const records = await path.retry(retry!);
    expect(records).toHaveLength(1);
    const record = valueOf(records[0]) as ScoreRecord;
    expect(record).toMatchObject({ status: 'scored', score: 0.7, scoreId: scoreIdFor({ runId: 'run-1', scorerId: 'flaky' }), sampling: { rate: 1 }, source });
    expect(record.retries).toEqual({ firstFailedAt: new Date(start).toISOString(), attempts: [expect.objectContaining({ error: expect.objectContaining({ code: 'judge_unavailable' }) })] });
    expect(path.context.stats.retriesAttempted).toBe(1);
  });

  it('defers again while the judge is down, then ends with a failed record carrying every attempt once maxAgeMs passed', async () => {
    const path = setUp({ retries: { delaysMs: [1_000, 5_000], maxAgeMs: 8_000 } });
    const retryTopic = path.context.config.topics.retry;
    const [first] = onTopic(await path.runMessage(), `${retryTopic}-1s`);
    path.setNow(start + 1_000);
    const [second] = onTopic(await path.retry(first!), `${retryTopic}-5s`);
    expect(retryMessageSchema.parse(valueOf(second))).toMatchObject({ attempt: 2, dueAt: new Date(start + 6_000).toISOString() });
    path.setNow(start + 6_000);
    // The last attempt is due at the age limit, not after it, on the first tier whose delay reaches it.
    const [third] = onTopic(await path.retry(second!), `${retryTopic}-5s`);
    expect(retryMessageSchema.parse(valueOf(third))).toMatchObject({ attempt: 3, dueAt: new Date(start + 8_000).toISOString() });
    path.setNow(start + 8_000);
    const final = await path.retry(third!);
    expect(onTiers(final, retryTopic)).toEqual([]);
    const record = valueOf(onTopic(final, 'scores')[0]) as ScoreRecord;
    expect(record).toMatchObject({ status: 'failed', error: { code: 'judge_unavailable', retryable: true } });
    expect(record.retries!.attempts).toHaveLength(3);
    expect(record.retries!.firstFailedAt).toBe(new Date(start).toISOString());
    expect(path.context.stats.retriesExhausted).toBe(1);
  });

  it('publishes a transient failure as failed at once when retries are off', async () => {
    const path = setUp({ retries: { enabled: false } });
    const records = await path.runMessage();
    expect(onTiers(records, path.context.config.topics.retry)).toEqual([]);
    expect(onTopic(records, 'scores').map((record) => valueOf(record).status).sort()).toEqual(['failed', 'scored']);
  });

  it('publishes the failure as final when the retry message would not fit maxRecordBytes', async () => {
    const path = setUp({ maxRecordBytes: 1_200 });
    const records = await path.runMessage();
    expect(onTiers(records, path.context.config.topics.retry)).toEqual([]);
    expect(onTopic(records, 'scores').map((record) => valueOf(record).status).sort()).toEqual(['failed', 'scored']);
  });

  it('ends a pair whose binding is no longer configured with a failed record (binding_removed) and its history', async () => {
    const path = setUp();
    const [retry] = onTiers(await path.runMessage(), path.context.config.topics.retry);
    const message = valueOf(retry) as RetryMessage;
    const renamed = { ...retry!, value: JSON.stringify({ ...message, scorerId: 'gone' }) };
    const record = valueOf((await path.retry(renamed))[0]) as ScoreRecord;
    expect(record).toMatchObject({ status: 'failed', scorerId: 'gone', error: { code: 'binding_removed', retryable: false } });
    expect(record.retries!.attempts).toHaveLength(1);
  });

  it('dead-letters a message on the retry topic that is not a retry message', async () => {
    const path = setUp();
    const records = await path.retry({ topic: 'x', key: 'run-1', value: '{"not":"a retry"}', headers: {} });
    expect(records).toHaveLength(1);
    expect(records[0]!.topic).toBe('dead-letters');
    expect(valueOf(records[0])).toMatchObject({ error: { code: 'schema_violation' } });
  });
});

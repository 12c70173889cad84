// Scorers that fail must never stop the consumer: a judge that hangs is bounded by its timeout,
// a scorer that ignores every signal is abandoned after the binding's timeout, and the runs
// behind them are scored as usual.
import { describe, expect, it } from 'vitest';
import { parseDeadLetter } from '../../../src/index.ts';
import type { ScoreRecord } from '../../../src/index.ts';
import { answerLengthScorer, hangingScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { testRun } from '../../helpers/runs.ts';
import { readMessages } from '../../helpers/kafka.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { handMadeRun } from '../../helpers/hand-made-scorer.ts';

describe('failing scorers', () => {
  it('turns a hung judge call and a hung scorer into failed records and keeps consuming', async () => {
    const topics = await useServiceTopics(1);
    const runIds = ['hang-1', 'hang-2', 'hang-3'];
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const service = await startTestService({
      topics,
      scorers: [
        { scorer: judgeScorer('hung-judge', mockJudge({ answer: { score: 0.8 }, delayMs: Infinity }), 300) },
        { scorer: hangingScorer, timeoutMs: 500 },
        { scorer: answerLengthScorer },
      ],
      // Timeouts are transient: with retries on they would wait on the retry topic
      // (retry-topic.test.ts); off, the failure is final at once, which is what this test is about.
      retries: { enabled: false },
    });
    const records = await readRecords<ScoreRecord>(topics.results, runIds.length * 3, 60_000);
    const byScorer = (id: string) => records.filter((record) => record.scorerId === id);
    for (const record of byScorer('hung-judge')) {
      expect(record).toMatchObject({ status: 'failed', error: { failedStep: 'generateScore' } });
      expect(record.judge?.generateScore?.executions[0]).toMatchObject({ status: 'failed' });
    }
    for (const record of byScorer('hangs-forever')) {
      expect(record).toMatchObject({ status: 'failed', error: { code: 'scorer_timeout', retryable: true, failedStep: 'generateScore' } });
    }
    expect(byScorer('answer-length').every((record) => record.status === 'scored')).toBe(true);
    await expect.poll(() => service.stats.completed, { timeout: 10_000 }).toBe(3);
    expect(service.stats.inFlight).toBe(0);
  });
});

describe('unexpected processing errors', () => {
  it('park the message in the dead-letter topic (processing_failed) and keep the partition moving', async () => {
    const topics = await useServiceTopics(1);
    await produceRaw(topics.runs, ['odd-1', 'odd-2'].map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    // A scorer object that breaks the service's own code (its name getter throws), not a step.
    const brokenScorer = {
      id: 'broken-object',
      get name(): string {
        throw new Error('name getter exploded');
      },
      run: handMadeRun(async () => ({ score: 1 })),
    };
    const service = await startTestService({ topics, scorers: [{ scorer: brokenScorer }, { scorer: answerLengthScorer }] });
    const deadLetters = await readRecords<{ error: { code: string; message: string }; source: { offset: string } }>(topics.deadLetter, 2);
    expect(deadLetters.map((letter) => letter.error.code)).toEqual(['processing_failed', 'processing_failed']);
    expect(deadLetters[0]!.error.message).toMatch(/name getter exploded/);
    expect(parseDeadLetter(deadLetters[0]).success).toBe(true);
    await expect.poll(() => service.stats.completed, { timeout: 10_000 }).toBe(2);
    // As every dead letter: the message's own key, and the origin header of the loop guard.
    const raw = await readMessages(topics.deadLetter, { count: 2 });
    expect(raw.map((message) => message.key?.toString()).sort()).toEqual(['odd-1', 'odd-2']);
    expect(raw.every((message) => message.headers['scorestream-origin']?.toString() === 'scorestream')).toBe(true);
  });
});

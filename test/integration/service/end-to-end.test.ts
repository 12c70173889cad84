// produce → score → results through a real broker, for every record status, and dead letters for
// each kind of bad input — with nothing valid lost around the bad messages.
import { describe, expect, it } from 'vitest';
import { parseDeadLetter, parseScoreRecord } from '../../../src/kit/contracts/parse.ts';
import { scoreIdFor } from '../../../src/kit/contracts/score-id.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { answerLengthScorer, refundOnlyScorer, throwingScorer } from '../../fixtures/scorers.ts';
import { traceFor, testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';

describe('scoring service end to end', () => {
  it('publishes one record per (run, scorer): scored, not_scorable and failed', async () => {
    const topics = await useServiceTopics(3);
    const runIds = ['e2e-1', 'e2e-2', 'e2e-3', 'e2e-4'];
    await produceRaw(
      topics.runs,
      runIds.map((runId, index) => ({
        key: runId,
        value: JSON.stringify(testRun({ runId, requestContext: index === 0 ? { topic: 'refund' } : {} })),
        headers: { traceparent: traceFor(runId).traceparent },
      })),
    );
    const service = await startTestService({
      topics,
      scorers: [{ scorer: answerLengthScorer, version: '1' }, { scorer: refundOnlyScorer }, { scorer: throwingScorer }],
    });

    const records = await readRecords<ScoreRecord>(topics.results, runIds.length * 3);
    for (const record of records) expect(parseScoreRecord(record).success).toBe(true);
    const byPair = new Map(records.map((record) => [`${record.runId}/${record.scorerId}`, record]));
    expect(byPair.size).toBe(12);

    const scored = byPair.get('e2e-2/answer-length')!;
    expect(scored.status).toBe('scored');
    expect(scored.score).toBeCloseTo(Math.min(1, 'Order e2e-2 shipped yesterday and arrives on Monday.'.length / 100));
    expect(scored.reason).toMatch(/characters long/);
    expect(scored.scoreId).toBe(scoreIdFor({ runId: 'e2e-2', scorerId: 'answer-length', scorerVersion: '1' }));
    expect(scored.trace).toMatchObject({ traceId: traceFor('e2e-2').traceId, parentSpanId: traceFor('e2e-2').spanId });
    expect(scored.source.topic).toBe(topics.runs);
    expect(scored.metadata?.tenantId).toBe('acme');

    expect(byPair.get('e2e-1/refund-only')).toMatchObject({ status: 'scored', score: 1 });
    expect(byPair.get('e2e-3/refund-only')).toMatchObject({ status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'not a refund conversation' } });
    const failed = byPair.get('e2e-4/always-throws')!;
    expect(failed).toMatchObject({ status: 'failed', error: { failedStep: 'analyze', message: 'the analyzer exploded', completedSteps: [] } });
    expect('score' in failed).toBe(false);

    await expect.poll(() => service.stats.completed, { timeout: 10_000 }).toBe(4);
    const totals = service.stats.totals();
    expect(totals).toMatchObject({ scored: 5, notScorable: 3, failed: 4 });
  });

  it('dead-letters invalid JSON, schema violations, oversized and non-UTF-8 messages, and scores the valid ones around them', async () => {
    const topics = await useServiceTopics(1);
    const invalidRun = { ...testRun({ runId: 'bad-schema' }), entity: { type: 'robot' }, output: 'not an array' };
    await produceRaw(topics.runs, [
      { key: 'ok-1', value: JSON.stringify(testRun({ runId: 'ok-1' })) },
      { key: 'bad-json', value: '{"runId": "bad-json", ', headers: { traceparent: traceFor('bad-json').traceparent, 'x-tenant': 'acme' } },
      { key: 'bad-schema', value: JSON.stringify(invalidRun) },
      { key: 'too-big', value: JSON.stringify(testRun({ runId: 'too-big', answer: 'x'.repeat(20_000) })) },
      { key: 'not-utf8', value: Buffer.from([0xff, 0xfe, 0x00, 0x41]) },
      { key: null, value: null },
      { key: 'ok-2', value: JSON.stringify(testRun({ runId: 'ok-2' })) },
    ]);
    await startTestService({ topics, maxMessageBytes: 10_000, scorers: [{ scorer: answerLengthScorer }] });

    const deadLetters = await readRecords<Record<string, unknown>>(topics.deadLetter, 5);
    for (const letter of deadLetters) expect(parseDeadLetter(letter).success).toBe(true);
    const byKey = new Map(deadLetters.map((letter) => [(letter.key as { data: string } | null)?.data ?? null, letter as ReturnType<typeof Object>]));
    expect(byKey.get('bad-json')).toMatchObject({
      error: { code: 'invalid_json' },
      value: { encoding: 'utf8', data: '{"runId": "bad-json", ' },
      headers: { 'x-tenant': { encoding: 'utf8', data: 'acme' }, traceparent: { encoding: 'utf8', data: traceFor('bad-json').traceparent } },
      source: { topic: topics.runs, partition: 0, offset: '1' },
    });
    const schema = byKey.get('bad-schema') as { error: { code: string; problems: Array<{ path: string }> } };
    expect(schema.error.code).toBe('schema_violation');
    expect(schema.error.problems.map((problem) => problem.path)).toEqual(expect.arrayContaining(['entity.type', 'output']));
    expect(byKey.get('too-big')).toMatchObject({ error: { code: 'oversized' } });
    expect(byKey.get('not-utf8')).toMatchObject({ error: { code: 'invalid_json' }, value: { encoding: 'base64', data: Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64') } });
    expect(byKey.get(null)).toMatchObject({ error: { code: 'invalid_json' }, value: null });

    const records = await readRecords<ScoreRecord>(topics.results, 2);
    expect(records.map((record) => record.runId).sort()).toEqual(['ok-1', 'ok-2']);
  });
});

// Score → publish: a record goes to the results topic keyed by its scoreId (partitioned by run id)
// with the origin header,
// is counted only once acknowledged, and records the event-to-result latency.
import { describe, expect, it } from 'vitest';
import { ORIGIN_HEADER } from '../../../consumers/loop-guard.ts';
import { publishScoreRecord } from '../../../consumers/publish-score-record.ts';
import { scoreIdFor } from '../../../src/contracts/score-id.ts';
import type { ScoreRecord } from '../../../src/contracts/score-record.ts';
import { fakeOutput, messageContext, source, valueOf } from './message-fixtures.ts';

const record = {
  schemaVersion: 1,
  scoreId: 'score-1',
  runId: 'run-1',
  scorerId: 'tone',
  entity: { type: 'agent', id: 'support-agent' },
  steps: {},
  prompts: {},
  source,
  scoredAt: '2026-11-29T12:00:01.000Z',
  durationMs: 4,
  status: 'scored',
  score: 0.5,
} as ScoreRecord;
const eventTime = Date.parse('2026-11-29T12:00:00.000Z');
const now = () => eventTime + 1_500;

describe('publishScoreRecord', () => {
  it('publishes the record to the results topic, keyed by scoreId and partitioned by run id, with the origin header', async () => {
    const { context } = messageContext({ now });
    const output = fakeOutput();
    await publishScoreRecord(record, eventTime, source, output.output, context);
    expect(output.accepted).toHaveLength(1);
    expect(output.records()[0]).toMatchObject({ topic: 'scores', key: scoreIdFor({ runId: 'run-1', scorerId: 'tone' }), partitionKey: 'run-1', headers: { [ORIGIN_HEADER]: 'scorestream' } });
    expect(valueOf(output.records()[0])).toEqual(record);
  });

  it('counts the record and its latency only once it was acknowledged', async () => {
    const { context, latencies } = messageContext({ now });
    const output = fakeOutput();
    output.hold();
    const publishing = publishScoreRecord(record, eventTime, source, output.output, context);
    await Promise.resolve();
    expect(context.stats.totals().scored).toBe(0);
    expect(latencies).toEqual([]);
    output.release();
    await publishing;
    expect(context.stats.byScorer.get('tone')).toMatchObject({ scored: 1, scoreSum: 0.5 });
    expect(context.stats.latenciesMs).toEqual([1_500]);
    expect(latencies).toEqual([1_500]);
  });

  it('retries until acknowledged', async () => {
    const { context } = messageContext({ now });
    const output = fakeOutput();
    output.fail(3);
    await publishScoreRecord(record, eventTime, source, output.output, context);
    expect(output.attempts()).toBe(4);
    expect(context.stats.publishRetries).toBe(3);
    expect(context.stats.totals().scored).toBe(1);
  });

  it('records no latency when the event time is unreadable', async () => {
    const { context, latencies } = messageContext({ now });
    await publishScoreRecord(record, Number.NaN, source, fakeOutput().output, context);
    expect(context.stats.totals().scored).toBe(1);
    expect(context.stats.latenciesMs).toEqual([]);
    expect(latencies).toEqual([]);
  });

  it('publishes a record whose results cannot be written as failed (the serialisation fallback)', async () => {
    const { context } = messageContext({ now });
    const output = fakeOutput();
    await publishScoreRecord({ ...record, steps: { preprocess: 1n } } as unknown as ScoreRecord, eventTime, source, output.output, context);
    expect(valueOf(output.records()[0])).toMatchObject({ runId: 'run-1', status: 'failed', error: { code: 'unserializable_result' } });
  });
});

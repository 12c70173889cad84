// Eligibility against a real broker: deterministic sampling that matches samplingBucket exactly,
// declarative filters on metadata and request context, `when`, declined traces, and decision
// records explaining every skip.
import { describe, expect, it } from 'vitest';
import { parseDecisionRecord } from '../../../src/index.ts';
import { samplingBucket } from '../../../src/engine/eligibility/sampling.ts';
import type { DecisionRecord, ScoreRecord } from '../../../src/index.ts';
import { answerLengthScorer, refundOnlyScorer } from '../../fixtures/scorers.ts';
import { traceFor, testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';

describe('eligibility', () => {
  it('samples exactly the runs whose trace-id bucket is below the rate, and explains the rest', async () => {
    const topics = await useServiceTopics(2);
    const runIds = Array.from({ length: 40 }, (_, index) => `sample-${index}`);
    await produceRaw(
      topics.runs,
      runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })), headers: { traceparent: traceFor(runId).traceparent } })),
    );
    const expected = runIds.filter((runId) => samplingBucket(traceFor(runId).traceId) < 0.5).sort();
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThan(35);

    await startTestService({ topics, scorers: [{ scorer: answerLengthScorer, sampling: { type: 'ratio', rate: 0.5 } }] });
    const records = await readRecords<ScoreRecord>(topics.results, expected.length);
    expect(records.map((record) => record.runId).sort()).toEqual(expected);
    for (const record of records) expect(record.sampling).toEqual({ rate: 0.5, bucket: samplingBucket(traceFor(record.runId).traceId) });

    const decisions = await readRecords<DecisionRecord>(topics.decisions, runIds.length - expected.length);
    for (const decision of decisions) {
      expect(parseDecisionRecord(decision).success).toBe(true);
      expect(decision).toMatchObject({ reason: 'sampling', decision: 'skipped', scorerId: 'answer-length' });
      expect(decision.sampling!.bucket).toBeGreaterThanOrEqual(0.5);
    }
    expect(decisions.map((decision) => decision.runId).sort()).toEqual(runIds.filter((runId) => !expected.includes(runId)).sort());
  });

  it("applies filters and `when`, skips declined traces (traceSampling 'follow'), and samples by run id when there is no trace", async () => {
    const topics = await useServiceTopics(1);
    await produceRaw(topics.runs, [
      { key: 'acme-refund', value: JSON.stringify(testRun({ runId: 'acme-refund', tenantId: 'acme', requestContext: { topic: 'refund' } })), headers: { traceparent: traceFor('acme-refund').traceparent } },
      { key: 'globex', value: JSON.stringify(testRun({ runId: 'globex', tenantId: 'globex' })), headers: { traceparent: traceFor('globex').traceparent } },
      { key: 'declined', value: JSON.stringify(testRun({ runId: 'declined', tenantId: 'acme' })), headers: { traceparent: traceFor('declined', false).traceparent } },
      { key: 'no-trace', value: JSON.stringify(testRun({ runId: 'no-trace', tenantId: 'acme', requestContext: { topic: 'refund' } })) },
    ]);
    await startTestService({
      topics,
      traceSampling: 'follow',
      scorers: [
        { scorer: answerLengthScorer, filter: { op: 'eq', left: { path: 'metadata.tenantId' }, right: { literal: 'acme' } } },
        { scorer: refundOnlyScorer, when: (event) => (event as { requestContext: Record<string, unknown> }).requestContext.topic === 'refund' },
      ],
    });
    const records = await readRecords<ScoreRecord>(topics.results, 4);
    expect(records.map((record) => `${record.runId}/${record.scorerId}`).sort()).toEqual(['acme-refund/answer-length', 'acme-refund/refund-only', 'no-trace/answer-length', 'no-trace/refund-only']);
    const noTrace = records.find((record) => record.runId === 'no-trace')!;
    expect(noTrace.trace).toBeUndefined();

    const decisions = await readRecords<DecisionRecord>(topics.decisions, 4);
    expect(decisions.map((decision) => `${decision.runId}/${decision.scorerId}/${decision.reason}`).sort()).toEqual([
      'declined/answer-length/trace_not_sampled',
      'declined/refund-only/trace_not_sampled',
      'globex/answer-length/filter',
      'globex/refund-only/when',
    ]);
  });
});

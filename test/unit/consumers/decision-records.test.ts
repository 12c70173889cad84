// Decision records: published together to the decisions topic when there is one (keyed by the
// pair's scoreId and partitioned by run id, origin header, until acknowledged), and counted per reason either way.
import { describe, expect, it } from 'vitest';
import { countDecisions, publishDecisionRecords } from '../../../consumers/decision-records.ts';
import { ORIGIN_HEADER } from '../../../consumers/loop-guard.ts';
import type { DecisionRecord } from '../../../src/contracts/decision-record.ts';
import { scoreIdFor } from '../../../src/contracts/score-id.ts';
import { fakeOutput, messageContext, source, valueOf } from './message-fixtures.ts';

const decision = (scorerId: string, reason: DecisionRecord['reason']): DecisionRecord => ({
  schemaVersion: 1,
  runId: 'run-1',
  scorerId,
  decision: 'skipped',
  reason,
  source,
  decidedAt: '2026-11-29T12:00:01.000Z',
});
const decisions = [decision('tone', 'filter'), decision('length', 'sampling')];

describe('publishDecisionRecords', () => {
  it('publishes every decision in one batch to the decisions topic, then counts each skip by reason', async () => {
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const output = fakeOutput();
    output.fail(1);
    await publishDecisionRecords(decisions, 'decisions', source, output.output, context);
    expect(output.accepted).toHaveLength(1);
    expect(output.records().map((record) => ({ topic: record.topic, key: record.key, partitionKey: record.partitionKey, headers: record.headers }))).toEqual([
      { topic: 'decisions', key: scoreIdFor({ runId: 'run-1', scorerId: 'tone' }), partitionKey: 'run-1', headers: { [ORIGIN_HEADER]: 'scorestream' } },
      { topic: 'decisions', key: scoreIdFor({ runId: 'run-1', scorerId: 'length' }), partitionKey: 'run-1', headers: { [ORIGIN_HEADER]: 'scorestream' } },
    ]);
    expect(output.records().map(valueOf)).toEqual(decisions);
    expect(Object.fromEntries(context.stats.skipsByReason)).toEqual({ filter: 1, sampling: 1 });
  });

  it('countDecisions only counts the skips, by reason (no decisions topic: nothing to publish)', () => {
    const { context } = messageContext();
    countDecisions(decisions, context);
    expect(Object.fromEntries(context.stats.skipsByReason)).toEqual({ filter: 1, sampling: 1 });
  });
});

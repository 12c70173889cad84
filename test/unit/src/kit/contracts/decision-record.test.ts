import { describe, expect, it } from 'vitest';
import { parseDecisionRecord } from '../../../../../src/kit/contracts/parse.ts';
import { SKIP_REASONS } from '../../../../../src/kit/contracts/decision-record.ts';
import { decisionRecord } from './fixtures.ts';

describe('parseDecisionRecord', () => {
  it('accepts every skip reason', () => {
    for (const reason of SKIP_REASONS) expect(parseDecisionRecord({ ...decisionRecord(), reason }).success, reason).toBe(true);
  });

  it('accepts a detail, a scorer version and a trace', () => {
    const record = { ...decisionRecord(), reason: 'predicate_error', detail: 'TypeError: x is undefined', scorerVersion: '1', trace: { traceId: '0af7651916cd43dd8448eb211c80319c' } };
    expect(parseDecisionRecord(record).success).toBe(true);
  });

  it('accepts the run\'s entity and metadata, as on its score records, and names a bad entity', () => {
    const record = { ...decisionRecord(), entity: { type: 'agent', id: 'support-agent', version: '3' }, metadata: { tenantId: 'acme', environment: 'production' } };
    expect(parseDecisionRecord(record)).toMatchObject({ success: true, data: { entity: { id: 'support-agent' }, metadata: { tenantId: 'acme' } } });
    expect(parseDecisionRecord({ ...record, entity: { type: 'robot', id: '' } })).toMatchObject({ success: false, problems: [{ path: 'entity.type' }, { path: 'entity.id' }] });
  });

  it('rejects an unknown reason, a decision other than skipped and a sampling rate above 1', () => {
    const result = parseDecisionRecord({ ...decisionRecord(), reason: 'bored', decision: 'scored', sampling: { rate: 2, bucket: 0.1 } });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problems.map((problem) => problem.path)).toEqual(['decision', 'reason', 'sampling.rate']);
  });
});

describe('a thread decision', () => {
  it('carries the thread and the turns it was about', () => {
    const thread = { id: 't-1', key: 'acme:t-1', turns: 2, firstRunId: 'run-1', lastRunId: 'run-2', closedBy: 'idle' };
    expect(parseDecisionRecord({ ...decisionRecord(), reason: 'rescore_refused', detail: "onResume is 'once'", thread }).success).toBe(true);
    const result = parseDecisionRecord({ ...decisionRecord(), thread: { ...thread, lastRunId: '' } });
    expect(result.success ? [] : result.problems.map((problem) => problem.path)).toEqual(['thread.lastRunId']);
  });
});


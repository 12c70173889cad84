// collectRunFacts and buildScorerInput: what every binding decides on, and what every scorer
// receives, computed once per run event.
import { describe, expect, it } from 'vitest';
import { collectRunFacts } from '../../../../../src/engine/pipeline/run-facts.ts';
import { buildScorerInput } from '../../../../../src/engine/pipeline/scorer-input.ts';
import { runEvent, source } from './fixtures.ts';

const trace = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', sampled: true };

describe('collectRunFacts', () => {
  it('samples on the trace id when there is one, else on the run id', () => {
    expect(collectRunFacts(runEvent({ runId: 'run-1' }), source, trace).samplingKey).toBe(trace.traceId);
    expect(collectRunFacts(runEvent({ runId: 'run-1' }), source, {}).samplingKey).toBe('run-1');
  });

  it('builds the predicate context: flattened request context, entity, entity type, LIVE, metadata, ids', () => {
    const facts = collectRunFacts(runEvent({ runId: 'run-1', requestContext: { user: { tier: 'gold', seats: 3, tags: ['x'] } } }), source, trace);
    expect(facts.requestContext).toEqual({ tenantId: 'acme', tier: 'gold', 'user.tier': 'gold', 'user.seats': 3 });
    expect(facts.predicateContext).toEqual({
      requestContext: facts.requestContext,
      entity: { type: 'agent', id: 'support-agent', name: 'Support agent' },
      entityType: 'AGENT',
      source: 'LIVE',
      metadata: { tenantId: 'acme', environment: 'test', tags: ['integration'] },
      runId: 'run-1',
      traceId: trace.traceId,
    });
  });

  it('says WORKFLOW for a workflow run and finds threadId/resourceId on the messages', () => {
    const event = runEvent({ runId: 'run-2' });
    const workflow = {
      ...event,
      entity: { ...event.entity, type: 'workflow' as const },
      output: [{ ...event.output[0]!, threadId: 'thread-9', resourceId: 'user-4' }],
    };
    const facts = collectRunFacts(workflow, source, {});
    expect(facts.predicateContext).toMatchObject({ entityType: 'WORKFLOW', threadId: 'thread-9', resourceId: 'user-4' });
    expect(facts.predicateContext).not.toHaveProperty('traceId');
  });
});

describe('buildScorerInput', () => {
  it('hands scorers what Mastra’s live scoring does, with the agent run id and target anchors', () => {
    const event = runEvent({ runId: 'run-3' });
    const withExtras = { ...event, groundTruth: 'expected answer', expectedTrajectory: { steps: [] } };
    const input = buildScorerInput(collectRunFacts(withExtras, source, trace));
    expect(input).toEqual({
      runId: 'run-3',
      input: event.input,
      output: event.output,
      requestContext: { tenantId: 'acme', tier: 'gold' },
      scoreSource: 'live',
      targetScope: 'span',
      targetEntityType: 'agent',
      entity: { id: 'support-agent', name: 'Support agent' },
      entityType: 'AGENT',
      source: 'LIVE',
      groundTruth: 'expected answer',
      expectedTrajectory: { steps: [] },
      targetTraceId: trace.traceId,
      targetSpanId: trace.spanId,
      targetMetadata: { tenantId: 'acme', environment: 'test', tags: ['integration'] },
    });
  });

  it('passes the run’s usage and durationMs on, for budget scorers', () => {
    const event = { ...runEvent({ runId: 'run-5' }), usage: { inputTokens: 900, outputTokens: 304, totalTokens: 1204 }, durationMs: 0 };
    const input = buildScorerInput(collectRunFacts(event, source, trace));
    expect(input.usage).toEqual({ inputTokens: 900, outputTokens: 304, totalTokens: 1204 });
    expect(input.durationMs).toBe(0);
  });

  it('leaves out the anchors and extras a run does not have', () => {
    const { metadata: _metadata, ...bare } = runEvent({ runId: 'run-4' });
    const input = buildScorerInput(collectRunFacts(bare, source, {}));
    for (const key of ['groundTruth', 'expectedTrajectory', 'usage', 'durationMs', 'targetTraceId', 'targetSpanId', 'targetMetadata', 'threadId', 'resourceId']) expect(input).not.toHaveProperty(key);
  });
});

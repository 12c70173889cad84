import { describe, expect, it } from 'vitest';
import { parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import { wireRunEvent } from './fixtures.ts';

describe('parseAgentRunEvent', () => {
  it('accepts a complete run event and decodes message dates', () => {
    const result = parseAgentRunEvent(wireRunEvent());
    expect(result.success).toBe(true);
    if (result.success) {
      expect(result.data.runId).toBe('run-1');
      expect(result.data.output[0]!.createdAt).toBeInstanceOf(Date);
      expect(result.data.timestamp).toBe('2025-03-01T10:00:05.000Z');
      expect(result.data.metadata).toMatchObject({ tenantId: 'acme', region: 'eu' });
    }
  });

  it('defaults requestContext to an empty object', () => {
    const event = wireRunEvent();
    delete event.requestContext;
    const result = parseAgentRunEvent(event);
    expect(result.success && result.data.requestContext).toEqual({});
  });

  it('accepts the optional fields: groundTruth, expectedTrajectory, error, trace, timestamps with offsets', () => {
    const event = {
      ...wireRunEvent(),
      timestamp: '2025-03-01T11:00:05+01:00',
      groundTruth: { answer: 'shipped' },
      expectedTrajectory: { steps: [{ toolName: 'lookupOrder' }] },
      error: { name: 'TimeoutError', message: 'agent timed out' },
      trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=x' },
    };
    expect(parseAgentRunEvent(event).success).toBe(true);
  });

  it('reports every problem with its path', () => {
    const event = wireRunEvent() as Record<string, unknown> & ReturnType<typeof wireRunEvent>;
    event.runId = '';
    event.timestamp = 'not a date';
    event.entity = { type: 'robot', id: 'x' } as unknown as typeof event.entity;
    (event.output[0]!.content.parts as unknown[])[1] = { type: 'bogus' };
    event.requestContext = [] as unknown as Record<string, unknown>;
    event.usage = { inputTokens: -1 };
    const result = parseAgentRunEvent(event);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.problems.map((problem) => problem.path)).toEqual([
        'runId',
        'timestamp',
        'entity.type',
        'output[0].content.parts[1].type',
        'requestContext',
        'usage.inputTokens',
      ]);
      for (const problem of result.problems) expect(problem.message.length).toBeGreaterThan(0);
    }
  });

  it('rejects a wrong type, a wrong schema version and a missing input', () => {
    const event = { ...wireRunEvent(), type: 'agent.run.started', schemaVersion: 2 } as Record<string, unknown>;
    delete event.input;
    const result = parseAgentRunEvent(event);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problems.map((problem) => problem.path)).toEqual(['schemaVersion', 'type', 'input']);
  });

  it('rejects a non-object with one root problem', () => {
    const result = parseAgentRunEvent('hello');
    expect(result).toEqual({ success: false, problems: [{ path: '', message: expect.stringContaining('expected object') }] });
  });
});

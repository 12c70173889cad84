import { describe, expect, it } from 'vitest';
import { feedbackIdFor } from '../../../../../src/kit/contracts/feedback-id.ts';
import { decodeFeedbackRecord, parseAgentRunEvent, parseFeedbackRecord } from '../../../../../src/kit/contracts/parse.ts';
import { feedbackKeyFor } from '../../../../../src/kit/contracts/record-key.ts';
import { threadKeyFor } from '../../../../../src/kit/contracts/thread-ids.ts';
import { runIdOf } from '../../../../../src/kit/contracts/otlp-run-id.ts';
import { threadIdentityOf } from '../../../../../src/engine/threads/thread-identity.ts';
import { conversationRunInput } from '../../engine/threads/fixtures.ts';
import { wireFeedback } from './fixtures.ts';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const spanId = '00f067aa0ba902b7';

describe('parseFeedbackRecord', () => {
  it('accepts each target, source and kind of value', () => {
    const targets = [{ type: 'run', runId: 'run-1' }, { type: 'trace', traceId, spanId }, { type: 'thread', threadId: 'thread-9' }];
    for (const target of targets) expect(parseFeedbackRecord({ ...wireFeedback(), target }).success, target.type).toBe(true);
    for (const source of ['end_user', 'reviewer', 'automated']) expect(parseFeedbackRecord({ ...wireFeedback(), source }).success, source).toBe(true);
    for (const value of [true, false, 4, 0.5, 'off-topic']) expect(parseFeedbackRecord({ ...wireFeedback(), value }).success, String(value)).toBe(true);
  });

  it('accepts a correction with an expected score, label or both, and no correction without either', () => {
    const base = { ...wireFeedback(), source: 'reviewer' };
    expect(parseFeedbackRecord({ ...base, correction: { scorerId: 'answer-relevancy', scorerVersion: '2', score: 0.2 } }).success).toBe(true);
    expect(parseFeedbackRecord({ ...base, correction: { scorerId: 'support-tone', label: 'curt' } }).success).toBe(true);
    const empty = parseFeedbackRecord({ ...base, correction: { scorerId: 'support-tone' } });
    expect(empty).toMatchObject({ success: false, problems: [{ path: 'correction.score', message: 'a correction needs the expected score, the expected label, or both' }] });
  });

  it('names every problem: missing id, unknown source, a trace target without its span, an empty label, a bad time', () => {
    const { feedbackId: _dropped, ...withoutId } = wireFeedback();
    const result = parseFeedbackRecord({ ...withoutId, source: 'crowd', target: { type: 'trace', traceId }, value: '', submittedAt: 'yesterday' });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problems.map((problem) => problem.path)).toEqual(['feedbackId', 'target.spanId', 'source', 'value', 'submittedAt']);
  });

  it('rejects an unknown target type at the type', () => {
    const result = parseFeedbackRecord({ ...wireFeedback(), target: { type: 'session', sessionId: 's' } });
    expect(result).toMatchObject({ success: false, problems: [{ path: 'target.type' }] });
  });
});

describe('decodeFeedbackRecord', () => {
  it('decodes valid bytes', () => {
    const result = decodeFeedbackRecord(Buffer.from(JSON.stringify(wireFeedback())));
    expect(result).toMatchObject({ success: true, data: { feedbackId: 'fb-1', value: false } });
  });

  it.each([
    ['a tombstone', null, 'invalid_json', 'expected a JSON feedback record'],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), 'invalid_json', 'not valid UTF-8'],
    ['text that is not JSON', '{"feedbackId": ', 'invalid_json', 'not valid JSON'],
    ['another schema version', JSON.stringify({ ...wireFeedback(), schemaVersion: 2 }), 'unsupported_schema_version', 'this consumer reads FeedbackRecord v1'],
    ['a record that breaks the contract', JSON.stringify({ ...wireFeedback(), source: 'crowd' }), 'schema_violation', 'breaks the FeedbackRecord v1 contract (1 problem):\n  - source:'],
  ])('gives the dead-letter reason for %s', (_what, bytes, code, message) => {
    const result = decodeFeedbackRecord(bytes);
    expect(result).toMatchObject({ success: false, code });
    if (!result.success) expect(result.message).toContain(message);
  });

  it('refuses a value over maxBytes before parsing it', () => {
    const result = decodeFeedbackRecord(JSON.stringify({ ...wireFeedback(), comment: 'x'.repeat(2_000) }), { maxBytes: 1_000 });
    expect(result).toMatchObject({ success: false, code: 'oversized' });
  });
});

describe('feedback keys and ids', () => {
  it('keys feedback like the score records of its run, and a trace target by the run id the OTLP input gives its span', () => {
    expect(feedbackKeyFor({ target: { type: 'run', runId: 'run-7' } })).toBe('run-7');
    expect(feedbackKeyFor({ target: { type: 'run', runId: 'run-7' }, metadata: { tenantId: 'acme' } })).toBe('run-7');
    expect(feedbackKeyFor({ target: { type: 'trace', traceId, spanId } })).toBe(runIdOf({ traceId, spanId }));
  });

  it("keys thread feedback by the thread key, its tenant from metadata.tenantId as a run's thread takes its run's: two tenants' thread 42 apart, none ':42'", () => {
    const target = { type: 'thread', threadId: '42' } as const;
    expect(feedbackKeyFor({ target, metadata: { tenantId: 'acme' } })).toBe(threadKeyFor('acme', '42'));
    expect(feedbackKeyFor({ target, metadata: { tenantId: 'globex' } })).toBe('globex:42');
    expect(feedbackKeyFor({ target })).toBe(':42');
    expect(feedbackKeyFor({ target, metadata: { tenantId: '' } })).toBe(':42');
    // The same key a run of that tenant and thread gives its turn (src/engine/threads/thread-identity.ts), so they share a partition.
    const run = parseAgentRunEvent(conversationRunInput({ runId: 'r-1', threadId: '42', tenantId: 'acme', timestamp: '2026-12-01T10:00:00.000Z', answer: 'hi' }));
    if (!run.success) throw new Error('the test run is not a run event');
    expect(feedbackKeyFor({ target, metadata: { tenantId: 'acme' } })).toBe(threadIdentityOf(run.data)?.key);
  });

  it('gives one id per target, name, source and submitter', () => {
    const parts = { target: { type: 'run' as const, runId: 'run-1' }, name: 'thumbs', source: 'end_user' as const, submitterId: 'user-42' };
    const id = feedbackIdFor(parts);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(feedbackIdFor({ ...parts })).toBe(id);
    const others = [
      { ...parts, submitterId: 'user-43' },
      { ...parts, submitterId: undefined },
      { ...parts, name: 'helpful' },
      { ...parts, source: 'reviewer' as const },
      { ...parts, target: { type: 'run' as const, runId: 'run-2' } },
      { ...parts, target: { type: 'thread' as const, threadId: 'run-1' } },
    ];
    expect(new Set([id, ...others.map(feedbackIdFor)]).size).toBe(others.length + 1);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import { decodeOtlpTraces } from '../../../../../src/engine/otlp/decode-otlp.ts';
import { runsFromTrace } from '../../../../../src/engine/otlp/run-from-trace.ts';
import { threadIdentityOf } from '../../../../../src/engine/threads/thread-identity.ts';
import { encodeSpans, recordMastraRun, spanRecorder } from '../../../../helpers/otlp-traces.ts';
import { conversationRun } from './fixtures.ts';

const recorder = spanRecorder({ 'service.name': 'weather-service', 'tenant.id': 'acme' });
afterAll(() => recorder.shutdown());

describe('threadIdentityOf', () => {
  it("takes the messages' threadId (Mastra's shape), keyed with the tenant", () => {
    expect(threadIdentityOf(conversationRun({ runId: 'r', threadId: 't-1', tenantId: 'acme' }))).toEqual({ key: 'acme:t-1', threadId: 't-1', tenantId: 'acme', from: 'messages' });
  });

  it('falls back to metadata.conversationId (the OTLP mapping of gen_ai.conversation.id)', () => {
    expect(threadIdentityOf(conversationRun({ runId: 'r', tenantId: 'acme', metadata: { conversationId: 'conv-9' } }))).toEqual({ key: 'acme:conv-9', threadId: 'conv-9', tenantId: 'acme', from: 'metadata' });
  });

  it('reads the configured path first, in metadata or the request context, numbers as text', () => {
    const run = conversationRun({ runId: 'r', threadId: 't-1', metadata: { session: { id: 77 } }, requestContext: { 'chat.id': 'c-5' } });
    expect(threadIdentityOf(run, { idPath: 'metadata.session.id' })).toMatchObject({ threadId: '77', from: 'path', key: ':77' });
    expect(threadIdentityOf(run, { idPath: 'requestContext.chat.id' })).toMatchObject({ threadId: 'c-5', from: 'path' });
    // A path that finds nothing falls through to the messages.
    expect(threadIdentityOf(run, { idPath: 'metadata.missing' })).toMatchObject({ threadId: 't-1', from: 'messages' });
  });

  it('gives a run without any thread id no thread; empty ids and non-text values do not count', () => {
    expect(threadIdentityOf(conversationRun({ runId: 'r' }))).toBeUndefined();
    expect(threadIdentityOf(conversationRun({ runId: 'r', metadata: { conversationId: '' } }))).toBeUndefined();
    expect(threadIdentityOf(conversationRun({ runId: 'r', metadata: { conversationId: { id: 1 } } }))).toBeUndefined();
    expect(threadIdentityOf(conversationRun({ runId: 'r', metadata: { conversationId: Number.NaN } }))).toBeUndefined();
  });

  it('treats an empty tenant as none', () => {
    expect(threadIdentityOf(conversationRun({ runId: 'r', threadId: 't', tenantId: '' }))).toEqual({ key: ':t', threadId: 't', from: 'messages' });
  });

  it('finds the thread of a run assembled from OTLP traces (gen_ai.conversation.id) the same way', () => {
    recordMastraRun(recorder.tracer, { conversationId: 'thread-7' });
    const decoded = decodeOtlpTraces(encodeSpans(recorder.spans(), 'otlp_proto'), 'otlp_proto');
    if (!decoded.success) throw new Error(decoded.message);
    const parsed = parseAgentRunEvent(runsFromTrace(decoded.data)[0]!.event);
    if (!parsed.success) throw new Error('the assembled run is invalid');
    expect(threadIdentityOf(parsed.data)).toEqual({ key: 'acme:thread-7', threadId: 'thread-7', tenantId: 'acme', from: 'messages' });
  });
});

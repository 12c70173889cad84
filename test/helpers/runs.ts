// Agent run events for tests: valid AgentRunEvent v1 values with just enough content, and
// W3C trace context for them. Deterministic, so tests can compute expected sampling decisions.
import { createHash } from 'node:crypto';
import type { AgentRunEventInput } from '../../src/kit/contracts/agent-run-event.ts';

export type TestRunOptions = {
  runId: string;
  question?: string;
  answer?: string;
  tenantId?: string;
  agentId?: string;
  requestContext?: Record<string, unknown>;
  timestamp?: string;
};

function message(id: string, role: 'user' | 'assistant', text: string) {
  return { id, role, createdAt: '2026-11-29T12:00:00.000Z', content: { format: 2 as const, parts: [{ type: 'text' as const, text }], content: text } };
}

export function testRun(options: TestRunOptions): AgentRunEventInput {
  const question = options.question ?? `What is the status of order ${options.runId}?`;
  const answer = options.answer ?? `Order ${options.runId} shipped yesterday and arrives on Monday.`;
  return {
    schemaVersion: 1,
    type: 'agent.run.completed',
    runId: options.runId,
    timestamp: options.timestamp ?? new Date().toISOString(),
    entity: { type: 'agent', id: options.agentId ?? 'support-agent', name: 'Support agent' },
    input: {
      inputMessages: [message(`${options.runId}-in`, 'user', question)],
      rememberedMessages: [],
      systemMessages: [{ role: 'system', content: 'You are a helpful support agent.' }],
      taggedSystemMessages: {},
    },
    output: [message(`${options.runId}-out`, 'assistant', answer)],
    requestContext: { tenantId: options.tenantId ?? 'acme', tier: 'gold', ...options.requestContext },
    metadata: { tenantId: options.tenantId ?? 'acme', environment: 'test', tags: ['integration'] },
  };
}

/** A deterministic W3C trace context per run: trace id = first 16 bytes of sha256(runId). */
export function traceFor(runId: string, sampled = true): { traceId: string; spanId: string; traceparent: string } {
  const digest = createHash('sha256').update(runId).digest('hex');
  const traceId = digest.slice(0, 32);
  const spanId = digest.slice(32, 48);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}` };
}

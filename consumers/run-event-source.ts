// The run-event source (input.format 'run-event', the default): one AgentRunEvent per message,
// decoded and validated against the contract (decodeAgentRunEvent: UTF-8, JSON, schema version,
// every problem with its path). Its run's trace context is the message's — the W3C headers the
// consumer read, else the event's `trace` body field for producers that cannot set headers.
import type { AgentRunEvent } from '../src/contracts/agent-run-event.ts';
import { decodeRunMessage } from './decode-run-message.ts';
import { runTraceContext } from './message-trace.ts';
import { statelessSource } from './run-source.ts';
import type { RunSource } from './run-source.ts';

export const runEventSource: RunSource<AgentRunEvent> = statelessSource<AgentRunEvent>({
  name: 'run-event',
  decode(value) {
    const decoded = decodeRunMessage(value);
    return decoded.success ? { success: true, decoded: decoded.data } : decoded;
  },
  job: (event, message) => ({ kind: 'run', event, trace: runTraceContext(message.trace, event), source: message.source }),
});

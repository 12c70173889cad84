// The run-event source (input.format 'run-event', the default): one AgentRunEvent per message,
// decoded and validated against the contract (decodeAgentRunEvent: UTF-8, JSON, schema version,
// every problem with its path). Its run's trace context is the message's — the W3C headers the
// consumer read, else the event's `trace` body field for producers that cannot set headers. An
// `agent.thread.ended` event on the runs topic is not a run: it is forwarded to the thread scorers.
import type { AgentRunEvent } from '../src/kit/contracts/agent-run-event.ts';
import { decodeThreadMessage } from '../src/engine/threads/decode-thread-message.ts';
import { decodeAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { runTraceContext } from './message-trace.ts';
import { statelessSource } from './run-source.ts';
import type { RunSource } from './run-source.ts';

type RunMessage = { kind: 'run'; event: AgentRunEvent } | { kind: 'thread-end'; key: string; json: string };

export const runEventSource: RunSource<RunMessage> = statelessSource<RunMessage>({
  name: 'run-event',
  decode(value) {
    const decoded = decodeAgentRunEvent(value);
    if (decoded.success) return { success: true, data: { kind: 'run', event: decoded.data } };
    // Not a run: it may be a conversation's explicit end (docs/threads.md), which travels beside the runs.
    const end = value === null ? undefined : decodeThreadEnd(value);
    return end === undefined ? decoded : { success: true, data: end };
  },
  job: (decoded, message) => (decoded.kind === 'thread-end' ? decoded : { kind: 'run', event: decoded.event, trace: runTraceContext(message.trace, decoded.event), source: message.source }),
});

/** An `agent.thread.ended` event, validated, keyed by its thread; else undefined (the run's own failure stands). */
function decodeThreadEnd(value: Buffer): RunMessage | undefined {
  const decoded = decodeThreadMessage(value);
  return decoded.success && decoded.data.kind === 'ended' ? { kind: 'thread-end', key: decoded.data.key, json: value.toString('utf8') } : undefined;
}

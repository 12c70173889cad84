// Conversations for the thread tests: run events whose messages carry a threadId, their facts,
// the ThreadTurn messages the run path would re-key, and thread bindings resolved as the service
// resolves them.
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import type { ResolvedThreadBinding, ScorerBindingInput } from '../../../../../src/engine/config/config-types.ts';
import type { AgentRunEvent, AgentRunEventInput } from '../../../../../src/kit/contracts/agent-run-event.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';
import { parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import { threadTurnSchema } from '../../../../../src/kit/contracts/thread-turn.ts';
import type { ThreadTurn } from '../../../../../src/kit/contracts/thread-turn.ts';
import { collectRunFacts } from '../../../../../src/engine/pipeline/run-facts.ts';
import type { RunFacts } from '../../../../../src/engine/pipeline/run-facts.ts';
import { buildThreadTurn } from '../../../../../src/engine/threads/build-thread-turn.ts';
import type { RunScoring } from '../../../../../src/engine/threads/build-thread-turn.ts';
import { turnEntryOf } from '../../../../../src/engine/threads/turn-entry.ts';
import type { TurnEntry } from '../../../../../src/engine/threads/turn-entry.ts';
import { traceFor } from '../../../../helpers/runs.ts';

export type ConversationRunOptions = {
  runId: string;
  threadId?: string;
  tenantId?: string;
  /** ISO; default 2026-11-29T12:00:00Z plus the run's index. */
  timestamp?: string;
  question?: string;
  answer?: string;
  /** Tool invocations of the answer, e.g. { toolName: 'lookup', state: 'output-error', errorText: 'timeout' }. */
  tools?: Record<string, unknown>[];
  metadata?: Record<string, unknown>;
  requestContext?: Record<string, unknown>;
  rememberedMessages?: number;
  /** Run event fields beside the conversation: the tools offered, usage, duration. */
  event?: Pick<AgentRunEventInput, 'tools' | 'usage' | 'durationMs'>;
};

export function conversationRunInput(options: ConversationRunOptions): AgentRunEventInput {
  const timestamp = options.timestamp ?? '2026-11-29T12:00:00.000Z';
  const threadFields = options.threadId === undefined ? {} : { threadId: options.threadId, resourceId: 'user-7' };
  const message = (id: string, role: 'user' | 'assistant', text: string, parts: unknown[] = []) => ({
    id,
    role,
    createdAt: timestamp,
    ...threadFields,
    content: { format: 2 as const, parts: [...parts, ...(text === '' ? [] : [{ type: 'text', text }])], content: text },
  });
  const tools = (options.tools ?? []).map((tool, index) => ({ type: 'tool-invocation', toolInvocation: { toolCallId: `${options.runId}-call-${index}`, args: {}, state: 'result', result: { ok: true }, ...tool } }));
  return {
    schemaVersion: 1,
    type: 'agent.run.completed',
    runId: options.runId,
    timestamp,
    entity: { type: 'agent', id: 'support-agent', name: 'Support agent' },
    input: {
      inputMessages: [message(`${options.runId}-in`, 'user', options.question ?? `Question of ${options.runId}`)],
      rememberedMessages: Array.from({ length: options.rememberedMessages ?? 0 }, (_, index) => message(`${options.runId}-mem-${index}`, 'user', `earlier message ${index}`)),
      systemMessages: [{ role: 'system', content: 'You are a helpful support agent.' }],
      taggedSystemMessages: {},
    },
    output: [message(`${options.runId}-out`, 'assistant', options.answer ?? `Answer of ${options.runId}`, tools)],
    requestContext: { tier: 'gold', ...options.requestContext },
    metadata: { ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }), environment: 'test', ...options.metadata },
    ...options.event,
  } as AgentRunEventInput;
}

export function conversationRun(options: ConversationRunOptions): AgentRunEvent {
  const parsed = parseAgentRunEvent(conversationRunInput(options));
  if (!parsed.success) throw new Error(`test run is invalid: ${JSON.stringify(parsed.problems)}`);
  return parsed.data;
}

export const runSource = (offset: number) => ({ topic: 'agent-runs', partition: 1, offset: String(offset) });

/** Facts of a conversation run with the deterministic trace context of traceFor(runId). */
export function conversationFacts(options: ConversationRunOptions & { offset?: number; traced?: boolean }): RunFacts {
  const { offset = 0, traced = true, ...runOptions } = options;
  const trace = traced ? { traceId: traceFor(options.runId).traceId, spanId: traceFor(options.runId).spanId, sampled: true } : {};
  return collectRunFacts(conversationRun(runOptions), runSource(offset), trace);
}

export const noScoring: RunScoring = { records: [], decisions: [] };

/** The turn the run path re-keys for this run, parsed as the thread stage reads it, and its text. */
export function turnOf(options: ConversationRunOptions & { offset?: number; traced?: boolean }, scoring: RunScoring = noScoring): { turn: ThreadTurn; json: string } {
  const message = buildThreadTurn(conversationFacts({ threadId: 't-1', tenantId: 'acme', ...options }), scoring, { maxTurnBytes: 65_536 });
  if (message === undefined) throw new Error('the test run has no thread');
  return { turn: threadTurnSchema.parse(JSON.parse(message.json)), json: message.json };
}

/** The machine's view of a turn (turnEntryOf). */
export function entryOf(options: ConversationRunOptions & { offset?: number; traced?: boolean }, scoring: RunScoring = noScoring): TurnEntry {
  const { turn, json } = turnOf(options, scoring);
  return turnEntryOf(turn, json);
}

/** A scored record of a run scorer, as the run path would summarise it. */
export function runScore(runId: string, scorerId: string, score: number): ScoreRecord {
  return {
    schemaVersion: 1,
    scoreId: `${runId}-${scorerId}`,
    runId,
    scorerId,
    entity: { type: 'agent', id: 'support-agent' },
    steps: {},
    prompts: {},
    source: runSource(0),
    scoredAt: '2026-11-29T12:00:01.000Z',
    durationMs: 1,
    status: 'scored',
    score,
  };
}

export function threadBindings<Event = unknown>(...inputs: ScorerBindingInput<Event>[]): ResolvedThreadBinding<Event>[] {
  return resolveConfig<Event>({ kafka: { brokers: ['localhost:9092'] }, scorers: inputs.map((input) => ({ level: 'thread' as const, ...input })) }).threadScorers;
}

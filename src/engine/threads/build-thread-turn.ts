// A scored run → the ThreadTurn message the run path re-keys to `{runs}-by-thread` (docs/threads.md,
// re-keying): undefined for a run without a thread. The turn carries the run slimmed to
// `maxTurnBytes` — never dropped: whatever does not fit is shed in the order THREAD_TURN_SHED lists,
// and `shed` says what went — and the summaries of the run's own scores, so thread scorers can use
// them. Pure: the caller publishes `json` under `key`.
import type { AgentRunEvent } from '../../kit/contracts/agent-run-event.ts';
import type { DecisionRecord, FlagReason } from '../../kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import { THREAD_TURN_SCHEMA_VERSION, THREAD_TURN_TYPE } from '../../kit/contracts/thread-turn.ts';
import type { RunScoreSummary, ThreadTurnInput, ThreadTurnShed } from '../../kit/contracts/thread-turn.ts';
import type { DbMessage, MessagePart } from '../../kit/contracts/messages.ts';
import type { RunFacts } from '../pipeline/run-facts.ts';
import { threadIdentityOf } from './thread-identity.ts';
import type { ThreadIdentityOptions } from './thread-identity.ts';

export type ThreadTurnMessage = {
  /** The thread key: the message key on `{runs}-by-thread`. */
  key: string;
  /** What is published (JSON of a ThreadTurn v1). */
  json: string;
  /** Its UTF-8 size, within maxTurnBytes unless even the bare turn is larger. */
  bytes: number;
  shed: ThreadTurnShed[];
};

export type BuildThreadTurnOptions = ThreadIdentityOptions & { maxTurnBytes: number };

/** What the run path decided for the run: its score records and its decisions. */
export type RunScoring = { records: readonly ScoreRecord[]; decisions: readonly DecisionRecord[] };

const KNOWN_METADATA: ReadonlySet<string> = new Set(['tenantId', 'environment', 'tags']);

// Texts and tool values are cut to these lengths in turn, until the turn fits.
const TEXT_CAPS = [4_000, 1_000, 200] as const;

/** A `flagged` pair was scored (its record is among the records); its flag is the only decision with a flag reason. */
function notFlagged(decision: DecisionRecord): decision is DecisionRecord & { decision: 'skipped' | 'deferred'; reason: Exclude<DecisionRecord['reason'], FlagReason> } {
  return decision.decision !== 'flagged';
}

export function runScoreSummaries(scoring: RunScoring): RunScoreSummary[] {
  const version = (value: string | undefined) => (value === undefined ? {} : { scorerVersion: value });
  return [
    ...scoring.records.map((record) => ({ scorerId: record.scorerId, ...version(record.scorerVersion), status: record.status, ...(record.status === 'scored' ? { score: record.score } : {}) })),
    ...scoring.decisions.filter(notFlagged).map((decision) => ({ scorerId: decision.scorerId, ...version(decision.scorerVersion), status: decision.decision, reason: decision.reason })),
  ];
}

function cut(text: string, cap: number): string {
  return text.length <= cap ? text : `${text.slice(0, cap)}…[truncated ${text.length - cap} characters]`;
}

function cutValue(value: unknown, cap: number): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return cut(value, cap);
  const text = JSON.stringify(value) ?? '';
  return text.length <= cap ? value : cut(text, cap);
}

/** A message with its texts and tool values cut to `cap` characters and its reasoning dropped. */
function cutMessage(message: DbMessage, cap: number): DbMessage {
  const parts = message.content.parts.flatMap((part): MessagePart[] => {
    if (part.type === 'text') return [{ ...part, text: cut(part.text, cap) }];
    if (part.type === 'reasoning') return [];
    if (part.type === 'tool-invocation') {
      const invocation = part.toolInvocation;
      return [{ ...part, toolInvocation: { ...invocation, args: cutValue(invocation.args, cap), ...(invocation.result === undefined ? {} : { result: cutValue(invocation.result, cap) }) } }];
    }
    return part.type === 'file' || part.type.startsWith('data-') ? [] : [part];
  });
  const { toolInvocations: _legacy, reasoning: _reasoning, content, ...rest } = message.content;
  return { ...message, content: { ...rest, parts, ...(content === undefined ? {} : { content: cut(content, cap) }) } };
}

type SlimRun = Omit<AgentRunEvent, 'trace'>;

function turnValue(facts: RunFacts, key: string, identity: { threadId: string; tenantId?: string }, run: SlimRun, runScores: RunScoreSummary[], shed: ThreadTurnShed[]): ThreadTurnInput {
  const { trace } = facts;
  return {
    schemaVersion: THREAD_TURN_SCHEMA_VERSION,
    type: THREAD_TURN_TYPE,
    thread: { key, id: identity.threadId, ...(identity.tenantId === undefined ? {} : { tenantId: identity.tenantId }) },
    // Messages hold Dates here; JSON.stringify writes them as the ISO strings of the wire.
    run: run as unknown as ThreadTurnInput['run'],
    ...(facts.event.metadata?.threadEnded === true ? { ended: true } : {}),
    trace: { ...(trace.traceId === undefined ? {} : { traceId: trace.traceId }), ...(trace.spanId === undefined ? {} : { spanId: trace.spanId }), ...(trace.sampled === undefined ? {} : { sampled: trace.sampled }) },
    source: facts.source,
    runScores,
    ...(shed.length === 0 ? {} : { shed }),
  };
}

export function buildThreadTurn(facts: RunFacts, scoring: RunScoring, options: BuildThreadTurnOptions): ThreadTurnMessage | undefined {
  const identity = threadIdentityOf(facts.event, options);
  if (identity === undefined) return undefined;
  const runScores = runScoreSummaries(scoring);
  const { trace: _bodyTrace, ...event } = facts.event;
  const shed: ThreadTurnShed[] = [];
  // Always: the recalled history is the thread's own earlier turns, and would grow with each of them.
  if (event.input.rememberedMessages.length > 0) shed.push('rememberedMessages');
  if (Object.keys(event.input.taggedSystemMessages).length > 0) shed.push('taggedSystemMessages');
  let run: SlimRun = { ...event, input: { ...event.input, rememberedMessages: [], taggedSystemMessages: {} } };

  const measure = () => {
    const json = JSON.stringify(turnValue(facts, identity.key, identity, run, runScores, shed));
    return { json, bytes: Buffer.byteLength(json, 'utf8') };
  };
  let measured = measure();
  const fits = () => measured.bytes <= options.maxTurnBytes;
  // Each step sheds one thing and measures again, so a turn loses no more than it must.
  const steps: [ThreadTurnShed, () => boolean, () => SlimRun][] = [
    ['systemMessages', () => run.input.systemMessages.length > 0, () => ({ ...run, input: { ...run.input, systemMessages: [] } })],
    ['groundTruth', () => run.groundTruth !== undefined, () => withoutKey(run, 'groundTruth')],
    ['expectedTrajectory', () => run.expectedTrajectory !== undefined, () => withoutKey(run, 'expectedTrajectory')],
    ['tools', () => run.tools !== undefined, () => withoutKey(run, 'tools')],
    ['requestContext', () => Object.keys(run.requestContext).length > 0, () => ({ ...run, requestContext: {} })],
    ['metadata', () => run.metadata !== undefined && Object.keys(run.metadata).some((key) => !KNOWN_METADATA.has(key)), () => ({ ...run, metadata: knownMetadata(run.metadata!) })],
  ];
  for (const [name, applies, shrink] of steps) {
    if (fits()) break;
    if (!applies()) continue;
    run = shrink();
    shed.push(name);
    measured = measure();
  }
  const original = run;
  for (const cap of TEXT_CAPS) {
    if (fits()) break;
    run = { ...original, input: { ...original.input, inputMessages: original.input.inputMessages.map((message) => cutMessage(message, cap)) }, output: original.output.map((message) => cutMessage(message, cap)) };
    if (!shed.includes('messageText')) shed.push('messageText');
    measured = measure();
  }
  if (!fits()) {
    run = { ...run, input: { ...run.input, inputMessages: [] }, output: [] };
    shed.push('messages');
    measured = measure();
  }
  return { key: identity.key, json: measured.json, bytes: measured.bytes, shed };
}

function withoutKey<K extends 'groundTruth' | 'expectedTrajectory' | 'tools'>(run: SlimRun, key: K): SlimRun {
  const { [key]: _removed, ...rest } = run;
  return rest as SlimRun;
}

/** The well-known metadata keys (what the records carry and filters select on); the free-form rest is shed. */
function knownMetadata(metadata: NonNullable<SlimRun['metadata']>): NonNullable<SlimRun['metadata']> {
  const { tenantId, environment, tags } = metadata;
  return { ...(tenantId === undefined ? {} : { tenantId }), ...(environment === undefined ? {} : { environment }), ...(tags === undefined ? {} : { tags }) };
}

// Bytes of a `{runs}-by-thread` message → a turn or an end event, or the reason it is neither (a
// dead letter), as decodeAgentRunEvent does for the runs topic. The turn keeps its text: the thread
// state holds turns as they came (turn-entry.ts).
import type { z } from 'zod';
import { decodeFailure, decodeJsonValue } from '../../kit/contracts/decode-record.ts';
import type { Decoded } from '../../kit/contracts/decode-record.ts';
import { formatProblems, problemsFromIssues } from '../../kit/contracts/problems.ts';
import { THREAD_ENDED_SCHEMA_VERSION, THREAD_ENDED_TYPE, threadEndedEventSchema } from '../../kit/contracts/thread-ended.ts';
import type { ThreadEndedEvent } from '../../kit/contracts/thread-ended.ts';
import { threadKeyFor } from '../../kit/contracts/thread-ids.ts';
import { THREAD_TURN_SCHEMA_VERSION, THREAD_TURN_TYPE, threadTurnSchema } from '../../kit/contracts/thread-turn.ts';
import type { ThreadTurn } from '../../kit/contracts/thread-turn.ts';

/** A by-thread message: a turn (with the text it came as) or an end event, keyed by its thread. */
export type ThreadMessage = { kind: 'turn'; key: string; turn: ThreadTurn; json: string } | { kind: 'ended'; key: string; end: ThreadEndedEvent };

const failure = decodeFailure;

function contractFailure(name: string, issues: readonly z.core.$ZodIssue[]): Decoded<ThreadMessage> {
  const problems = problemsFromIssues(issues);
  return failure('schema_violation', `the message breaks the ${name} contract (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${formatProblems(problems)}`, problems);
}

export function decodeThreadMessage(bytes: Buffer | string | null, options: { maxBytes?: number } = {}): Decoded<ThreadMessage> {
  const decoded = decodeJsonValue(bytes, options, 'a ThreadTurn or ThreadEnded JSON value');
  if (!decoded.success) return decoded;
  const { value, text: json } = decoded.data;
  const { type, schemaVersion } = (typeof value === 'object' && value !== null ? value : {}) as { type?: unknown; schemaVersion?: unknown };
  if (type === THREAD_TURN_TYPE) {
    if (typeof schemaVersion === 'number' && schemaVersion !== THREAD_TURN_SCHEMA_VERSION) return failure('unsupported_schema_version', `ThreadTurn schemaVersion ${schemaVersion} is not supported (this consumer reads v${THREAD_TURN_SCHEMA_VERSION})`);
    const parsed = threadTurnSchema.safeParse(value);
    return parsed.success ? { success: true, data: { kind: 'turn', key: parsed.data.thread.key, turn: parsed.data, json } } : contractFailure(`ThreadTurn v${THREAD_TURN_SCHEMA_VERSION}`, parsed.error.issues);
  }
  if (type === THREAD_ENDED_TYPE) {
    if (typeof schemaVersion === 'number' && schemaVersion !== THREAD_ENDED_SCHEMA_VERSION) return failure('unsupported_schema_version', `ThreadEnded schemaVersion ${schemaVersion} is not supported (this consumer reads v${THREAD_ENDED_SCHEMA_VERSION})`);
    const parsed = threadEndedEventSchema.safeParse(value);
    return parsed.success ? { success: true, data: { kind: 'ended', key: threadKeyFor(parsed.data.tenantId, parsed.data.threadId), end: parsed.data } } : contractFailure(`ThreadEnded v${THREAD_ENDED_SCHEMA_VERSION}`, parsed.error.issues);
  }
  return failure('schema_violation', `the message type is ${JSON.stringify(type) ?? 'missing'}; expected '${THREAD_TURN_TYPE}' or '${THREAD_ENDED_TYPE}'`, [{ path: 'type', message: `expected '${THREAD_TURN_TYPE}' or '${THREAD_ENDED_TYPE}'` }]);
}

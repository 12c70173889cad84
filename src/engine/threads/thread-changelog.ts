// The changelog records of the thread state (docs/threads.md, the thread state): two kinds, so a
// turn costs one write of its own size rather than a rewrite of its whole thread.
//   `t:<thread key>`            the thread: its parts, the run ids it has seen, which turns it holds
//                                (rewritten at each step, small);
//   `u:<arrival>:<thread key>`  one held turn: its ThreadTurn text as it came (written once, when
//                                it arrives; a tombstone when it is released).
// Written in that order within a step — a new turn before the thread that lists it, and a released
// turn's tombstone after the thread that no longer does — so that after a crash between writes a
// thread never lists a turn whose record is gone; a turn record no thread lists is an orphan,
// deleted at restore. The compacted topic holds exactly the live threads and their held turns.
// The thread value is Scorestream's own, read back only here, and still validated: a changelog
// written by another version, or damaged, is reported rather than trusted.
import { z } from 'zod';
import { entitySchema, samplingSchema, sourceSchema } from '../../kit/contracts/common.ts';
import { SKIP_REASONS } from '../../kit/contracts/decision-record.ts';
import { decodeFailure } from '../../kit/contracts/decode-record.ts';
import type { Decoded } from '../../kit/contracts/decode-record.ts';
import { formatProblems, problemsFromIssues } from '../../kit/contracts/problems.ts';
import { turnTraceSchema } from '../../kit/contracts/thread-turn.ts';
import { bindingKeyOf } from './thread-part.ts';
import type { ThreadPart, ThreadPolicy } from './thread-part.ts';
import type { HeldTurn, Thread } from './thread.ts';

export const THREAD_STATE_SCHEMA_VERSION = 1;

export function threadRecordKey(threadKey: string): string {
  return `t:${threadKey}`;
}

export function turnRecordKey(threadKey: string, arrival: number): string {
  return `u:${arrival}:${threadKey}`;
}

export type ChangelogKey = { kind: 'thread'; threadKey: string } | { kind: 'turn'; threadKey: string; arrival: number };

/** Undefined for a key this changelog never writes. */
export function parseChangelogKey(key: string): ChangelogKey | undefined {
  if (key.startsWith('t:') && key.length > 2) return { kind: 'thread', threadKey: key.slice(2) };
  const turn = /^u:(\d+):(.+)$/s.exec(key);
  return turn === null ? undefined : { kind: 'turn', threadKey: turn[2]!, arrival: Number(turn[1]) };
}

const count = z.number().int().nonnegative();
const anchorSchema = z.object({ runId: z.string().min(1), timestampMs: z.number(), source: sourceSchema, trace: turnTraceSchema, entity: entitySchema.optional(), arrival: count });

const admissionSchema = z.discriminatedUnion('eligible', [
  z.object({ eligible: z.literal(true), sampling: samplingSchema.optional() }),
  z.object({ eligible: z.literal(false), reason: z.enum(SKIP_REASONS), detail: z.string().optional(), sampling: samplingSchema.optional() }),
]);

const partSchema = z.object({
  scorerId: z.string().min(1),
  scorerVersion: z.string().optional(),
  admission: admissionSchema,
  closedThrough: count,
  pending: z.object({ since: z.number(), count: count.min(1), first: anchorSchema, last: anchorSchema }).optional(),
  versions: count,
  lastVersionId: z.string().optional(),
  lastScoredAt: z.number().optional(),
  full: z.boolean(),
});

const threadValueSchema = z.object({
  schemaVersion: z.literal(THREAD_STATE_SCHEMA_VERSION),
  key: z.string().min(1),
  threadId: z.string().min(1),
  tenantId: z.string().optional(),
  createdAt: z.number(),
  lastActivityAt: z.number(),
  nextArrival: count,
  ending: z.object({ lastRunId: z.string().min(1), since: z.number() }).optional(),
  /** Run ids seen whose turns are no longer held. */
  released: z.array(z.string()),
  /** The held turns in turn order; each one's text is its own record (turnRecordKey). */
  held: z.array(z.object({ runId: z.string().min(1), timestampMs: z.number(), arrival: count, bytes: count })),
  parts: z.array(partSchema),
});
export type ThreadValue = z.infer<typeof threadValueSchema>;

export function serializeThread(thread: Thread): string {
  const held = thread.turns.map(({ json: _json, ...turn }) => turn);
  const heldIds = new Set(held.map((turn) => turn.runId));
  const value: ThreadValue = {
    schemaVersion: THREAD_STATE_SCHEMA_VERSION,
    key: thread.key,
    threadId: thread.threadId,
    ...(thread.tenantId === undefined ? {} : { tenantId: thread.tenantId }),
    createdAt: thread.createdAt,
    lastActivityAt: thread.lastActivityAt,
    nextArrival: thread.nextArrival,
    ...(thread.ending === undefined ? {} : { ending: thread.ending }),
    released: [...thread.seen].filter((runId) => !heldIds.has(runId)),
    held,
    parts: [...thread.parts.values()].map(({ policy, ...part }) => ({ scorerId: policy.scorerId, ...(policy.scorerVersion === undefined ? {} : { scorerVersion: policy.scorerVersion }), ...part })),
  };
  return JSON.stringify(value);
}


/**
 * A thread record back to a thread, its held turns' texts taken from `turnTexts` (by arrival). Its
 * parts take the current config's policies; parts of bindings no longer configured are dropped.
 */
export function parseThreadValue(value: string, policies: readonly ThreadPolicy[], turnTexts: ReadonlyMap<number, string>): Decoded<Thread> {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (error) {
    return decodeFailure('invalid_json', `the thread state is not JSON: ${(error as Error).message}`);
  }
  const parsed = threadValueSchema.safeParse(json);
  if (!parsed.success) {
    const problems = problemsFromIssues(parsed.error.issues);
    return decodeFailure('schema_violation', `the thread state breaks its schema:\n${formatProblems(problems)}`, problems);
  }
  const stored = parsed.data;
  const turns: HeldTurn[] = [];
  for (const turn of stored.held) {
    const text = turnTexts.get(turn.arrival);
    if (text === undefined) return decodeFailure('schema_violation', `the thread holds turn ${turn.arrival} (run ${turn.runId}) but the changelog has no record ${turnRecordKey(stored.key, turn.arrival)}`);
    turns.push({ ...turn, json: text });
  }
  const byBinding = new Map(policies.map((policy) => [policy.binding, policy]));
  const parts = new Map<string, ThreadPart>();
  for (const { scorerId, scorerVersion, ...part } of stored.parts) {
    const policy = byBinding.get(bindingKeyOf(scorerId, scorerVersion));
    if (policy !== undefined) parts.set(policy.binding, { policy, ...part });
  }
  const thread: Thread = {
    key: stored.key,
    threadId: stored.threadId,
    ...(stored.tenantId === undefined ? {} : { tenantId: stored.tenantId }),
    turns,
    bytes: turns.reduce((sum, turn) => sum + turn.bytes, 0),
    seen: new Set([...stored.released, ...turns.map((turn) => turn.runId)]),
    nextArrival: stored.nextArrival,
    createdAt: stored.createdAt,
    lastActivityAt: stored.lastActivityAt,
    ...(stored.ending === undefined ? {} : { ending: stored.ending }),
    parts,
  };
  return { success: true, data: thread };
}

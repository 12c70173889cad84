// A thread's changelog record (docs/threads.md, state that survives): the whole state of one
// thread as one JSON value under its thread key, so the compacted changelog topic holds exactly
// the live threads and a restore reads one record per thread. Held turns are written into the
// value as they are (their JSON text spliced in, not escaped into a string: every turn of a thread
// is written again with each of its turns, so that cost counts); the run ids of released turns
// are kept for deduplication. The value is Scorestream's own, read back only by parseThreadValue,
// and still validated: a changelog written by another version, or damaged, is reported rather
// than trusted.
import { z } from 'zod';
import { sourceSchema } from '../contracts/common.ts';
import { samplingSchema } from '../contracts/common.ts';
import { SKIP_REASONS } from '../contracts/decision-record.ts';
import { formatProblems, problemsFromIssues } from '../contracts/problems.ts';
import { turnTraceSchema } from '../contracts/thread-turn.ts';
import { bindingKeyOf } from './thread-part.ts';
import type { ThreadPart, ThreadPolicy } from './thread-part.ts';
import type { Thread } from './thread.ts';

export const THREAD_STATE_SCHEMA_VERSION = 1;

const count = z.number().int().nonnegative();
const anchorSchema = z.object({ runId: z.string().min(1), timestampMs: z.number(), source: sourceSchema, trace: turnTraceSchema, arrival: count });

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

export const threadValueSchema = z.object({
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
  parts: z.array(partSchema),
  /** Last, so serializeThread can splice the turns in. `turn` is the ThreadTurn as it came; its run id and time are read from it. */
  turns: z.array(z.object({ arrival: count, arrivedAt: z.number(), turn: z.looseObject({ run: z.looseObject({ runId: z.string().min(1), timestamp: z.string() }) }) })),
});
export type ThreadValue = z.infer<typeof threadValueSchema>;

export function serializeThread(thread: Thread): string {
  const held = new Set(thread.turns.map((turn) => turn.runId));
  const head: Omit<ThreadValue, 'turns'> = {
    schemaVersion: THREAD_STATE_SCHEMA_VERSION,
    key: thread.key,
    threadId: thread.threadId,
    ...(thread.tenantId === undefined ? {} : { tenantId: thread.tenantId }),
    createdAt: thread.createdAt,
    lastActivityAt: thread.lastActivityAt,
    nextArrival: thread.nextArrival,
    ...(thread.ending === undefined ? {} : { ending: thread.ending }),
    released: [...thread.seen].filter((runId) => !held.has(runId)),
    parts: [...thread.parts.values()].map(({ policy, ...part }) => ({ scorerId: policy.scorerId, ...(policy.scorerVersion === undefined ? {} : { scorerVersion: policy.scorerVersion }), ...part })),
  };
  const turns = thread.turns.map((turn) => `{"arrival":${turn.arrival},"arrivedAt":${turn.arrivedAt},"turn":${turn.json}}`);
  return `${JSON.stringify(head).slice(0, -1)},"turns":[${turns.join(',')}]}`;
}

export type ParsedThreadValue = { success: true; thread: Thread } | { success: false; problem: string };

/** A changelog value back to a thread; its parts take the current config's policies, and parts of bindings no longer configured are dropped. */
export function parseThreadValue(value: string, policies: readonly ThreadPolicy[]): ParsedThreadValue {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (error) {
    return { success: false, problem: `the thread state is not JSON: ${(error as Error).message}` };
  }
  const parsed = threadValueSchema.safeParse(json);
  if (!parsed.success) return { success: false, problem: `the thread state breaks its schema:\n${formatProblems(problemsFromIssues(parsed.error.issues))}` };
  const stored = parsed.data;
  const byBinding = new Map(policies.map((policy) => [policy.binding, policy]));
  const parts = new Map<string, ThreadPart>();
  for (const { scorerId, scorerVersion, ...part } of stored.parts) {
    const policy = byBinding.get(bindingKeyOf(scorerId, scorerVersion));
    if (policy !== undefined) parts.set(policy.binding, { policy, ...part });
  }
  const raw = (json as { turns: { turn: unknown }[] }).turns;
  const turns = stored.turns.map(({ arrival, arrivedAt, turn }, index) => {
    // The turn as it was written (zod's copy may order its keys differently): written by
    // JSON.stringify, so stringified again it is the same text.
    const text = JSON.stringify(raw[index]!.turn);
    return { runId: turn.run.runId, timestampMs: Date.parse(turn.run.timestamp), arrival, arrivedAt, json: text, bytes: Buffer.byteLength(text, 'utf8') };
  });
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
  return { success: true, thread };
}

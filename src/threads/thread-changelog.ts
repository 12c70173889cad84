// A thread's changelog record (docs/threads.md, state that survives): the whole state of one
// thread as one JSON value under its thread key, so the compacted changelog topic holds exactly
// the live threads and a restore reads one record per thread. Held turns keep their JSON text as
// it came; the run ids of released turns are kept for deduplication. The value is Scorestream's
// own, read back only by parseThreadValue, and still validated: a changelog written by another
// version, or damaged, is reported rather than trusted.
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
  turns: z.array(anchorSchema.extend({ arrivedAt: z.number(), bytes: count, json: z.string() })),
  parts: z.array(partSchema),
});
export type ThreadValue = z.infer<typeof threadValueSchema>;

export function serializeThread(thread: Thread): string {
  const held = new Set(thread.turns.map((turn) => turn.runId));
  const value: ThreadValue = {
    schemaVersion: THREAD_STATE_SCHEMA_VERSION,
    key: thread.key,
    threadId: thread.threadId,
    ...(thread.tenantId === undefined ? {} : { tenantId: thread.tenantId }),
    createdAt: thread.createdAt,
    lastActivityAt: thread.lastActivityAt,
    nextArrival: thread.nextArrival,
    ...(thread.ending === undefined ? {} : { ending: thread.ending }),
    released: [...thread.seen].filter((runId) => !held.has(runId)),
    turns: thread.turns,
    parts: [...thread.parts.values()].map(({ policy, ...part }) => ({ scorerId: policy.scorerId, ...(policy.scorerVersion === undefined ? {} : { scorerVersion: policy.scorerVersion }), ...part })),
  };
  return JSON.stringify(value);
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
  const thread: Thread = {
    key: stored.key,
    threadId: stored.threadId,
    ...(stored.tenantId === undefined ? {} : { tenantId: stored.tenantId }),
    turns: stored.turns,
    bytes: stored.turns.reduce((sum, turn) => sum + turn.bytes, 0),
    seen: new Set([...stored.released, ...stored.turns.map((turn) => turn.runId)]),
    nextArrival: stored.nextArrival,
    createdAt: stored.createdAt,
    lastActivityAt: stored.lastActivityAt,
    ...(stored.ending === undefined ? {} : { ending: stored.ending }),
    parts,
  };
  return { success: true, thread };
}

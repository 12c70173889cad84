// The `thread` block of the records a thread scorer produces (docs/threads.md): which thread, which
// of its turns, why it was closed, and — on a score record — which version of the thread this is
// and which version it supersedes. A record without the block is about one run.
import { z } from 'zod';
import { idSchema } from './common.ts';

/**
 * Why a thread was closed for a scorer: `idle` (no turn for the binding's idleMs), `ended` (an
 * agent.thread.ended event, or a run with metadata.threadEnded), `max_turns` / `max_age` (the
 * binding's bounds), `max_bytes` (the thread's turns reached threads.maxThreadBytes), `overflow`
 * (the partition's state was full and this was its least recently active thread).
 */
export const THREAD_CLOSE_REASONS = ['idle', 'ended', 'max_turns', 'max_age', 'max_bytes', 'overflow'] as const;
export type ThreadCloseReason = (typeof THREAD_CLOSE_REASONS)[number];

/**
 * What a version holds: the whole conversation so far (`conversation`: the first version, and
 * every re-score under onResume 'rescore'), or only the turns since the last close (`segment`).
 */
export const THREAD_SCOPES = ['conversation', 'segment'] as const;
export type ThreadScope = (typeof THREAD_SCOPES)[number];

/** At most this many of a version's turns are named in its record (`runIds`): the last ones, where the conversation ended. */
export const THREAD_RUN_IDS_KEPT = 100;

export const threadRefSchema = z.object({
  /** The thread id the runs carry. */
  id: idSchema,
  /** Tenant + thread id (threadKeyFor): what identifies the thread across tenants. */
  key: idSchema,
  /** How many turns (runs) the scorer saw, or would have seen. */
  turns: z.number().int().min(1),
  /** The first and last of those turns, in turn order (run timestamp, then arrival). */
  firstRunId: idSchema,
  lastRunId: idSchema,
  closedBy: z.enum(THREAD_CLOSE_REASONS),
}).meta({ id: 'ThreadRef' });
export type ThreadRef = z.infer<typeof threadRefSchema>;

export const threadVersionSchema = threadRefSchema.extend({
  /** 1 for the thread's first score by this binding, then 2, 3, … on each resume. */
  version: z.number().int().min(1),
  /** Derived from the set of the version's turns (threadVersionIdFor): the same turns, the same id. */
  versionId: idSchema,
  scope: z.enum(THREAD_SCOPES),
  /** The versionId of the version this one replaces (a re-score after a resume); absent on version 1 and on segments. */
  supersedes: idSchema.optional(),
  /**
   * The version's turns' run ids in turn order — the last THREAD_RUN_IDS_KEPT of them when
   * `turns` is larger — so a reader can show each turn with its run scores and trace. Absent on
   * records written before it was added.
   */
  runIds: z.array(idSchema).max(THREAD_RUN_IDS_KEPT).optional(),
}).meta({ id: 'ThreadVersion' });
export type ThreadVersion = z.infer<typeof threadVersionSchema>;

// The config of thread scoring (docs/threads.md) as zod schemas: a binding's `level` and its
// per-binding `thread` options (when a thread is closed and what a resume does), and the `threads`
// section (where a run's thread id may come from, and the bounds of the per-partition state). The
// config schema (src/engine/config/config-schema.ts) composes them; the checks that need both a binding
// and the section are resolveConfig's (src/engine/config/resolve-config.ts).
import { z } from 'zod';
import { DEFAULTS } from '../config/defaults.ts';
import { parsePath } from '../eligibility/predicate-paths.ts';


/**
 * What a turn for a thread already scored does. `rescore`: the next close scores the whole
 * conversation again as the next version, which supersedes the last. `segment`: it scores only
 * the turns since the last close. `once`: a thread is scored once; later closes are decided
 * `rescore_refused`.
 */
export const ON_RESUME_MODES = ['rescore', 'segment', 'once'] as const;
export type OnResumeMode = (typeof ON_RESUME_MODES)[number];

const defaults = DEFAULTS.threads;
const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();

export const threadOptionsSchema = z.strictObject({
  /** Wall-clock time without a new turn after which the thread is closed and scored (default 15 min). */
  idleMs: positiveInt.default(defaults.idleMs),
  /** A version never holds more turns: reaching it closes the thread at once (default 100). */
  maxTurns: positiveInt.default(defaults.maxTurns),
  /** A version open this long (from its first turn) is closed even while turns keep coming (default 24 h). */
  maxAgeMs: positiveInt.default(defaults.maxAgeMs),
  onResume: z.enum(ON_RESUME_MODES, { error: `expected one of ${ON_RESUME_MODES.map((mode) => `'${mode}'`).join(', ')}` }).default(defaults.onResume),
  /** A re-score closed by idle or maxAge waits until this long after the previous score (default 0). */
  minRescoreIntervalMs: nonNegativeInt.default(defaults.minRescoreIntervalMs),
  /** Scores after the first, per thread and binding; later ones are decided `rescore_refused` (default 10). */
  maxRescores: nonNegativeInt.default(defaults.maxRescores),
});
export type ThreadOptions = z.output<typeof threadOptionsSchema>;
export type ThreadOptionsInput = z.input<typeof threadOptionsSchema>;

/** The roots a thread id path may start with: the run's own fields, not the run facts of filters. */
export const THREAD_ID_PATH_ROOTS = ['metadata', 'requestContext'] as const;

const idPathSchema = z.string().superRefine((path, context) => {
  const parsed = parsePath(path);
  if (parsed === undefined || !(THREAD_ID_PATH_ROOTS as readonly string[]).includes(parsed.root) || parsed.rest.length === 0) {
    context.addIssue({ code: 'custom', message: `expected a path into the run's metadata or requestContext, such as 'metadata.sessionId' or 'requestContext.conversation.id', got ${JSON.stringify(path)}` });
  }
});

export const threadsSchema = z
  .strictObject({
    /**
     * Where a run's thread id is read first; the messages' threadId and metadata.conversationId
     * are tried after it (src/engine/threads/thread-identity.ts).
     */
    idPath: idPathSchema.optional(),
    /** Threads held per partition of the repartition topic, open or kept for a resume; the least recently active is closed beyond it. */
    maxThreads: positiveInt.default(defaults.maxThreads),
    /** Bytes of turns held per partition; the least recently active threads are closed beyond it (default 256 MiB). */
    maxStateBytes: positiveInt.default(defaults.maxStateBytes),
    /** Bytes of turns held per thread; reaching it closes the thread and it takes no re-score (default 512 KiB). */
    maxThreadBytes: positiveInt.default(defaults.maxThreadBytes),
    /** The budget of one turn message: the run is slimmed to fit (ThreadTurn `shed`; default 64 KiB). */
    maxTurnBytes: positiveInt.default(defaults.maxTurnBytes),
    /** How long a closed thread is kept after its last turn, to recognise a resume and duplicate turns (default 7 days). */
    stateTtlMs: positiveInt.default(defaults.stateTtlMs),
  })
  .superRefine((threads, context) => {
    if (threads.maxTurnBytes > threads.maxThreadBytes) {
      context.addIssue({ code: 'custom', path: ['maxTurnBytes'], message: `must not exceed threads.maxThreadBytes (${threads.maxThreadBytes}): one turn must fit in a thread` });
    }
    if (threads.maxThreadBytes > threads.maxStateBytes) {
      context.addIssue({ code: 'custom', path: ['maxThreadBytes'], message: `must not exceed threads.maxStateBytes (${threads.maxStateBytes}): one thread must fit in the instance's thread state` });
    }
  })
  .prefault({});
export type ThreadsConfig = z.output<typeof threadsSchema>;

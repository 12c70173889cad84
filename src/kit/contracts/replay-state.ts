// ReplayState v1: the range a replay fixed when it started, on the compacted replays topic
// (`topics.replays`, default `{runs}-replays`, key = the replay's id). A relative `--from 10m` is
// resolved once, against the clock of the first run, and recorded here with the offsets it
// resolved to; running the same command again reads this back and continues the same replay over
// the same offsets, whatever the clock says now (docs/spend-and-replay.md, replay).
import { z } from 'zod';
import { idSchema, isoTimestampSchema } from './common.ts';

export const REPLAY_STATE_SCHEMA_VERSION = 1;

/** A time as the command gave it (`spec`: an ISO time, or a duration ago as written) and what it resolved to. */
export const replayTimeSchema = z.object({ spec: z.string().min(1), at: isoTimestampSchema }).meta({ id: 'ReplayTime' });

export const replayStateSchema = z.object({
  schemaVersion: z.literal(REPLAY_STATE_SCHEMA_VERSION),
  /** The replay's id: its records' `replay.id`, and its consumer group `<group>.<id>`. */
  id: idSchema,
  /** The live service's group the replay belongs to, and the runs topic it reads. */
  liveGroupId: idSchema,
  topic: idSchema,
  from: replayTimeSchema,
  to: replayTimeSchema.optional(),
  /** Scorer ids replayed; empty = every scorer of the config. */
  scorers: z.array(idSchema),
  /** Per partition of the runs topic, the offsets [start, end) the replay reads. */
  partitions: z.array(z.object({ partition: z.number().int().nonnegative(), start: z.number().int().nonnegative(), end: z.number().int().nonnegative() })),
  startedAt: isoTimestampSchema,
});
export type ReplayState = z.infer<typeof replayStateSchema>;

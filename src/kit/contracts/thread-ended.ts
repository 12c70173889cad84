// ThreadEnded v1: the explicit end of a conversation (docs/threads.md), for ends that no run knows
// about — the user closed the chat, the ticket was resolved. Published on the runs topic beside the
// run events; re-keyed by thread like a turn. A run that knows it is the last says so itself
// (`metadata.threadEnded: true`) and needs no event. The thread's open versions close at once; with
// `lastRunId`, not before that run's turn has arrived (a turn is re-keyed only after the run path
// scored it, so the end event can overtake it), or at the binding's idle deadline if it never does.
import { z } from 'zod';
import { idSchema, isoTimestampSchema } from './common.ts';

export const THREAD_ENDED_TYPE = 'agent.thread.ended';
export const THREAD_ENDED_SCHEMA_VERSION = 1;

export const threadEndedEventSchema = z.object({
  schemaVersion: z.literal(THREAD_ENDED_SCHEMA_VERSION),
  type: z.literal(THREAD_ENDED_TYPE),
  threadId: idSchema,
  /** As the runs' `metadata.tenantId`: the thread is the tenant's. */
  tenantId: z.string().optional(),
  timestamp: isoTimestampSchema,
  /** The conversation's last run, when the sender knows it: the thread waits for its turn. */
  lastRunId: idSchema.optional(),
  /** Free text for people, e.g. `user_closed_chat`. */
  reason: z.string().optional(),
});
export type ThreadEndedEvent = z.output<typeof threadEndedEventSchema>;
export type ThreadEndedEventInput = z.input<typeof threadEndedEventSchema>;

// ThreadTurn v1: one run of a conversation, re-keyed by its thread onto the repartition topic
// (`{runs}-by-thread`, key = the thread key) after the run path scored it, so that one member owns
// each thread (docs/threads.md). It carries the run as a valid AgentRunEvent slimmed to a budget
// (`shed` names what was removed), where it came from, its trace context (the thread score span
// links every turn's agent span) and the summaries of its run scorers' records, so that thread
// scorers such as "the minimum of a run scorer's scores" need no join with the results topic.
import { z } from 'zod';
import { agentRunEventSchema } from './agent-run-event.ts';
import { idSchema, sourceSchema, spanIdSchema, traceIdSchema } from './common.ts';
import { DEFER_REASONS, SKIP_REASONS } from './decision-record.ts';
import { SCORE_STATUSES } from './score-record.ts';

export const THREAD_TURN_TYPE = 'agent.thread.turn';
export const THREAD_TURN_SCHEMA_VERSION = 1;

/** A run scorer's outcome for the turn: its record's status, or `skipped` / `deferred` from its decision. */
export const RUN_SCORE_STATUSES = [...SCORE_STATUSES, 'skipped', 'deferred'] as const;
export type RunScoreStatus = (typeof RUN_SCORE_STATUSES)[number];

export const runScoreSummarySchema = z.object({
  scorerId: idSchema,
  scorerVersion: z.string().optional(),
  status: z.enum(RUN_SCORE_STATUSES),
  /** Only when scored. */
  score: z.number().optional(),
  /** Why it was skipped or deferred (the decision's reason). */
  reason: z.enum([...SKIP_REASONS, ...DEFER_REASONS]).optional(),
}).meta({ id: 'RunScoreSummary' });
export type RunScoreSummary = z.infer<typeof runScoreSummarySchema>;

/**
 * What the turn budget removed from the run, in the order it is removed (buildThreadTurn):
 * always the recalled history (the thread holds the earlier turns themselves) and the tagged
 * system messages; then, only while the turn is over budget, the system prompts, the ground truth
 * and expected trajectory, the tools offered, the request context, the free-form metadata (tenant, environment and
 * tags stay), long texts and tool values (cut, with a marker), and at last every message.
 */
export const THREAD_TURN_SHED = [
  'rememberedMessages',
  'taggedSystemMessages',
  'systemMessages',
  'groundTruth',
  'expectedTrajectory',
  'tools',
  'requestContext',
  'metadata',
  'messageText',
  'messages',
] as const;
export type ThreadTurnShed = (typeof THREAD_TURN_SHED)[number];

export const turnTraceSchema = z.object({
  traceId: traceIdSchema.optional(),
  /** The agent run's span: a link of the thread score span (the last turn's is its parent). */
  spanId: spanIdSchema.optional(),
  sampled: z.boolean().optional(),
}).meta({ id: 'TurnTrace' });
export type TurnTrace = z.infer<typeof turnTraceSchema>;

export const threadTurnSchema = z.object({
  schemaVersion: z.literal(THREAD_TURN_SCHEMA_VERSION),
  type: z.literal(THREAD_TURN_TYPE),
  thread: z.object({
    /** threadKeyFor(tenantId, id): also the message key. */
    key: idSchema,
    id: idSchema,
    tenantId: z.string().optional(),
  }),
  /** The run, slimmed; still a valid AgentRunEvent (its body `trace` is in `trace` instead). */
  run: agentRunEventSchema,
  /** The run was marked as the conversation's last (`metadata.threadEnded: true`): the thread closes once it is applied. */
  ended: z.boolean().optional(),
  trace: turnTraceSchema,
  /** The run event's own position on the runs topic. */
  source: sourceSchema,
  runScores: z.array(runScoreSummarySchema),
  shed: z.array(z.enum(THREAD_TURN_SHED)).optional(),
});
export type ThreadTurn = z.output<typeof threadTurnSchema>;
/** A turn as it travels (ISO strings where the parsed turn has Dates). */
export type ThreadTurnInput = z.input<typeof threadTurnSchema>;

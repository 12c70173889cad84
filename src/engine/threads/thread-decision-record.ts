// The decision record of a thread binding that scored nothing at a close (docs/threads.md): its
// admission said no (filter, when, sampling), the re-score was refused, or a budget refused it.
// Built by the one decision-record builder (src/engine/pipeline/build-decision-record.ts) with the thread
// block; `runId`, `source`, `trace` and the entity are the last turn's, the tenant the thread's.
import type { Sampling } from '../../kit/contracts/common.ts';
import type { DecisionRecord, SkipReason } from '../../kit/contracts/decision-record.ts';
import type { ThreadRef } from '../../kit/contracts/thread-ref.ts';
import type { BudgetRefusal } from '../budget/budget-ledger.ts';
import { buildDecisionRecord } from '../pipeline/build-decision-record.ts';
import type { ThreadDecision } from './thread-effects.ts';
import type { TurnAnchor } from './turn-entry.ts';

export type ThreadDecisionContext = {
  thread: ThreadRef;
  tenantId?: string;
  scorerId: string;
  scorerVersion?: string;
  reason: SkipReason;
  detail?: string;
  sampling?: Sampling;
  budget?: BudgetRefusal;
  last: TurnAnchor;
  decidedAt: string;
};

export function buildThreadDecisionRecord(context: ThreadDecisionContext): DecisionRecord {
  const { last } = context;
  const metadata = context.tenantId === undefined ? undefined : { tenantId: context.tenantId };
  return buildDecisionRecord(
    {
      runId: last.runId,
      ...(last.entity === undefined ? {} : { event: { entity: last.entity, metadata } }),
      scorerId: context.scorerId,
      scorerVersion: context.scorerVersion,
      trace: last.trace.traceId === undefined ? undefined : { traceId: last.trace.traceId, ...(last.trace.spanId === undefined ? {} : { parentSpanId: last.trace.spanId }) },
      source: last.source,
    },
    {
      decision: 'skipped',
      reason: context.reason,
      ...(context.detail === undefined ? {} : { detail: context.detail }),
      ...(context.sampling === undefined ? {} : { sampling: context.sampling }),
      ...(context.budget === undefined ? {} : { budget: { name: context.budget.name, window: context.budget.window } }),
      thread: context.thread,
    },
    context.decidedAt,
  );
}

/** The record of a decision effect of the thread state. */
export function decisionRecordOf(effect: ThreadDecision, decidedAt: string): DecisionRecord {
  return buildThreadDecisionRecord({
    thread: { id: effect.threadId, key: effect.key, turns: effect.turns, firstRunId: effect.first.runId, lastRunId: effect.last.runId, closedBy: effect.closedBy },
    ...(effect.tenantId === undefined ? {} : { tenantId: effect.tenantId }),
    scorerId: effect.scorerId,
    ...(effect.scorerVersion === undefined ? {} : { scorerVersion: effect.scorerVersion }),
    reason: effect.reason,
    ...(effect.detail === undefined ? {} : { detail: effect.detail }),
    ...(effect.sampling === undefined ? {} : { sampling: effect.sampling }),
    last: effect.last,
    decidedAt,
  });
}

// A trace that yielded no agent run (the OTLP input: not_an_agent_trace, incomplete_trace,
// assembly_overflow): one skip per scorer binding, with the trace id as run id, so that "this trace
// has no score" is explainable from the decisions topic too (docs/otlp.md). Pure.
import type { Source } from '../../kit/contracts/common.ts';
import type { SkipReason } from '../../kit/contracts/decision-record.ts';
import type { ResolvedBinding } from '../config/resolve-config.ts';
import { buildDecisionRecord } from './build-decision-record.ts';
import type { ScoringOutcome } from './scoring-outcome.ts';

export type TraceWithoutRun = { traceId: string; reason: SkipReason; detail: string; source: Source };

export function traceWithoutRun(trace: TraceWithoutRun, bindings: readonly Pick<ResolvedBinding<unknown>, 'scorerId' | 'version'>[], decidedAt: string): ScoringOutcome[] {
  return bindings.map((binding) => ({
    kind: 'skipped',
    decision: buildDecisionRecord(
      { runId: trace.traceId, scorerId: binding.scorerId, scorerVersion: binding.version, trace: { traceId: trace.traceId }, source: trace.source },
      { decision: 'skipped', reason: trace.reason, detail: trace.detail },
      decidedAt,
    ),
  }));
}

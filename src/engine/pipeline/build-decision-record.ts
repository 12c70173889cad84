// The one builder of decision records (docs/contracts.md, the decision record): why a (run,
// scorer) pair was skipped — eligibility, a budget, an OTLP trace that yielded no run — or put off
// to the retry topics, or a thread binding's close that scored nothing (with the thread block). Every decision names the run's agent or workflow and its tenant when a run
// was read, so a dashboard can split skip reasons by both. Pure: the caller brings the clock reading.
import type { AgentRunEvent } from '../../kit/contracts/agent-run-event.ts';
import type { RecordTrace, Source } from '../../kit/contracts/common.ts';
import type { DecisionRecord } from '../../kit/contracts/decision-record.ts';
import { DECISION_RECORD_SCHEMA_VERSION } from '../../kit/contracts/decision-record.ts';

/** The pair a decision is about: its run (by id, and by event when one was read) and its binding. */
export type DecidedPair = {
  runId: string;
  event?: Pick<AgentRunEvent, 'entity' | 'metadata'>;
  scorerId: string;
  scorerVersion?: string | undefined;
  trace?: RecordTrace | undefined;
  source: Source;
};

/** What was decided: the fields of a decision record that are not the pair's. */
export type Decision = Pick<DecisionRecord, 'decision' | 'reason' | 'detail' | 'sampling' | 'budget' | 'escalation' | 'retry' | 'thread'>;

export function buildDecisionRecord(pair: DecidedPair, decision: Decision, decidedAt: string): DecisionRecord {
  const tenantId = pair.event?.metadata?.tenantId;
  return {
    schemaVersion: DECISION_RECORD_SCHEMA_VERSION,
    runId: pair.runId,
    scorerId: pair.scorerId,
    ...(pair.scorerVersion === undefined ? {} : { scorerVersion: pair.scorerVersion }),
    ...(pair.event === undefined ? {} : { entity: pair.event.entity }),
    ...(tenantId === undefined ? {} : { metadata: { tenantId } }),
    decision: decision.decision,
    reason: decision.reason,
    ...(decision.detail === undefined ? {} : { detail: decision.detail }),
    ...(decision.sampling === undefined ? {} : { sampling: decision.sampling }),
    ...(decision.budget === undefined ? {} : { budget: decision.budget }),
    ...(decision.escalation === undefined ? {} : { escalation: decision.escalation }),
    ...(pair.trace === undefined ? {} : { trace: pair.trace }),
    source: pair.source,
    decidedAt,
    ...(decision.retry === undefined ? {} : { retry: decision.retry }),
    ...(decision.thread === undefined ? {} : { thread: decision.thread }),
  };
}

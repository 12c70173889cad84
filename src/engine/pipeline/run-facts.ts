// The facts about one run event that every scorer binding decides on: computed once per event,
// not once per scorer. The predicate context follows Mastra's live-scoring context (flattened
// request context, entity, entityType, source) plus what live-traffic filters need (metadata,
// runId, traceId).
import type { AgentRunEvent } from '../../kit/contracts/agent-run-event.ts';
import type { Source } from '../../kit/contracts/common.ts';
import { snapshotRequestContext } from '../eligibility/request-context-snapshot.ts';
import type { PredicateContext } from '../eligibility/predicate-context.ts';

/** The agent run's propagated trace context, as extracted from the Kafka headers (or the body). */
export type RunTraceFacts = {
  traceId?: string;
  /** The agent run's span: the parent of every score span. */
  spanId?: string;
  /** false when the propagated context says "not sampled" (then nothing is scored). */
  sampled?: boolean;
};

export type RunFacts = {
  event: AgentRunEvent;
  source: Source;
  trace: RunTraceFacts;
  requestContext: Record<string, string | number | boolean>;
  predicateContext: PredicateContext;
  /** What deterministic sampling hashes: the trace id, else the run id (as Mastra does). */
  samplingKey: string;
};

/** The first non-empty `threadId` or `resourceId` of the run's input and output messages (Mastra's shape). */
export function firstMessageField(event: AgentRunEvent, field: 'threadId' | 'resourceId'): string | undefined {
  for (const message of [...event.input.inputMessages, ...event.output]) {
    const value = (message as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

export function collectRunFacts(event: AgentRunEvent, source: Source, trace: RunTraceFacts): RunFacts {
  const requestContext = snapshotRequestContext(event.requestContext);
  const threadId = firstMessageField(event, 'threadId');
  const resourceId = firstMessageField(event, 'resourceId');
  const predicateContext: PredicateContext = {
    requestContext,
    entity: { ...event.entity },
    entityType: event.entity.type === 'workflow' ? 'WORKFLOW' : 'AGENT',
    source: 'LIVE',
    metadata: event.metadata ?? {},
    runId: event.runId,
    ...(trace.traceId === undefined ? {} : { traceId: trace.traceId }),
    ...(threadId === undefined ? {} : { threadId }),
    ...(resourceId === undefined ? {} : { resourceId }),
  };
  return { event, source, trace, requestContext, predicateContext, samplingKey: trace.traceId ?? event.runId };
}

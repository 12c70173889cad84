// The object a scorer's run() receives for a live run event. It mirrors what Mastra's live
// scoring hands its scorers (runId = the agent run's id, the flattened request-context
// snapshot, scoreSource 'live', target anchors), so scorers written for Mastra port unchanged.
import type { RunFacts } from './run-facts.ts';

export function buildScorerInput(facts: RunFacts): Record<string, unknown> {
  const { event, trace, predicateContext } = facts;
  const input: Record<string, unknown> = {
    runId: event.runId,
    input: event.input,
    output: event.output,
    requestContext: facts.requestContext,
    scoreSource: 'live',
    targetScope: 'span',
    targetEntityType: event.entity.type,
    entity: { id: event.entity.id, ...(event.entity.name === undefined ? {} : { name: event.entity.name }) },
    entityType: predicateContext.entityType,
    source: 'LIVE',
  };
  if (event.groundTruth !== undefined) input.groundTruth = event.groundTruth;
  if (event.expectedTrajectory !== undefined) input.expectedTrajectory = event.expectedTrajectory;
  if (event.tools !== undefined) input.tools = event.tools;
  // Budget scorers (step-budget) read these; absent when the producer did not measure them.
  if (event.usage !== undefined) input.usage = event.usage;
  if (event.durationMs !== undefined) input.durationMs = event.durationMs;
  // What the run lacks (an OTLP run without a user message or an answer): scorers say so in their notScorable.
  if (event.missing !== undefined) input.missing = event.missing;
  if (trace.traceId !== undefined) input.targetTraceId = trace.traceId;
  if (trace.spanId !== undefined) input.targetSpanId = trace.spanId;
  if (event.metadata !== undefined) input.targetMetadata = event.metadata;
  if (predicateContext.threadId !== undefined) input.threadId = predicateContext.threadId;
  if (predicateContext.resourceId !== undefined) input.resourceId = predicateContext.resourceId;
  return input;
}

// An AI SDK call as a run event: what the app passed (model-messages.ts) and what it got back
// (step-output.ts), with the run's identity, tenant, request context and metadata from the app's
// options. Pure: the clock and the id generator can be given, nothing is sent.
import { randomUUID } from 'node:crypto';
import { AGENT_RUN_EVENT_SCHEMA_VERSION, AGENT_RUN_EVENT_TYPE } from '../../src/kit/contracts/agent-run-event.ts';
import type { AgentRunEventInput, RunUsage } from '../../src/kit/contracts/agent-run-event.ts';
import type { Entity, RunMetadata } from '../../src/kit/contracts/common.ts';
import { convertCallInput } from './model-messages.ts';
import type { AiSdkCall } from './model-messages.ts';
import { convertSteps } from './step-output.ts';
import { toolDefinitionsOf } from './tool-definitions.ts';
import type { AiSdkStep } from './step-output.ts';

/** `LanguageModelUsage` from 'ai', as far as the contract carries it. */
export type AiSdkUsage = {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  readonly totalTokens?: number | undefined;
  readonly inputTokenDetails?: { readonly cacheReadTokens?: number | undefined };
  readonly outputTokenDetails?: { readonly reasoningTokens?: number | undefined };
};

/**
 * A finished call's result: the result of generateText or of an agent's generate, the awaited
 * fields of streamText's result (`publishAiSdkRun` awaits them), or the event of an `onFinish` /
 * `onEnd` callback. `totalUsage` (all steps) wins over `usage`.
 */
export type AiSdkResult = {
  readonly steps: readonly AiSdkStep[];
  readonly totalUsage?: AiSdkUsage | undefined;
  readonly usage?: AiSdkUsage | undefined;
  readonly finishReason?: string | undefined;
};

export type AiSdkRunOptions = {
  /** The run's id (the Kafka key). Default: a new UUID. */
  runId?: string;
  /** The agent's registered id: `entity.id`. */
  agentId: string;
  agentName?: string;
  agentVersion?: string;
  /** `entity.type`; default 'agent'. */
  entityType?: Entity['type'];
  /** Copied into `metadata.tenantId`. */
  tenantId?: string;
  environment?: string;
  tags?: string[];
  /** More run metadata (free-form keys are kept and copied into every score record). */
  metadata?: Record<string, unknown>;
  /** The request context scorers and filters see (`run.requestContext`). */
  requestContext?: Record<string, unknown>;
  groundTruth?: unknown;
  expectedTrajectory?: unknown;
  /** Trace context in the body, for when the Kafka headers cannot carry it. */
  trace?: { traceparent: string; tracestate?: string };
  /** When the run finished; default now. */
  completedAt?: Date;
  /** When it started: gives `durationMs`; without it, the steps' own times are summed. */
  startedAt?: Date;
  /** Set when the run itself failed. */
  error?: { name?: string; message: string };
};

function usageOf(usage: AiSdkUsage | undefined): RunUsage | undefined {
  if (usage === undefined) return undefined;
  const fields: RunUsage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    reasoningTokens: usage.outputTokenDetails?.reasoningTokens,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens,
  };
  const present = Object.entries(fields).filter(([, value]) => value !== undefined);
  return present.length === 0 ? undefined : (Object.fromEntries(present) as RunUsage);
}

function durationOf(result: AiSdkResult, options: AiSdkRunOptions, completedAt: Date): number | undefined {
  if (options.startedAt !== undefined) return Math.max(0, completedAt.getTime() - options.startedAt.getTime());
  const times = result.steps.map((step) => step.performance?.stepTimeMs);
  return times.length > 0 && times.every((time) => time !== undefined) ? times.reduce((sum, time) => sum + time, 0) : undefined;
}

/** The run event of one AI SDK call. Validated when published (createRunPublisher). */
export function aiSdkRunEvent(call: AiSdkCall, result: AiSdkResult, options: AiSdkRunOptions): AgentRunEventInput {
  const runId = options.runId ?? randomUUID();
  const completedAt = options.completedAt ?? new Date();
  const durationMs = durationOf(result, options, completedAt);
  const startedAt = options.startedAt ?? new Date(completedAt.getTime() - (durationMs ?? 0));
  const input = convertCallInput(call, `${runId}-input`, startedAt.toISOString());
  const output = convertSteps(result.steps, { id: `${runId}-output`, createdAt: completedAt.toISOString(), ...(result.finishReason === undefined ? {} : { finishReason: result.finishReason }) });
  const metadata: RunMetadata = { ...options.metadata };
  if (options.tenantId !== undefined) metadata.tenantId = options.tenantId;
  if (options.environment !== undefined) metadata.environment = options.environment;
  if (options.tags !== undefined) metadata.tags = options.tags;
  const usage = usageOf(result.totalUsage ?? result.usage);
  return {
    schemaVersion: AGENT_RUN_EVENT_SCHEMA_VERSION,
    type: AGENT_RUN_EVENT_TYPE,
    runId,
    timestamp: completedAt.toISOString(),
    entity: {
      type: options.entityType ?? 'agent',
      id: options.agentId,
      ...(options.agentName === undefined ? {} : { name: options.agentName }),
      ...(options.agentVersion === undefined ? {} : { version: options.agentVersion }),
    },
    input: { ...input, taggedSystemMessages: {} },
    output,
    requestContext: options.requestContext ?? {},
    ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    ...(usage === undefined ? {} : { usage }),
    ...(durationMs === undefined ? {} : { durationMs }),
    ...(options.groundTruth === undefined ? {} : { groundTruth: options.groundTruth }),
    ...(options.expectedTrajectory === undefined ? {} : { expectedTrajectory: options.expectedTrajectory }),
    ...(call.tools === undefined ? {} : { tools: toolDefinitionsOf(call.tools) }),
    ...(options.error === undefined ? {} : { error: options.error }),
    ...(options.trace === undefined ? {} : { trace: options.trace }),
  };
}

// One line in an app: `await publishAiSdkRun(publisher, call, result, { agentId })` after an AI
// SDK call. Waits for a stream's result, builds the run event, and publishes it in the trace
// context of the call: the AI SDK's own root span when a `scorestreamTelemetry` integration
// recorded it, else the context given, else the context active where this is called.
import type { Context } from '@opentelemetry/api';
import type { PublishReport, RunPublisher } from '../run-publisher.ts';
import { agentSpanContext } from './agent-telemetry.ts';
import type { AiSdkCall } from './model-messages.ts';
import { aiSdkRunEvent } from './run-event.ts';
import type { AiSdkResult, AiSdkRunOptions, AiSdkUsage } from './run-event.ts';
import type { AiSdkStep } from './step-output.ts';

/** A result whose fields may still be promises, as streamText's are until the stream was consumed. */
export type AiSdkSettlingResult = {
  readonly steps: readonly AiSdkStep[] | PromiseLike<readonly AiSdkStep[]>;
  readonly totalUsage?: AiSdkUsage | PromiseLike<AiSdkUsage> | undefined;
  readonly usage?: AiSdkUsage | PromiseLike<AiSdkUsage> | undefined;
  readonly finishReason?: string | PromiseLike<string> | undefined;
};

/** The result with its fields awaited. For streamText, this waits until the stream was consumed. */
export async function settleAiSdkResult(result: AiSdkSettlingResult): Promise<AiSdkResult> {
  const [steps, totalUsage, usage, finishReason] = await Promise.all([result.steps, result.totalUsage, result.usage, result.finishReason]);
  return { steps, totalUsage, usage, finishReason };
}

export type PublishAiSdkRunOptions = AiSdkRunOptions & {
  /** The trace context to publish in when no recorded root span of the call is known. */
  context?: Context;
};

/** Builds the run event of a finished AI SDK call and publishes it. Resolves once Kafka acknowledged it. */
export async function publishAiSdkRun(
  publisher: Pick<RunPublisher, 'publish'>,
  call: AiSdkCall,
  result: AiSdkSettlingResult,
  options: PublishAiSdkRunOptions,
): Promise<PublishReport> {
  const settled = await settleAiSdkResult(result);
  const { context, ...runOptions } = options;
  const event = aiSdkRunEvent(call, settled, runOptions);
  const callContext = agentSpanContext(settled.steps[0]?.callId) ?? context;
  return publisher.publish(event, callContext === undefined ? {} : { contextFor: () => callContext });
}

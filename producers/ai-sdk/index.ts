// The AI SDK entry (`scorestream/ai-sdk`): publish a generateText / streamText / agent call as a
// run. Two lines in an app (docs/ai-sdk.md):
//   registerTelemetry(scorestreamTelemetry());           // where new OpenTelemetry() would go
//   await publishAiSdkRun(publisher, call, result, { agentId: 'support' });
export { aiSdkRunEvent } from './run-event.ts';
export type { AiSdkResult, AiSdkRunOptions, AiSdkUsage } from './run-event.ts';
export type { AiSdkCall } from './model-messages.ts';
export type { AiSdkStep } from './step-output.ts';
export { publishAiSdkRun, settleAiSdkResult } from './publish-run.ts';
export type { AiSdkSettlingResult, PublishAiSdkRunOptions } from './publish-run.ts';
export { agentSpanContext, scorestreamTelemetry } from './agent-telemetry.ts';
export type { AgentTelemetryOptions } from './agent-telemetry.ts';

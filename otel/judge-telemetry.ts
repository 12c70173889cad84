// The AI SDK's OpenTelemetry integration for judge and classifier calls: `invoke_agent` → `step`
// → `chat` spans with gen_ai.* attributes, nested under the active scorer step span. Every span it
// creates carries `scorestream.origin=judge`, so a pipeline that turns traces back into agent-run
// events can recognise the judge's "agent" spans as Scorestream's own and leave them out (they
// sit inside the scored run's trace, so trace id alone cannot tell them apart).
import { OpenTelemetry } from '@ai-sdk/otel';
import { registerTelemetry } from 'ai';

/** Span and resource attribute naming where telemetry came from. */
export const SCORESTREAM_ORIGIN_ATTRIBUTE = 'scorestream.origin';

/** Attributes added to every AI SDK span the service produces. */
export const JUDGE_SPAN_ATTRIBUTES = { [SCORESTREAM_ORIGIN_ATTRIBUTE]: 'judge' } as const;

/**
 * Registers the integration globally (the AI SDK has one global list) and returns a function that
 * removes exactly this registration again, for shutdown and tests.
 */
export function registerJudgeTelemetry(): () => void {
  const integration = new OpenTelemetry({ enrichSpan: () => ({ ...JUDGE_SPAN_ATTRIBUTES }) });
  registerTelemetry(integration);
  return () => {
    const integrations = globalThis.AI_SDK_TELEMETRY_INTEGRATIONS;
    const index = integrations?.indexOf(integration) ?? -1;
    if (integrations !== undefined && index >= 0) integrations.splice(index, 1);
  };
}

// The AI SDK's OpenTelemetry integration for judge and classifier calls: `invoke_agent` → `step`
// → `chat` spans with gen_ai.* attributes, nested under the active scorer step span. Every span it
// creates carries `scorestream.origin=judge`, so a pipeline that turns traces back into agent-run
// events can recognise the judge's "agent" spans as Scorestream's own and leave them out (they
// sit inside the scored run's trace, so trace id alone cannot tell them apart).
//
// Prompts and answers: the AI SDK records them unless a call says `recordInputs: false`, and not
// every model call in a scorer says so (the classifier's, a custom scorer's own generateText). The
// integration is therefore wrapped so that, unless the deployment opted in, every event reaches it
// with recording switched off: run contents never leave the service on a span by accident.
import { OpenTelemetry } from '@ai-sdk/otel';
import { registerTelemetry } from 'ai';
import type { Telemetry } from 'ai';

/** Span and resource attribute naming where telemetry came from. */
export const SCORESTREAM_ORIGIN_ATTRIBUTE = 'scorestream.origin';

/** Attributes added to every AI SDK span the service produces. */
export const JUDGE_SPAN_ATTRIBUTES = { [SCORESTREAM_ORIGIN_ATTRIBUTE]: 'judge' } as const;

export type JudgeTelemetryOptions = {
  /** Let calls that ask for it record prompts and answers (SCORESTREAM_TRACE_RECORD_INPUTS). Default false. */
  recordInputs?: boolean;
};

/** The event with recording off; same prototype, other fields untouched. */
function withoutContent(event: object): object {
  return Object.assign(Object.create(Object.getPrototypeOf(event) as object | null) as object, event, { recordInputs: false, recordOutputs: false });
}

/** Event callbacks (`onStart`, `experimental_onDecideEnd`, ...) see the event with recording off. */
function contentBlind(integration: Telemetry): Telemetry {
  return new Proxy(integration, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || !/^(experimental_)?on[A-Z]/.test(property)) return value;
      return (event: unknown, ...rest: unknown[]) =>
        (value as (...args: unknown[]) => unknown).call(target, typeof event === 'object' && event !== null ? withoutContent(event) : event, ...rest);
    },
  });
}

/**
 * Registers the integration globally (the AI SDK has one global list) and returns a function that
 * removes exactly this registration again, for shutdown and tests.
 */
export function registerJudgeTelemetry(options: JudgeTelemetryOptions = {}): () => void {
  const openTelemetry = new OpenTelemetry({ enrichSpan: () => ({ ...JUDGE_SPAN_ATTRIBUTES }) });
  const integration = options.recordInputs === true ? openTelemetry : contentBlind(openTelemetry);
  registerTelemetry(integration);
  return () => {
    const integrations = globalThis.AI_SDK_TELEMETRY_INTEGRATIONS;
    const index = integrations?.indexOf(integration) ?? -1;
    if (integrations !== undefined && index >= 0) integrations.splice(index, 1);
  };
}

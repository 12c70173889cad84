// Scorestream's own SCORESTREAM_TRACE_* variables, beside the OTEL_* ones the SDK reads: read by
// the commands that start the service (cli/commands/) and passed to it as options.
import { isTrue } from './telemetry-plan.ts';
import type { Environment } from './telemetry-plan.ts';

/** `SCORESTREAM_TRACE_RECORD_INPUTS=true`: prompts and answers on spans (off by default: user content). */
export function recordInputsFromEnvironment(environment: Environment): boolean {
  return isTrue(environment.SCORESTREAM_TRACE_RECORD_INPUTS) || environment.SCORESTREAM_TRACE_RECORD_INPUTS?.trim() === '1';
}

const isOn = (value: string | undefined) => isTrue(value) || value?.trim() === '1';

/**
 * What the service's spans hold, from the environment: prompts (SCORESTREAM_TRACE_RECORD_INPUTS),
 * a span per function step (SCORESTREAM_TRACE_FUNCTION_STEPS; off by default, see ScorerServices)
 * and the consumer's `process {topic}` span per message (SCORESTREAM_TRACE_PROCESS_SPANS; off by
 * default, see consumers/message-trace.ts). Both default off for what they cost per event
 * (docs/observability.md): the trace contract — score spans under the agent's span, judge spans
 * under them — needs neither.
 */
export function traceOptionsFromEnvironment(environment: Environment): { recordInputs: boolean; functionStepSpans: boolean; processSpans: boolean } {
  return { recordInputs: recordInputsFromEnvironment(environment), functionStepSpans: isOn(environment.SCORESTREAM_TRACE_FUNCTION_STEPS), processSpans: isOn(environment.SCORESTREAM_TRACE_PROCESS_SPANS) };
}

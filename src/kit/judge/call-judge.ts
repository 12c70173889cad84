// One judge execution of a prompt step (docs/scorers.md, the judge): the instructions as system
// prompt, the step prompt as the user turn, structured output through the AI SDK. A format error
// (unparseable or schema-violating answer) gets exactly one more attempt with the JSON Schema
// written into the prompt; transient provider errors are retried inside the SDK (`maxRetries`,
// honouring Retry-After).
import { tracingChannel } from 'node:diagnostics_channel';
import { AI_SDK_TELEMETRY_TRACING_CHANNEL, generateText, NoObjectGeneratedError } from 'ai';
import type { ModelMessage } from 'ai';
import type { PromptParts } from './prompt-layout.ts';
import type { JSONValue } from 'ai';
import { newCallTally, tallyModel } from './call-tally.ts';
import type { CallTally } from './call-tally.ts';
import { describeError, isFormatError } from './judge-errors.ts';
import type { JudgeAnswerFormat } from './answer-format.ts';
import type { ResolvedJudgeModel } from './model-resolution.ts';
import type {
  JsonPromptInjection,
  JudgeExecutionFailure,
  JudgeExecutionSuccess,
  JudgeModelSettings,
} from './types.ts';
import type { StepName } from '../contracts/scorer-steps.ts';

export const defaultJudgeTimeoutMs = 60_000;

export type JudgeCall = {
  step: StepName;
  model: ResolvedJudgeModel;
  instructions: string;
  prompt: string;
  /** A prompt laid out for caches (prompt-layout.ts): sent as two parts of the user turn, the first a cache breakpoint. They join to `prompt`. */
  parts?: PromptParts;
  format: JudgeAnswerFormat;
  jsonPromptInjection?: JsonPromptInjection;
  modelSettings?: JudgeModelSettings;
  abortSignal?: AbortSignal;
  /** The scorer run's deadline (the binding's timeoutMs), for the service's default per-request timeout. */
  scorerTimeoutMs?: number;
  /** Let AI SDK telemetry record prompts and answers. */
  recordInputs?: boolean;
};

type RecordFields<T> = Omit<T, 'prompt' | 'durationMs'>;

export type JudgeCallOutcome =
  | { status: 'success'; value: unknown; record: RecordFields<JudgeExecutionSuccess> }
  | { status: 'failed'; error: unknown; record: RecordFields<JudgeExecutionFailure> };

export async function callJudge(call: JudgeCall): Promise<JudgeCallOutcome> {
  const tally = newCallTally(call.scorerTimeoutMs);
  const model = tallyModel(call.model.model, tally, call.modelSettings?.timeout ?? defaultJudgeTimeoutMs);
  const injection = call.jsonPromptInjection ?? 'auto';
  const maxAttempts = call.format.kind === 'object' ? 2 : 1;
  let attemptCount = 0;
  let lastError: unknown;
  while (attemptCount < maxAttempts) {
    attemptCount += 1;
    const inject = attemptCount === 1 ? firstAttemptPlacement(injection) : retryPlacement(injection);
    try {
      const value = await generate(call, model, inject);
      return { status: 'success', value, record: successFields(call, tally, attemptCount, value) };
    } catch (error) {
      lastError = error;
      if (!isFormatError(error)) break;
    }
  }
  return { status: 'failed', error: lastError, record: failureFields(call, tally, attemptCount, lastError) };
}

type Placement = 'none' | 'inline' | 'system';

function firstAttemptPlacement(injection: JsonPromptInjection): Placement {
  if (injection === 'system') return 'system';
  if (injection === true || injection === 'inline') return 'inline';
  return 'none';
}

/** The retry always writes the schema into the prompt: where configured, else into the user turn. */
function retryPlacement(injection: JsonPromptInjection): Placement {
  return injection === 'system' ? 'system' : 'inline';
}

async function generate(call: JudgeCall, model: ReturnType<typeof tallyModel>, placement: Placement): Promise<unknown> {
  const settings = call.modelSettings ?? {};
  let instructions = call.instructions;
  let prompt = call.prompt;
  // A blank part is no cache breakpoint (and a provider such as Anthropic refuses an empty text block): plain text then.
  let parts = call.parts !== undefined && call.parts.prefix.trim() !== '' && call.parts.rest.trim() !== '' ? call.parts : undefined;
  if (placement !== 'none' && call.format.kind === 'object') {
    const block = schemaBlock(await call.format.schemaText());
    if (placement === 'system') instructions += block;
    else if (parts !== undefined) parts = { prefix: parts.prefix + block, rest: parts.rest };
    else prompt += block;
  }
  const common = {
    model,
    instructions,
    ...(parts === undefined ? { prompt } : { messages: [laidOutUserTurn(parts)] }),
    maxRetries: settings.maxRetries,
    abortSignal: call.abortSignal,
    headers: settings.headers,
    providerOptions: settings.providerOptions,
    temperature: settings.temperature,
    topP: settings.topP,
    topK: settings.topK,
    maxOutputTokens: settings.maxOutputTokens,
    presencePenalty: settings.presencePenalty,
    frequencyPenalty: settings.frequencyPenalty,
    stopSequences: settings.stopSequences,
    seed: settings.seed,
    telemetry: judgeTelemetry(call),
  };
  if (call.format.kind === 'text') return (await generateText(common)).text;
  return (await generateText({ ...common, output: call.format.output })).output;
}

/**
 * A laid-out prompt's user turn: the fixed part, marked as an Anthropic cache breakpoint (which
 * caches the system prompt and this part: everything before the mark), then the rest. Provider
 * options are keyed by provider, so the mark means nothing to the others, which cache prefixes by
 * themselves (OpenAI) or not at all.
 */
function laidOutUserTurn(parts: PromptParts): ModelMessage {
  return {
    role: 'user',
    content: [
      { type: 'text', text: parts.prefix, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
      { type: 'text', text: parts.rest },
    ],
  };
}

/**
 * AI SDK telemetry for the call, under the step span. Switched off outright when nobody listens
 * (no integration registered, no tracing-channel subscriber): the SDK's event filtering is then
 * pure cost (measured: docs/benchmarks.md).
 */
function judgeTelemetry(call: JudgeCall) {
  if (!aiTelemetryListening()) return { isEnabled: false };
  return {
    functionId: `scorestream.judge.${call.step}`,
    recordInputs: call.recordInputs === true,
    recordOutputs: call.recordInputs === true,
  };
}

const aiTracingChannel = tracingChannel(AI_SDK_TELEMETRY_TRACING_CHANNEL);

function aiTelemetryListening(): boolean {
  return (globalThis.AI_SDK_TELEMETRY_INTEGRATIONS?.length ?? 0) > 0 || aiTracingChannel.hasSubscribers;
}

function schemaBlock(schemaText: string): string {
  return (
    `\n\nReturn your response as JSON matching this schema:\n${schemaText}\n` +
    'Return only valid JSON, with no other text.'
  );
}

function identity(call: JudgeCall, tally: CallTally) {
  const reportedModelId = tally.response?.modelId;
  return {
    judgeModelId: reportedModelId ?? call.model.modelId,
    ...(call.model.provider === undefined ? {} : { judgeProvider: call.model.provider }),
  };
}

function evidence(tally: CallTally) {
  return {
    ...(tally.queuedMs === undefined ? {} : { queuedMs: Math.round(tally.queuedMs) }),
    ...(tally.finishReason === undefined ? {} : { finishReason: tally.finishReason }),
    ...(tally.warnings.length === 0 ? {} : { warnings: tally.warnings }),
    ...(tally.response === undefined ? {} : { response: tally.response }),
  };
}

function successFields(
  call: JudgeCall,
  tally: CallTally,
  attemptCount: number,
  value: unknown,
): RecordFields<JudgeExecutionSuccess> {
  return {
    status: 'success',
    ...identity(call, tally),
    attemptCount,
    modelCallCount: tally.responses,
    output: value as JSONValue,
    usage: tally.usage ?? {},
    ...evidence(tally),
  };
}

function failureFields(
  call: JudgeCall,
  tally: CallTally,
  attemptCount: number,
  error: unknown,
): RecordFields<JudgeExecutionFailure> {
  const rawOutput =
    NoObjectGeneratedError.isInstance(error) && typeof error.text === 'string' ? error.text : tally.lastText;
  const finishReason = tally.responses === 0 ? 'error' : tally.finishReason;
  return {
    status: 'failed',
    ...identity(call, tally),
    attemptCount,
    modelCallCount: tally.responses,
    ...(rawOutput === undefined ? {} : { rawOutput }),
    ...(tally.usage === undefined ? {} : { usage: tally.usage }),
    ...evidence(tally),
    ...(finishReason === undefined ? {} : { finishReason }),
    error: describeError(error),
  };
}

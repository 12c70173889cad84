// Types of the LLM judge: how a scorer or a prompt step configures its judge, how models are
// resolved from string ids, and the evidence each judge execution leaves in `result.judge`.
import type { FlexibleSchema, JSONValue, LanguageModel } from 'ai';
import type { JudgeExecution } from '../contracts/judge-execution.ts';

/** A model given directly, or a string id resolved through a {@link JudgeModelResolver}. */
export type JudgeModel = LanguageModel;

/**
 * Anything that turns a string model id into a model, e.g. the AI SDK's `createProviderRegistry(...)`.
 * The one resolver type: a scorer run's `models`, the config's `judge.models` and
 * setDefaultJudgeModels all take it.
 */
export type JudgeModelResolver = {
  languageModel(id: string): LanguageModel;
};

/** Per-call model settings. A step's `modelSettings` replaces the scorer's as a whole object. */
export type JudgeModelSettings = {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  /** Retries of transient provider errors (429, 5xx, timeouts) per judge call. Default 2 (the AI SDK's). */
  maxRetries?: number;
  /** Milliseconds each model request may take before it is aborted (and retried as transient). Default 60 000. */
  timeout?: number;
  /** Extra HTTP headers sent with each request. */
  headers?: Record<string, string | undefined>;
  /** Provider-specific options passed through to the provider. */
  providerOptions?: Record<string, Record<string, JSONValue>>;
};

/**
 * Where the JSON schema of a structured step is written into the prompt:
 * `false`/`'auto'`: only the provider's native response format (the schema is written into the
 * prompt on the format retry), `true`/`'inline'`: appended to the user turn, `'system'`: appended to
 * the system prompt.
 */
export type JsonPromptInjection = boolean | 'system' | 'inline' | 'auto';

export type JudgeConfig = {
  model: JudgeModel;
  /** The judge's system prompt. */
  instructions: string;
  jsonPromptInjection?: JsonPromptInjection;
  modelSettings?: JudgeModelSettings;
};

/** A prompt step's own judge: every field given overrides the scorer's, field by field. */
export type StepJudgeConfig = Partial<JudgeConfig>;

// The judge evidence types are the wire contract's (src/kit/contracts), so records always fit the score record.
export type { JudgeExecution, JudgeResults, JudgeUsage } from '../contracts/judge-execution.ts';

export type JudgeExecutionSuccess = Extract<JudgeExecution, { status: 'success' }>;
export type JudgeExecutionFailure = Extract<JudgeExecution, { status: 'failed' }>;
export type JudgeExecutionBase = Omit<JudgeExecutionSuccess, 'status' | 'output' | 'usage' | 'cost'>;
export type JudgeStepRecord = { executions: JudgeExecution[] };
export type JudgeResponseIdentity = NonNullable<JudgeExecutionBase['response']>;

/** A schema a structured prompt step may use: zod, Standard Schema, AI SDK `jsonSchema()`, or plain JSON Schema. */
export type StepOutputSchema<T = unknown> = FlexibleSchema<T> | Record<string, unknown>;

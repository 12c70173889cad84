// Types of the scorer pipeline (docs/scorers.md): the run a scorer accepts, the context each
// step sees, the function and prompt-object step definitions, the builder, and the run result.
// Step results accumulate in the type as steps are chained, so later steps see earlier results typed.
import type { FlexibleSchema, JSONSchema7 } from 'ai';
import type { Span, Tracer } from '@opentelemetry/api';
import type {
  JudgeConfig,
  JudgeResults,
  StepJudgeConfig,
} from '../judge/types.ts';
import type { JudgePrompt } from '../judge/prompt-layout.ts';
import type { RunUsage, ToolDefinition } from '../contracts/agent-run-event.ts';
import type { NotScorableOutcome } from '../contracts/score-record.ts';
import type { StepName } from '../contracts/scorer-steps.ts';
import type { ScorerServices } from '../scorer-services.ts';
import type { NotScorable } from './not-scorable.ts';
import type {
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
  Trajectory,
  TrajectoryExpectation,
} from './agent-types.ts';

// Untyped scorers accept any run, as Mastra's do; typed scorers narrow this through `type`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyValue = any;

/** Mastra's RequestContext is Map-like; plain objects are accepted too. */
export interface RequestContextLike {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  entries(): Iterable<[string, unknown]>;
}

/** The known fields of a run. */
export type ScorerRunFields<TInput = AnyValue, TOutput = AnyValue> = {
  runId?: string;
  input?: TInput;
  output: TOutput;
  groundTruth?: unknown;
  expectedTrajectory?: TrajectoryExpectation;
  /** The tools the agent was offered (the run event's `tools`); absent when the producer did not say. */
  tools?: ToolDefinition[];
  /** Token counts the producer reported for the run (the run event's `usage`); absent when not reported. */
  usage?: RunUsage;
  /** Wall-clock length of the run in milliseconds (the run event's `durationMs`); absent when not reported. */
  durationMs?: number;
  requestContext?: Record<string, unknown> | RequestContextLike;
  requestContextKeys?: string[];
  scoreSource?: 'live' | 'trace' | 'experiment';
  targetScope?: 'span' | 'trajectory';
  targetEntityType?: string;
  targetTraceId?: string;
  targetSpanId?: string;
  targetCorrelationContext?: Record<string, unknown>;
  targetMetadata?: Record<string, unknown>;
  /** Stripped before anything else happens. */
  _internal?: { emitObservabilityScore?: boolean };
};

/** What `scorer.run()` accepts. Extra keys are carried through into the steps' `run` and the result. */
export type ScorerRun<TInput = AnyValue, TOutput = AnyValue> = ScorerRunFields<TInput, TOutput> & {
  [key: string]: unknown;
};

/** The run as steps see it: after `prepareRun`, with `runId` filled in. */
export type PreparedScorerRun<TInput = AnyValue, TOutput = AnyValue> = Omit<ScorerRunFields<TInput, TOutput>, '_internal' | 'runId'> & {
  runId: string;
  /** Trace id of the span active when `run()` was called, when there is a valid one. */
  scoreTraceId?: string;
  [key: string]: unknown;
};

/** Results of the steps completed so far, keyed `<step>StepResult`. */
export type StepResults = {
  preprocessStepResult?: unknown;
  analyzeStepResult?: unknown;
  generateScoreStepResult?: number;
  generateReasonStepResult?: unknown;
};

export type StepContext<TInput = AnyValue, TOutput = AnyValue, TResults = StepResults> = {
  run: PreparedScorerRun<TInput, TOutput>;
  results: TResults;
  /** The registry the scorer is registered with; Scorestream has none, so it is always undefined. */
  mastra?: unknown;
  /**
   * What the run brought for its steps (judge models, caps, classifiers; src/kit/scorer-services.ts).
   * run() always sets it; optional so that step functions can be called directly, e.g. in tests.
   */
  services?: ScorerServices;
  /** The run's abort signal (timeout, shutdown): long work in a step should stop when it aborts. */
  abortSignal?: AbortSignal;
  tracingContext?: { currentSpan?: Span };
};

export type GenerateReasonContext<TInput = AnyValue, TOutput = AnyValue, TResults = StepResults> = StepContext<
  TInput,
  TOutput,
  TResults
> & { score: number };

type MaybePromise<T> = T | Promise<T>;
/** A prompt step's prompt: text, or a prompt laid out for the providers' caches (layoutPrompt, src/kit/judge/prompt-layout.ts). */
type PromptFactory<TContext> = (context: TContext) => MaybePromise<JudgePrompt>;

/** A schema for a structured prompt step: zod, Standard Schema, AI SDK `jsonSchema()`, or a plain JSON Schema. */
export type PromptStepSchema<T = unknown> = FlexibleSchema<T> | JSONSchema7;

/** preprocess / analyze as a prompt object: the judge answers with an object matching `outputSchema`. */
export type StructuredPromptStep<TContext = StepContext, TResult = unknown> = {
  description: string;
  outputSchema: PromptStepSchema<TResult>;
  createPrompt: PromptFactory<TContext>;
  judge?: StepJudgeConfig;
};

/** generateScore as a prompt object: the judge answers `{ score: number }`. */
export type ScorePromptStep<TContext = StepContext> = {
  description: string;
  createPrompt: PromptFactory<TContext>;
  judge?: StepJudgeConfig;
  /** Optional: turns the judge's `{ score }` into the score. Without it the score is the judge's number. */
  calculateScore?: (context: TContext & { analyzeStepResult: { score: number } }) => MaybePromise<number>;
};

/** generateReason as a prompt object: the judge answers in free text. An `outputSchema` is ignored. */
export type ReasonPromptStep<TContext = GenerateReasonContext> = {
  description: string;
  createPrompt: PromptFactory<TContext>;
  judge?: StepJudgeConfig;
  outputSchema?: unknown;
};

export type FunctionStep<TContext, TReturn> = ((context: TContext) => TReturn) & { description?: string };

/** Any step definition, without typing: what the runtime handles. */
export type StepDefinition =
  | FunctionStep<never, unknown>
  | StructuredPromptStep<never, unknown>
  | ScorePromptStep<never>
  | ReasonPromptStep<never>;

export type StepInfo = { name: StepName; type: 'function' | 'prompt'; description?: string };

/** Typing only; nothing is validated at run time (docs/scorers.md). */
export type ScorerType = 'agent' | 'trajectory' | { input: unknown; output: unknown };

export type ScorerConfig<TInput = AnyValue, TOutput = AnyValue> = {
  id: string;
  name?: string;
  description: string;
  type?: ScorerType;
  /** Default judge for prompt-object steps. */
  judge?: JudgeConfig;
  /** Reshapes the run before any step; its exceptions propagate unwrapped. */
  prepareRun?: (run: ScorerRun<TInput, TOutput>) => MaybePromise<ScorerRun<TInput, TOutput>>;
};

/**
 * What `scorer.run(input, options)` accepts: the run's services (models, prepareModel,
 * limitDecisionCall, classifiers, recordInputs; see ScorerServices) at the top level, as always,
 * and the options of this one run.
 */
export type ScorerRunOptions = ScorerServices & {
  /** Aborts the running step (including an in-flight judge call); the run fails at that step. */
  abortSignal?: AbortSignal;
  /** Called as each step starts, e.g. so a caller that abandons a hung run can say which step hung. */
  onStepStart?: (step: StepName) => void;
  /** Defaults to the global `@opentelemetry/api` tracer. */
  tracer?: Tracer;
  /** Clock for `durationMs` (ms). Defaults to `performance.now`. */
  now?: () => number;
  /** runId generator when the run has none. Defaults to `crypto.randomUUID`. */
  generateId?: () => string;
};

type ResultKey<TResults, TKey extends string> = TResults extends { [K in TKey]: infer V } ? V : undefined;

type StepDerivedFields<TResults> = {
  reason: ResultKey<TResults, 'generateReasonStepResult'>;
  preprocessStepResult: ResultKey<TResults, 'preprocessStepResult'>;
  analyzeStepResult: ResultKey<TResults, 'analyzeStepResult'>;
  preprocessPrompt: string | undefined;
  analyzePrompt: string | undefined;
  generateScorePrompt: string | undefined;
  generateReasonPrompt: string | undefined;
  judge?: JudgeResults;
};

export type ScoredRunResult<TInput = AnyValue, TOutput = AnyValue, TResults = StepResults> = PreparedScorerRun<
  TInput,
  TOutput
> &
  StepDerivedFields<TResults> & { score: number; notScorable?: undefined };

/** A not-scorable run has no `score` key at all. */
export type NotScorableRunResult<TInput = AnyValue, TOutput = AnyValue, TResults = StepResults> = PreparedScorerRun<
  TInput,
  TOutput
> &
  StepDerivedFields<TResults> & { score?: undefined; notScorable: NotScorableOutcome };

export type ScorerRunResult<TInput = AnyValue, TOutput = AnyValue, TResults = StepResults> =
  | ScoredRunResult<TInput, TOutput, TResults>
  | NotScorableRunResult<TInput, TOutput, TResults>;

/** Any scorer's run result, as a caller that runs scorers of every kind (the engine) reads it: step results unknown. */
export type AnyScorerRunResult = ScorerRunResult<AnyValue, AnyValue, { preprocessStepResult: unknown; analyzeStepResult: unknown; generateReasonStepResult: unknown }>;

/** The partial result carried by a ScorerRunError: only defined fields; `score` only if generateScore completed. */
export type ScorerRunResultSnapshot = PreparedScorerRun & {
  score?: number;
  reason?: unknown;
  preprocessStepResult?: unknown;
  analyzeStepResult?: unknown;
  preprocessPrompt?: string;
  analyzePrompt?: string;
  generateScorePrompt?: string;
  generateReasonPrompt?: string;
  judge?: JudgeResults;
};

type Awaited2<T> = Exclude<Awaited<T>, NotScorable>;
type Ctx<TInput, TOutput, TResults> = StepContext<TInput, TOutput, TResults>;

/** A scorer: an immutable builder (each step method returns a new scorer) that can also run. */
export interface Scorer<TInput = AnyValue, TOutput = AnyValue, TResults = object> {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly type: ScorerType | undefined;
  readonly judge: JudgeConfig | undefined;
  readonly prepareRun: ScorerConfig<TInput, TOutput>['prepareRun'];

  preprocess<TReturn>(
    definition: FunctionStep<Ctx<TInput, TOutput, TResults>, TReturn>,
  ): Scorer<TInput, TOutput, TResults & { preprocessStepResult: Awaited2<TReturn> }>;
  preprocess<TResult>(
    definition: StructuredPromptStep<Ctx<TInput, TOutput, TResults>, TResult>,
  ): Scorer<TInput, TOutput, TResults & { preprocessStepResult: TResult }>;

  analyze<TReturn>(
    definition: FunctionStep<Ctx<TInput, TOutput, TResults>, TReturn>,
  ): Scorer<TInput, TOutput, TResults & { analyzeStepResult: Awaited2<TReturn> }>;
  analyze<TResult>(
    definition: StructuredPromptStep<Ctx<TInput, TOutput, TResults>, TResult>,
  ): Scorer<TInput, TOutput, TResults & { analyzeStepResult: TResult }>;

  generateScore(
    definition:
      | FunctionStep<Ctx<TInput, TOutput, TResults>, MaybePromise<number | NotScorable>>
      | ScorePromptStep<Ctx<TInput, TOutput, TResults>>,
  ): Scorer<TInput, TOutput, TResults & { generateScoreStepResult: number }>;

  generateReason<TReturn>(
    definition: FunctionStep<GenerateReasonContext<TInput, TOutput, TResults>, TReturn>,
  ): Scorer<TInput, TOutput, TResults & { generateReasonStepResult: Awaited2<TReturn> }>;
  generateReason(
    definition: ReasonPromptStep<GenerateReasonContext<TInput, TOutput, TResults>>,
  ): Scorer<TInput, TOutput, TResults & { generateReasonStepResult: string }>;

  /** The configured steps in chain order. */
  getSteps(): StepInfo[];

  run(input: ScorerRun<TInput, TOutput>, options?: ScorerRunOptions): Promise<ScorerRunResult<TInput, TOutput, TResults>>;
}

export type AgentScorer<TResults = object> = Scorer<ScorerRunInputForAgent, ScorerRunOutputForAgent, TResults>;
export type TrajectoryScorer<TResults = object> = Scorer<ScorerRunInputForAgent, Trajectory, TResults>;

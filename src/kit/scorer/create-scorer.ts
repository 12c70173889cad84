// `createScorer(config)` (docs/scorers.md): an immutable builder. Each step method validates its
// definition, checks the chain order, and returns a new scorer; the receiver is never changed, so
// one partial builder can fork into several scorers.
import type { StepName } from '../contracts/scorer-steps.ts';
import type { JudgeConfig } from '../judge/types.ts';
import { runNowKey, runScorer, runScorerNow } from './run-scorer.ts';
import type { ScorerDefinition } from './run-scorer.ts';
import { missingIdError } from './scorer-error.ts';
import { assertChainOrder, compileStep, stepInfo } from './step-definition.ts';
import type { StepEntry } from './step-definition.ts';
import type { ScorerRunInputForAgent, ScorerRunOutputForAgent, Trajectory } from './agent-types.ts';
import type {
  AgentScorer,
  AnyValue,
  Scorer,
  ScorerConfig,
  ScorerRun,
  ScorerRunOptions,
  ScorerRunResult,
  ScorerType,
  StepInfo,
  TrajectoryScorer,
} from './types.ts';

class ScorerImpl {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly type: ScorerType | undefined;
  readonly judge: JudgeConfig | undefined;
  readonly prepareRun: ScorerConfig['prepareRun'];
  readonly #steps: readonly StepEntry[];
  readonly #definition: ScorerDefinition;

  constructor(config: ScorerConfig, steps: readonly StepEntry[]) {
    this.id = config.id;
    this.name = config.name || config.id;
    this.description = config.description;
    this.type = config.type;
    this.judge = config.judge;
    this.prepareRun = config.prepareRun;
    this.#steps = steps;
    this.#definition = {
      id: config.id,
      judge: config.judge,
      prepareRun: config.prepareRun,
      steps,
      stepNames: steps.map((step) => step.name),
      hasGenerateScore: steps.some((step) => step.name === 'generateScore'),
    };
  }

  preprocess(definition: unknown): ScorerImpl {
    return this.#with('preprocess', definition);
  }

  analyze(definition: unknown): ScorerImpl {
    return this.#with('analyze', definition);
  }

  generateScore(definition: unknown): ScorerImpl {
    return this.#with('generateScore', definition);
  }

  generateReason(definition: unknown): ScorerImpl {
    return this.#with('generateReason', definition);
  }

  getSteps(): StepInfo[] {
    return this.#steps.map(stepInfo);
  }

  run(input: ScorerRun, options?: ScorerRunOptions): Promise<ScorerRunResult> {
    return runScorer(this.#definition, input, options);
  }

  /** run(), synchronous while the steps are (run-scorer.ts, runScorerNow): the service's way in. */
  [runNowKey](input: ScorerRun, options?: ScorerRunOptions): ScorerRunResult | Promise<ScorerRunResult> {
    return runScorerNow(this.#definition, input, options);
  }

  #with(name: StepName, definition: unknown): ScorerImpl {
    assertChainOrder(this.id, this.#steps, name);
    const entry = compileStep(this.id, name, definition);
    const config: ScorerConfig = {
      id: this.id,
      name: this.name,
      description: this.description,
      type: this.type,
      judge: this.judge,
      prepareRun: this.prepareRun,
    };
    return new ScorerImpl(config, [...this.#steps, entry]);
  }
}

export function createScorer(
  config: ScorerConfig<ScorerRunInputForAgent, ScorerRunOutputForAgent> & { type: 'agent' },
): AgentScorer;
export function createScorer(
  config: ScorerConfig<ScorerRunInputForAgent, Trajectory> & { type: 'trajectory' },
): TrajectoryScorer;
export function createScorer<TInput, TOutput>(
  config: ScorerConfig<TInput, TOutput> & { type: { input: SchemaOf<TInput>; output: SchemaOf<TOutput> } },
): Scorer<TInput, TOutput>;
export function createScorer<TInput = AnyValue, TOutput = AnyValue>(config: ScorerConfig<TInput, TOutput>): Scorer<TInput, TOutput>;
export function createScorer(config: ScorerConfig): Scorer {
  if (!config?.id) throw missingIdError();
  return new ScorerImpl(config, []) as unknown as Scorer;
}

/** Anything carrying its value type the way zod and Standard Schema do. */
type SchemaOf<T> = { '~standard': { types?: { output: T } } } | { _output: T };

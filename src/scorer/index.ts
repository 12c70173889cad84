// Barrel of src/scorer, for the rest of the repository: the Mastra-compatible scorer pipeline.
export { createScorer } from './create-scorer.ts';
export { notScorable, isNotScorable } from './not-scorable.ts';
export type { NotScorable } from './not-scorable.ts';
export { ScorerRunError } from './scorer-run-error.ts';
export { ScorerError } from './scorer-error.ts';
export { isPromptObject } from './step-definition.ts';
export type {
  AgentScorer,
  AnyValue,
  FunctionStep,
  GenerateReasonContext,
  NotScorableRunResult,
  PreparedScorerRun,
  PromptStepSchema,
  ReasonPromptStep,
  RequestContextLike,
  ScorePromptStep,
  ScoredRunResult,
  Scorer,
  ScorerConfig,
  ScorerRun,
  ScorerRunOptions,
  ScorerRunResult,
  ScorerRunResultSnapshot,
  ScorerType,
  StepContext,
  StepDefinition,
  StepInfo,
  StepResults,
  StructuredPromptStep,
  TrajectoryScorer,
} from './types.ts';
export type { NotScorableOutcome } from '../contracts/score-record.ts';
export type { StepName } from '../contracts/scorer-steps.ts';
export type {
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
  Trajectory,
  TrajectoryExpectation,
  TrajectoryStep,
} from './agent-types.ts';
export type {
  JudgeConfig,
  JudgeExecution,
  JudgeExecutionFailure,
  JudgeExecutionSuccess,
  JudgeResults,
  JudgeUsage,
  StepJudgeConfig,
} from '../judge/types.ts';

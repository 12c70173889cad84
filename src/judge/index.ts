// Barrel of src/judge, for the rest of the repository: model resolution for LLM judges, the judge
// call, and judge evidence types.
export {
  getDefaultJudgeModels,
  resolveJudgeModel,
  setDefaultJudgeModels,
} from './model-resolution.ts';
export type { PrepareJudgeModel, ResolvedJudgeModel } from './model-resolution.ts';
export { createOpenAICompatibleJudgeProvider, judgeModelsFromEnv } from './openai-compatible.ts';
export type { JudgeModelsFromEnv, OpenAICompatibleJudgeOptions } from './openai-compatible.ts';
export { callJudge, defaultJudgeTimeoutMs } from './call-judge.ts';
export type { JudgeCall, JudgeCallOutcome } from './call-judge.ts';
export { objectAnswer, scoreAnswer, textAnswer } from './answer-format.ts';
export type { JudgeAnswerFormat } from './answer-format.ts';
export { JudgeTimeoutError, isFormatError, isTransientJudgeError } from './judge-errors.ts';
export { addJudgeUsage, normalizeJudgeUsage } from './usage.ts';
export type {
  JsonPromptInjection,
  JudgeConfig,
  JudgeExecution,
  JudgeExecutionBase,
  JudgeExecutionFailure,
  JudgeExecutionSuccess,
  JudgeModel,
  JudgeModelResolver,
  JudgeModelSettings,
  JudgeResponseIdentity,
  JudgeResults,
  JudgeStepRecord,
  JudgeUsage,
  StepJudgeConfig,
} from './types.ts';

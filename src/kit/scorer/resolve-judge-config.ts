// A prompt step's effective judge (docs/scorers.md, the judge): the step's fields override the
// scorer's one by one; `modelSettings` is replaced as a whole. A judge without model or
// instructions fails the step.
import { ScorerError } from './scorer-error.ts';
import type { StepName } from '../contracts/scorer-steps.ts';
import type { JudgeConfig, StepJudgeConfig } from '../judge/types.ts';

export function resolveJudgeConfig(
  step: StepName,
  scorerJudge: JudgeConfig | undefined,
  stepJudge: StepJudgeConfig | undefined,
): JudgeConfig {
  const model = stepJudge?.model ?? scorerJudge?.model;
  const instructions = stepJudge?.instructions ?? scorerJudge?.instructions;
  if (!model || !instructions) {
    throw new ScorerError(
      `Step "${step}" requires a model and instructions. Give the scorer a judge ({ model, instructions }) ` +
        `or the ${step} prompt object its own judge.`,
      { id: 'MASTR_SCORER_FAILED_TO_RUN_MISSING_MODEL_OR_INSTRUCTIONS', details: { step } },
    );
  }
  const jsonPromptInjection = stepJudge?.jsonPromptInjection ?? scorerJudge?.jsonPromptInjection;
  const modelSettings = stepJudge?.modelSettings ?? scorerJudge?.modelSettings;
  return {
    model,
    instructions,
    ...(jsonPromptInjection === undefined ? {} : { jsonPromptInjection }),
    ...(modelSettings === undefined ? {} : { modelSettings }),
  };
}

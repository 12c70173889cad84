// What every built-in LLM scorer factory takes: the judge model, the scorer's own options,
// and optionally settings passed to the judge as they are.
import type { JudgeConfig, JudgeModel, JudgeModelSettings } from '../../judge/types.ts';

export type LlmScorerConfig<TOptions> = {
  /** An AI SDK language model, or a string id resolved through the run's model resolver. */
  model: JudgeModel;
  options?: TOptions;
  /** Judge call settings, e.g. `{ temperature: 0 }`; defaults are the AI SDK's. */
  modelSettings?: JudgeModelSettings;
};

/** The scorer-level judge config for a factory's model, instructions and settings. */
export function judgeConfig(config: LlmScorerConfig<unknown>, instructions: string): JudgeConfig {
  return {
    model: config.model,
    instructions,
    ...(config.modelSettings === undefined ? {} : { modelSettings: config.modelSettings }),
  };
}

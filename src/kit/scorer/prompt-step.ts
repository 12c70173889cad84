// Executes a prompt-object step: resolve the judge (step over scorer, field by field), build the
// prompt, call the judge, and record the execution in the run's judge evidence, also on failure.
// A failure before the judge is called (createPrompt, configuration) leaves no judge record.
import { callJudge } from '../judge/call-judge.ts';
import { describeError } from '../judge/judge-errors.ts';
import { resolveJudgeModel } from '../judge/model-resolution.ts';
import { isLaidOutPrompt, promptParts, promptText } from '../judge/prompt-layout.ts';
import type { JudgeConfig, JudgeExecution } from '../judge/types.ts';
import { resolveJudgeConfig } from './resolve-judge-config.ts';
import { addJudgeExecution } from './run-state.ts';
import type { RunState } from './run-state.ts';
import type { StepSpan } from './step-span.ts';
import type { PromptStepEntry } from './step-definition.ts';
import type { ScorerServices } from '../scorer-services.ts';

/** What every prompt step of one run shares: made once per run, at its first prompt step. */
export type PromptStepEnvironment = {
  scorerJudge: JudgeConfig | undefined;
  services: ScorerServices;
  abortSignal: AbortSignal | undefined;
  now: () => number;
};

export async function runPromptStep(
  step: PromptStepEntry,
  stepContext: Record<string, unknown>,
  state: RunState,
  environment: PromptStepEnvironment,
  span: StepSpan,
): Promise<unknown> {
  const startedAt = environment.now();
  const judge = resolveJudgeConfig(step.name, environment.scorerJudge, step.judge);
  const model = resolveJudgeModel(judge.model, environment.services.models, environment.services.prepareModel);
  const created: unknown = await step.createPrompt(stepContext as never);
  if (typeof created !== 'string' && !isLaidOutPrompt(created)) {
    throw new TypeError(`The ${step.name} prompt object's createPrompt must return a string or layoutPrompt({ fixed, material }); it returned ${created === null ? 'null' : typeof created}.`);
  }
  // Records, spans and budgets see the text whole; the call sends a laid-out prompt's parts apart.
  const prompt = promptText(created);
  const recordInputs = environment.services.recordInputs === true;
  if (span !== undefined) {
    span.setAttribute('scorestream.judge.model_id', model.modelId);
    if (model.provider !== undefined) span.setAttribute('scorestream.judge.provider', model.provider);
    if (recordInputs) span.setAttribute('scorestream.judge.prompt', prompt);
  }
  // Budgets may refuse the call (it throws); the permit prices and settles it afterwards.
  const permit = environment.services.judgeCalls?.before({
    modelId: model.modelId,
    provider: model.provider,
    instructions: judge.instructions,
    prompt,
    maxOutputTokens: judge.modelSettings?.maxOutputTokens,
  });
  const outcome = await callJudge({
    step: step.name,
    model,
    instructions: judge.instructions,
    prompt,
    ...(typeof created === 'string' ? {} : { parts: promptParts(created) }),
    format: step.format,
    jsonPromptInjection: judge.jsonPromptInjection,
    modelSettings: judge.modelSettings,
    abortSignal: environment.abortSignal,
    ...(environment.services.scorerTimeoutMs === undefined ? {} : { scorerTimeoutMs: environment.services.scorerTimeoutMs }),
    recordInputs,
  });
  const cost = permit?.after(outcome.record);
  if (cost === 'unpriced') outcome.record.unpriced = true;
  else if (cost !== undefined) outcome.record.cost = cost;
  const durationMs = () => Math.round(environment.now() - startedAt);
  if (outcome.status === 'failed') {
    record(state, step, span, { prompt, durationMs: durationMs(), ...outcome.record });
    throw outcome.error;
  }
  if (step.name !== 'generateScore') {
    state.prompts[step.name] = prompt;
    record(state, step, span, { prompt, durationMs: durationMs(), ...outcome.record });
    return outcome.value;
  }
  const judged = outcome.value as { score: number };
  // The record keeps the judge's own number, whatever calculateScore makes of it.
  const judgedRecord = { prompt, ...outcome.record, output: judged.score };
  let score: unknown = judged.score;
  if (step.calculateScore !== undefined) {
    try {
      score = await step.calculateScore({ ...stepContext, analyzeStepResult: judged } as never);
    } catch (error) {
      record(state, step, span, {
        ...judgedRecord,
        status: 'failed',
        durationMs: durationMs(),
        error: describeError(error),
      });
      throw error;
    }
  }
  state.prompts[step.name] = prompt;
  record(state, step, span, { ...judgedRecord, durationMs: durationMs() });
  return score;
}

function record(state: RunState, step: PromptStepEntry, span: StepSpan, execution: JudgeExecution): void {
  addJudgeExecution(state, step.name, execution);
  if (span === undefined) return;
  span.setAttribute('scorestream.judge.model_id', execution.judgeModelId);
  span.setAttribute('scorestream.judge.attempts', execution.attemptCount);
  const usage = execution.usage;
  if (usage?.inputTokens !== undefined) span.setAttribute('scorestream.judge.input_tokens', usage.inputTokens);
  if (usage?.outputTokens !== undefined) span.setAttribute('scorestream.judge.output_tokens', usage.outputTokens);
  if (usage?.totalTokens !== undefined) span.setAttribute('scorestream.judge.total_tokens', usage.totalTokens);
}

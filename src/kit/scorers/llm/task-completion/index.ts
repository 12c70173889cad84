// Task completion (LLM judge): did the agent accomplish what the user asked? The judge reads the
// question, the agent's tool calls in order (arguments, result or error) and its final answer,
// states the task and gives one verdict: completed / partially_completed / not_completed. The score
// is 1, partialWeight or 0 for that verdict, times `scale`.
import { z } from 'zod';
import { createScorer } from '../../../scorer/create-scorer.ts';
import { numberOption, scaleOption } from '../../shared/invalid-options.ts';
import { judgeConfig } from '../../shared/llm-scorer-config.ts';
import type { LlmScorerConfig } from '../../shared/llm-scorer-config.ts';
import { getAnswerText, getQuestionText, partAbsent } from '../../shared/run-text.ts';
import { cutForJudge, judgedToolCalls, maxRunTextChars } from '../../shared/tool-calls-text.ts';
import { scaleScore, weightedShare } from '../../shared/verdict-score.ts';
import { createTaskCompletionAnalyzePrompt, createTaskCompletionReasonPrompt, taskCompletionInstructions } from './prompts.ts';

export const taskCompletionScorerId = 'task-completion';

export type TaskCompletionOptions = {
  /** How much a partially completed task counts, 0..1 (default 0.5). */
  partialWeight?: number;
  /** The score of a completed task (default 1). */
  scale?: number;
};

export const taskCompletionVerdicts = ['completed', 'partially_completed', 'not_completed'] as const;
export type TaskCompletionVerdict = (typeof taskCompletionVerdicts)[number];

export const taskCompletionAnalyzeSchema = z.object({
  task: z.string(),
  verdict: z.enum(taskCompletionVerdicts),
  unmetRequirements: z.array(z.string()),
  evidence: z.string(),
});

/** The score for the verdict: 1 completed, partialWeight partially, 0 not, times `scale`. */
export function computeTaskCompletionScore(verdict: TaskCompletionVerdict, { partialWeight, scale }: { partialWeight: number; scale: number }): number {
  return scaleScore(weightedShare([verdict], { completed: 1, partially_completed: partialWeight }) ?? 0, scale);
}

export function createTaskCompletionScorer(config: LlmScorerConfig<TaskCompletionOptions>) {
  const options = config.options ?? {};
  const scale = scaleOption(taskCompletionScorerId, options.scale);
  const partialWeight = numberOption(taskCompletionScorerId, 'partialWeight', options.partialWeight, 0.5, { min: 0, max: 1 });

  return createScorer({
    id: taskCompletionScorerId,
    name: 'Task Completion',
    description: "Whether the agent accomplished the user's task, judged from the question, its tool calls and its final answer.",
    type: 'agent',
    judge: judgeConfig(config, taskCompletionInstructions),
  })
    .preprocess(({ run }) => {
      const question = getQuestionText(run.input);
      if (question === undefined) return partAbsent(run, 'question', 'The run input has no user message, so there is no task to judge.');
      const answer = getAnswerText(run.output);
      const toolCalls = judgedToolCalls(run.output);
      if (answer === undefined && toolCalls.totalCalls === 0) {
        return partAbsent(run, 'answer', 'The agent gave no text answer and called no tools: nothing shows what it did.');
      }
      return {
        question: cutForJudge(question, maxRunTextChars),
        ...(answer === undefined ? {} : { answer: cutForJudge(answer, maxRunTextChars) }),
        toolCalls,
      };
    })
    .analyze({
      description: 'State the task and judge whether the agent accomplished it.',
      outputSchema: taskCompletionAnalyzeSchema,
      createPrompt: ({ results }) => createTaskCompletionAnalyzePrompt(results.preprocessStepResult),
    })
    .generateScore(({ results }) => computeTaskCompletionScore(results.analyzeStepResult.verdict, { partialWeight, scale }))
    .generateReason({
      description: 'Explain the task completion score from the verdict.',
      createPrompt: ({ results, score }) => createTaskCompletionReasonPrompt({ score, scale, ...results.analyzeStepResult }),
    });
}

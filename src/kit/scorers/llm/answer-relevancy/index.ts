// Answer relevancy (LLM judge): how much of the agent's answer responds to the user's question.
// The judge splits the answer into statements and labels each yes / unsure / no; the score is
// (yes + uncertaintyWeight · unsure) / statements, times `scale`.
import { z } from 'zod';
import { createScorer } from '../../../scorer/create-scorer.ts';
import { numberOption, scaleOption } from '../../shared/invalid-options.ts';
import { judgeConfig } from '../../shared/llm-scorer-config.ts';
import type { LlmScorerConfig } from '../../shared/llm-scorer-config.ts';
import { getAnswerText, getQuestionText, partAbsent } from '../../shared/run-text.ts';
import { scaleScore, weightedShare } from '../../shared/verdict-score.ts';
import {
  answerRelevancyInstructions,
  createAnswerRelevancyAnalyzePrompt,
  createAnswerRelevancyReasonPrompt,
} from './prompts.ts';

export const answerRelevancyScorerId = 'answer-relevancy';

export type AnswerRelevancyOptions = {
  /** How much an "unsure" statement counts, 0..1 (default 0.3). */
  uncertaintyWeight?: number;
  /** The score of a fully relevant answer (default 1). */
  scale?: number;
};

export const answerRelevancyVerdicts = ['yes', 'unsure', 'no'] as const;
export type AnswerRelevancyVerdict = (typeof answerRelevancyVerdicts)[number];

export const answerRelevancyAnalyzeSchema = z.object({
  statements: z.array(
    z.object({
      statement: z.string(),
      verdict: z.enum(answerRelevancyVerdicts),
      reason: z.string(),
    }),
  ),
});

/** The score for the verdicts; an answer without statements scores 0 (it said nothing relevant). */
export function computeAnswerRelevancyScore(
  verdicts: readonly AnswerRelevancyVerdict[],
  { uncertaintyWeight, scale }: { uncertaintyWeight: number; scale: number },
): number {
  const share = weightedShare(verdicts, { yes: 1, unsure: uncertaintyWeight });
  return scaleScore(share ?? 0, scale);
}

export function createAnswerRelevancyScorer(config: LlmScorerConfig<AnswerRelevancyOptions>) {
  const options = config.options ?? {};
  const scale = scaleOption(answerRelevancyScorerId, options.scale);
  const uncertaintyWeight = numberOption(answerRelevancyScorerId, 'uncertaintyWeight', options.uncertaintyWeight, 0.3, {
    min: 0,
    max: 1,
  });

  return createScorer({
    id: answerRelevancyScorerId,
    name: 'Answer Relevancy',
    description: "How much of the agent's answer responds to the user's question, judged statement by statement.",
    type: 'agent',
    judge: judgeConfig(config, answerRelevancyInstructions),
  })
    .preprocess(({ run }) => {
      const answer = getAnswerText(run.output);
      if (answer === undefined) return partAbsent(run, 'answer', 'The agent gave no text answer.');
      const question = getQuestionText(run.input);
      if (question === undefined) return partAbsent(run, 'question', 'The run input has no user message to judge relevance against.');
      return { question, answer };
    })
    .analyze({
      description: 'Split the answer into statements and judge whether each responds to the question.',
      outputSchema: answerRelevancyAnalyzeSchema,
      createPrompt: ({ results }) => createAnswerRelevancyAnalyzePrompt(results.preprocessStepResult),
    })
    .generateScore(({ results }) =>
      computeAnswerRelevancyScore(
        results.analyzeStepResult.statements.map((entry) => entry.verdict),
        { uncertaintyWeight, scale },
      ),
    )
    .generateReason({
      description: 'Explain the relevancy score from the verdicts.',
      createPrompt: ({ results, score }) =>
        createAnswerRelevancyReasonPrompt({
          ...results.preprocessStepResult,
          score,
          scale,
          statements: results.analyzeStepResult.statements,
        }),
    });
}

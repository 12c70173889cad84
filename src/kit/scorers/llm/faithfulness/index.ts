// Faithfulness (LLM judge): the share of the answer's factual claims that its context supports.
// The context is `options.context`, or else the results of the tools the agent called in this
// turn. The judge lists the claims and labels each supported / contradicted / unsupported; the
// score is supported / claims, times `scale`.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { claimsAnalyzeSchema, prepareGroundedAnswer } from '../../shared/claims.ts';
import type { ClaimVerdict } from '../../shared/claims.ts';
import { contextOption, scaleOption } from '../../shared/invalid-options.ts';
import { judgeConfig } from '../../shared/llm-scorer-config.ts';
import type { LlmScorerConfig } from '../../shared/llm-scorer-config.ts';
import { scaleScore, weightedShare } from '../../shared/verdict-score.ts';
import {
  createFaithfulnessAnalyzePrompt,
  createFaithfulnessReasonPrompt,
  faithfulnessInstructions,
} from './prompts.ts';

export const faithfulnessScorerId = 'faithfulness';

export type FaithfulnessOptions = {
  /** The score of a fully faithful answer (default 1). */
  scale?: number;
  /** The material the answer must stay true to. Default: the run's successful tool results. */
  context?: string[];
};

/** supported / claims, scaled; `undefined` when there are no claims to check. */
export function computeFaithfulnessScore(verdicts: readonly ClaimVerdict[], scale: number): number | undefined {
  const share = weightedShare(verdicts, { supported: 1 });
  return share === undefined ? undefined : scaleScore(share, scale);
}

export function createFaithfulnessScorer(config: LlmScorerConfig<FaithfulnessOptions>) {
  const options = config.options ?? {};
  const scale = scaleOption(faithfulnessScorerId, options.scale);
  const context = contextOption(faithfulnessScorerId, options.context);

  return createScorer({
    id: faithfulnessScorerId,
    name: 'Faithfulness',
    description: "The share of the answer's factual claims that its context (given, or the agent's tool results) supports.",
    type: 'agent',
    judge: judgeConfig(config, faithfulnessInstructions),
  })
    .preprocess(({ run }) => prepareGroundedAnswer(run, context))
    .analyze({
      description: "List the answer's factual claims and check each against the context.",
      outputSchema: claimsAnalyzeSchema,
      createPrompt: ({ results }) => createFaithfulnessAnalyzePrompt(results.preprocessStepResult),
    })
    .generateScore(({ results }) => {
      const score = computeFaithfulnessScore(
        results.analyzeStepResult.claims.map((entry) => entry.verdict),
        scale,
      );
      return score ?? notScorable('The answer makes no factual claims to check.');
    })
    .generateReason({
      description: 'Explain the faithfulness score from the verdicts.',
      createPrompt: ({ results, score }) =>
        createFaithfulnessReasonPrompt({
          answer: results.preprocessStepResult.answer,
          context: results.preprocessStepResult.context,
          score,
          scale,
          claims: results.analyzeStepResult.claims,
        }),
    });
}

// Hallucination (LLM judge): the share of the answer's claims that its context contradicts or
// does not contain. The context is `options.context`, or else the results of the tools the agent
// called in this turn. Higher is worse: 0 means every claim is grounded.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { claimsAnalyzeSchema, prepareGroundedAnswer } from '../../shared/claims.ts';
import type { ClaimVerdict } from '../../shared/claims.ts';
import { contextOption, scaleOption } from '../../shared/invalid-options.ts';
import { judgeConfig } from '../../shared/llm-scorer-config.ts';
import type { LlmScorerConfig } from '../../shared/llm-scorer-config.ts';
import { scaleScore, weightedShare } from '../../shared/verdict-score.ts';
import {
  createHallucinationAnalyzePrompt,
  createHallucinationReasonPrompt,
  hallucinationInstructions,
} from './prompts.ts';

export const hallucinationScorerId = 'hallucination';

export type HallucinationOptions = {
  /** The score of an answer made up entirely (default 1). */
  scale?: number;
  /** The material the answer's claims are checked against. Default: the run's successful tool results. */
  context?: string[];
};

/** (contradicted + unsupported) / claims, scaled; an answer without claims hallucinated nothing (0). */
export function computeHallucinationScore(verdicts: readonly ClaimVerdict[], scale: number): number {
  const share = weightedShare(verdicts, { contradicted: 1, unsupported: 1 });
  return scaleScore(share ?? 0, scale);
}

export function createHallucinationScorer(config: LlmScorerConfig<HallucinationOptions>) {
  const options = config.options ?? {};
  const scale = scaleOption(hallucinationScorerId, options.scale);
  const context = contextOption(hallucinationScorerId, options.context);

  return createScorer({
    id: hallucinationScorerId,
    name: 'Hallucination',
    description: "The share of the answer's claims that its context (given, or the agent's tool results) contradicts or lacks.",
    type: 'agent',
    judge: judgeConfig(config, hallucinationInstructions),
  })
    .preprocess(({ run }) => prepareGroundedAnswer(run, context))
    .analyze({
      description: "List the answer's claims and check each against the context.",
      outputSchema: claimsAnalyzeSchema,
      createPrompt: ({ results }) => createHallucinationAnalyzePrompt(results.preprocessStepResult),
    })
    .generateScore(({ results }) =>
      computeHallucinationScore(
        results.analyzeStepResult.claims.map((entry) => entry.verdict),
        scale,
      ),
    )
    .generateReason({
      description: 'Explain the hallucination score from the verdicts.',
      createPrompt: ({ results, score }) =>
        createHallucinationReasonPrompt({
          answer: results.preprocessStepResult.answer,
          context: results.preprocessStepResult.context,
          score,
          scale,
          claims: results.analyzeStepResult.claims,
        }),
    });
}

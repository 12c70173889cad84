// The scorers the eval runs, built around one judge model: the five built-in LLM scorers with
// their default options, and a support-tone classifier scorer like the one in
// examples/scorestream.config.ts. Each turns a finished scorer run into a label.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { Classifier } from '../../src/kit/classifier/classifier.ts';
import { createClassifierScorer } from '../../src/kit/classifier/classifier-scorer.ts';
import type { JudgeModelSettings } from '../../src/kit/judge/types.ts';
import { createAnswerRelevancyScorer } from '../../src/kit/scorers/llm/answer-relevancy/index.ts';
import { createBiasScorer } from '../../src/kit/scorers/llm/bias/index.ts';
import { createFaithfulnessScorer } from '../../src/kit/scorers/llm/faithfulness/index.ts';
import { createHallucinationScorer } from '../../src/kit/scorers/llm/hallucination/index.ts';
import { createToxicityScorer } from '../../src/kit/scorers/llm/toxicity/index.ts';
import type { BuiltInScorer } from '../../src/kit/scorers/registry.ts';
import { getAnswerText, getQuestionText } from '../../src/kit/scorers/shared/run-text.ts';
import { labelForScore } from './agreement.ts';
import { thresholds } from './scorer-labels.ts';
import type { EvalScorerId } from './scorer-labels.ts';

/** What labelling needs from a scored run result. */
export type ScoredResult = { score: number; analyzeStepResult?: unknown };

export type EvalScorer = {
  scorer: BuiltInScorer;
  /** The label of a scored result. */
  label: (result: ScoredResult) => string;
};

// Repeatable verdicts: the eval measures the judge, not its sampling noise.
const defaultModelSettings: JudgeModelSettings = { temperature: 0 };

export const supportToneQuestion = {
  type: 'choice',
  instructions: 'How does the assistant address the customer?',
  criteria: { warm: 'friendly and empathetic', neutral: 'matter-of-fact', curt: 'dismissive or rude' },
} as const;

/** `settings` add to temperature 0, e.g. a longer timeout for a slow local model. */
export function createEvalScorer(id: EvalScorerId, model: LanguageModelV4, settings: JudgeModelSettings = {}): EvalScorer {
  const config = { model, modelSettings: { ...defaultModelSettings, ...settings } };
  switch (id) {
    case 'answer-relevancy':
      return thresholded(createAnswerRelevancyScorer(config), id);
    case 'toxicity':
      return thresholded(createToxicityScorer(config), id);
    case 'faithfulness':
      return thresholded(createFaithfulnessScorer(config), id);
    case 'hallucination':
      return thresholded(createHallucinationScorer(config), id);
    case 'bias':
      return thresholded(createBiasScorer(config), id);
    case 'support-tone':
      return supportToneScorer(model, settings);
  }
}

function thresholded(scorer: BuiltInScorer, id: keyof typeof thresholds): EvalScorer {
  return { scorer, label: (result) => labelForScore(result.score, thresholds[id]) };
}

/**
 * The classifier calls at temperature 0 and retries on its own (maxRetries); the eval's case
 * timeout bounds its calls, and its answer is one short object (no maxOutputTokens to set).
 */
function supportToneScorer(model: LanguageModelV4, settings: JudgeModelSettings): EvalScorer {
  const classifier = new Classifier({ id: 'support-tone', model, questions: { tone: supportToneQuestion } });
  const scorer = createClassifierScorer({
    id: 'support-tone',
    type: 'agent',
    classifier,
    question: 'tone',
    scores: { warm: 1, neutral: 0.6, curt: 0 },
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    state: ({ run }) => ({
      customerMessage: getQuestionText(run.input) ?? '',
      assistantAnswer: getAnswerText(run.output) ?? '',
    }),
  });
  return {
    scorer: scorer as unknown as BuiltInScorer,
    // The label is the choice itself, not the score it projects to.
    label: (result) => (result.analyzeStepResult as { answer: { choice: string } }).answer.choice,
  };
}

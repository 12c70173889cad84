// The catalogue of built-in scorers: which exist, whether they need a judge model, and how to
// build each. A config can use it (createDefaultBuiltInScorers) to bind the code scorers always
// and the LLM scorers when a judge model is configured.
import type { AgentScorer } from '../scorer/types.ts';
import type { JudgeModel, JudgeModelSettings } from '../judge/types.ts';
import { createCompletenessScorer, completenessScorerId } from './code/completeness/index.ts';
import { createContentSimilarityScorer, contentSimilarityScorerId } from './code/content-similarity/index.ts';
import { createKeywordCoverageScorer, keywordCoverageScorerId } from './code/keyword-coverage/index.ts';
import { createTextualDifferenceScorer, textualDifferenceScorerId } from './code/textual-difference/index.ts';
import { createToolCallAccuracyScorer, toolCallAccuracyScorerId } from './code/tool-call-accuracy/index.ts';
import { createToolErrorRateScorer, toolErrorRateScorerId } from './code/tool-error-rate/index.ts';
import { answerRelevancyScorerId, createAnswerRelevancyScorer } from './llm/answer-relevancy/index.ts';
import { biasScorerId, createBiasScorer } from './llm/bias/index.ts';
import { createFaithfulnessScorer, faithfulnessScorerId } from './llm/faithfulness/index.ts';
import { createHallucinationScorer, hallucinationScorerId } from './llm/hallucination/index.ts';
import { createToxicityScorer, toxicityScorerId } from './llm/toxicity/index.ts';

/** A built-in scorer, whatever its step results. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BuiltInScorer = AgentScorer<any>;

export type BuiltInJudge = { model: JudgeModel; modelSettings?: JudgeModelSettings };

type EntryBase = {
  id: string;
  /** Whether higher scores are better ('higher') or worse ('lower', e.g. toxicity). */
  better: 'higher' | 'lower';
};

export type BuiltInCodeScorerEntry = EntryBase & {
  kind: 'code';
  /**
   * The factory, called with no arguments for a scorer with default options. Undefined for a
   * scorer that cannot work without options (tool-call-accuracy needs the expected tools).
   */
  createDefault: (() => BuiltInScorer) | undefined;
  factory: (...args: never[]) => BuiltInScorer;
};

export type BuiltInLlmScorerEntry = EntryBase & {
  kind: 'llm';
  /** Builds the scorer with its default options around the given judge. */
  createDefault: (judge: BuiltInJudge) => BuiltInScorer;
  factory: (...args: never[]) => BuiltInScorer;
};

export type BuiltInScorerEntry = BuiltInCodeScorerEntry | BuiltInLlmScorerEntry;

/** Every built-in scorer; each entry keeps its factory's exact type (`builtInScorers[i].factory`). */
export const builtInScorers = [
  {
    id: toolCallAccuracyScorerId,
    kind: 'code',
    better: 'higher',
    createDefault: undefined,
    factory: createToolCallAccuracyScorer,
  },
  {
    id: toolErrorRateScorerId,
    kind: 'code',
    better: 'higher',
    createDefault: () => createToolErrorRateScorer(),
    factory: createToolErrorRateScorer,
  },
  {
    id: completenessScorerId,
    kind: 'code',
    better: 'higher',
    createDefault: () => createCompletenessScorer(),
    factory: createCompletenessScorer,
  },
  {
    id: keywordCoverageScorerId,
    kind: 'code',
    better: 'higher',
    createDefault: () => createKeywordCoverageScorer(),
    factory: createKeywordCoverageScorer,
  },
  {
    id: textualDifferenceScorerId,
    kind: 'code',
    better: 'higher',
    createDefault: () => createTextualDifferenceScorer(),
    factory: createTextualDifferenceScorer,
  },
  {
    id: contentSimilarityScorerId,
    kind: 'code',
    better: 'higher',
    createDefault: () => createContentSimilarityScorer(),
    factory: createContentSimilarityScorer,
  },
  {
    id: answerRelevancyScorerId,
    kind: 'llm',
    better: 'higher',
    createDefault: (judge) => createAnswerRelevancyScorer(judge),
    factory: createAnswerRelevancyScorer,
  },
  {
    id: faithfulnessScorerId,
    kind: 'llm',
    better: 'higher',
    createDefault: (judge) => createFaithfulnessScorer(judge),
    factory: createFaithfulnessScorer,
  },
  {
    id: hallucinationScorerId,
    kind: 'llm',
    better: 'lower',
    createDefault: (judge) => createHallucinationScorer(judge),
    factory: createHallucinationScorer,
  },
  {
    id: toxicityScorerId,
    kind: 'llm',
    better: 'lower',
    createDefault: (judge) => createToxicityScorer(judge),
    factory: createToxicityScorer,
  },
  {
    id: biasScorerId,
    kind: 'llm',
    better: 'lower',
    createDefault: (judge) => createBiasScorer(judge),
    factory: createBiasScorer,
  },
] as const satisfies readonly BuiltInScorerEntry[];

export type BuiltInScorerId = (typeof builtInScorers)[number]['id'];

/**
 * The built-in scorers that work with default options: every code scorer that needs no
 * options, plus every LLM scorer when a judge is given. In catalogue order.
 */
export function createDefaultBuiltInScorers(options: { judge?: BuiltInJudge } = {}): BuiltInScorer[] {
  const scorers: BuiltInScorer[] = [];
  for (const entry of builtInScorers) {
    if (entry.kind === 'code') {
      if (entry.createDefault) scorers.push(entry.createDefault());
    } else if (options.judge) {
      scorers.push(entry.createDefault(options.judge));
    }
  }
  return scorers;
}

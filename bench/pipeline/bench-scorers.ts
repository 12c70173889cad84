// The scorers under test. Three built-in code scorers with real text work (key-term extraction,
// keyword matching, character-bigram similarity), and one LLM-judge scorer whose judge is a
// MockLanguageModelV4 that answers after a fixed delay, to measure how well the service hides
// judge latency behind its concurrency cap.
import { MockLanguageModelV4 } from 'ai/test';
import type { JudgeModelResolver } from '../../src/kit/judge/types.ts';
import { createScorer } from '../../src/kit/scorer/create-scorer.ts';
import { createCompletenessScorer } from '../../src/kit/scorers/code/completeness/index.ts';
import { createContentSimilarityScorer } from '../../src/kit/scorers/code/content-similarity/index.ts';
import { createKeywordCoverageScorer } from '../../src/kit/scorers/code/keyword-coverage/index.ts';

export function createCodeScorers() {
  return [createCompletenessScorer(), createKeywordCoverageScorer(), createContentSimilarityScorer()];
}

/** Three scorers with the same ids and steps that do no work: what the pipeline costs on its own. */
export function createNoOpScorers() {
  return createCodeScorers().map((scorer) =>
    createScorer({ id: scorer.id, description: 'no work' })
      .preprocess(() => ({}))
      .generateScore(() => 0.5)
      .generateReason(() => 'fixed'),
  );
}

const judgeAnswer = {
  content: [{ type: 'text' as const, text: '{"score":0.7}' }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 6, text: 6, reasoning: undefined },
  },
  warnings: [],
};

export const mockJudgeModelId = 'bench:slow-judge';

/**
 * A judge scorer (generateScore as a prompt object) and the model resolver that serves its
 * judge. The model is named by id so the service's per-model concurrency cap applies to it.
 */
export function createSlowJudge(delayMs: number): { scorer: ReturnType<typeof buildJudgeScorer>; models: JudgeModelResolver; calls: () => number } {
  let calls = 0;
  const model = new MockLanguageModelV4({
    provider: 'bench',
    modelId: 'slow-judge',
    doGenerate: async () => {
      calls += 1;
      // The mock records every call; over a 200,000-event backlog that alone would grow the heap.
      model.doGenerateCalls.length = 0;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return judgeAnswer;
    },
  });
  return { scorer: buildJudgeScorer(), models: { languageModel: () => model }, calls: () => calls };
}

function buildJudgeScorer() {
  return createScorer({
    id: 'bench-judge',
    description: 'One judge call: how helpful is the answer, 0 to 1.',
    judge: { model: mockJudgeModelId, instructions: 'You grade agent answers. Reply with JSON {"score": number between 0 and 1}.' },
  }).generateScore({
    description: 'helpfulness',
    createPrompt: ({ run }) => `Question and answer:\n${JSON.stringify(run.output).slice(0, 2000)}\nHow helpful is the answer?`,
  });
}

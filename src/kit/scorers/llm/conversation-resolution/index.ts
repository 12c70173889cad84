// Conversation resolution (LLM judge, thread scorer): the share of the user's requests that were
// resolved by the end of the conversation. The judge lists the requests and labels each resolved /
// partially_resolved / unresolved; the score is (resolved + partialWeight · partial) / requests,
// times `scale`. Bind it with level: 'thread' (docs/threads.md).
import { z } from 'zod';
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable, notScorable } from '../../../scorer/not-scorable.ts';
import { conversationText, conversationTurns } from '../../shared/conversation-text.ts';
import { numberOption, scaleOption } from '../../shared/invalid-options.ts';
import { judgeConfig } from '../../shared/llm-scorer-config.ts';
import type { LlmScorerConfig } from '../../shared/llm-scorer-config.ts';
import { threadOrNotScorable } from '../../shared/thread-run.ts';
import { scaleScore, weightedShare } from '../../shared/verdict-score.ts';
import { conversationResolutionInstructions, createConversationResolutionAnalyzePrompt, createConversationResolutionReasonPrompt } from './prompts.ts';

export const conversationResolutionScorerId = 'conversation-resolution';

export type ConversationResolutionOptions = {
  /** How much a partially resolved request counts, 0..1 (default 0.5). */
  partialWeight?: number;
  /** The score of a conversation whose every request was resolved (default 1). */
  scale?: number;
};

export const resolutionVerdicts = ['resolved', 'partially_resolved', 'unresolved'] as const;
export type ResolutionVerdict = (typeof resolutionVerdicts)[number];

export const conversationResolutionAnalyzeSchema = z.object({
  requests: z.array(z.object({ request: z.string(), verdict: z.enum(resolutionVerdicts), reason: z.string() })),
});

/** The resolved share; undefined when the user asked for nothing (nothing to resolve). */
export function computeConversationResolutionScore(verdicts: readonly ResolutionVerdict[], { partialWeight, scale }: { partialWeight: number; scale: number }): number | undefined {
  const share = weightedShare(verdicts, { resolved: 1, partially_resolved: partialWeight });
  return share === undefined ? undefined : scaleScore(share, scale);
}

export function createConversationResolutionScorer(config: LlmScorerConfig<ConversationResolutionOptions>) {
  const options = config.options ?? {};
  const scale = scaleOption(conversationResolutionScorerId, options.scale);
  const partialWeight = numberOption(conversationResolutionScorerId, 'partialWeight', options.partialWeight, 0.5, { min: 0, max: 1 });

  return createScorer({
    id: conversationResolutionScorerId,
    name: 'Conversation Resolution',
    description: "The share of the user's requests in a conversation that were resolved by its end.",
    type: 'agent',
    judge: judgeConfig(config, conversationResolutionInstructions),
  })
    .preprocess(({ run }) => {
      const thread = threadOrNotScorable(run, conversationResolutionScorerId);
      if (isNotScorable(thread)) return thread;
      const turns = conversationTurns(thread.turns);
      if (!turns.some((turn) => turn.user.length > 0)) return notScorable('The conversation has no user message.');
      if (!turns.some((turn) => turn.assistant.length > 0)) return notScorable('The agent gave no text answer in the conversation.');
      return { turns: turns.length, conversation: conversationText(turns) };
    })
    .analyze({
      description: "List the user's requests and judge whether each was resolved.",
      outputSchema: conversationResolutionAnalyzeSchema,
      createPrompt: ({ results }) => createConversationResolutionAnalyzePrompt(results.preprocessStepResult),
    })
    .generateScore(({ results }) => {
      const score = computeConversationResolutionScore(
        results.analyzeStepResult.requests.map((entry) => entry.verdict),
        { partialWeight, scale },
      );
      return score ?? notScorable('The judge found no request of the user in the conversation.');
    })
    .generateReason({
      description: 'Explain the resolution score from the verdicts.',
      createPrompt: ({ results, score }) => createConversationResolutionReasonPrompt({ score, scale, requests: results.analyzeStepResult.requests }),
    });
}

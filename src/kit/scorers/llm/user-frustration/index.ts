// User frustration (LLM judge, thread scorer): the share of the user's messages in a conversation
// that show frustration with the assistant. The judge labels each user message frustrated /
// not_frustrated; the score is frustrated / judged messages, times `scale`. Higher is worse. Bind
// it with level: 'thread' (docs/threads.md).
import { z } from 'zod';
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable, notScorable } from '../../../scorer/not-scorable.ts';
import { conversationText, conversationTurns } from '../../shared/conversation-text.ts';
import { scaleOption } from '../../shared/invalid-options.ts';
import { judgeConfig } from '../../shared/llm-scorer-config.ts';
import type { LlmScorerConfig } from '../../shared/llm-scorer-config.ts';
import { threadOrNotScorable } from '../../shared/thread-run.ts';
import { scaleScore, weightedShare } from '../../shared/verdict-score.ts';
import { createUserFrustrationAnalyzePrompt, createUserFrustrationReasonPrompt, userFrustrationInstructions } from './prompts.ts';

export const userFrustrationScorerId = 'user-frustration';

export type UserFrustrationOptions = {
  /** The score of a conversation in which every user message is frustrated (default 1). */
  scale?: number;
};

export const frustrationVerdicts = ['frustrated', 'not_frustrated'] as const;
export type FrustrationVerdict = (typeof frustrationVerdicts)[number];

export const userFrustrationAnalyzeSchema = z.object({
  messages: z.array(z.object({ message: z.number().int(), verdict: z.enum(frustrationVerdicts), reason: z.string() })),
});

/** The frustrated share; undefined without verdicts. */
export function computeUserFrustrationScore(verdicts: readonly FrustrationVerdict[], scale: number): number | undefined {
  const share = weightedShare(verdicts, { frustrated: 1 });
  return share === undefined ? undefined : scaleScore(share, scale);
}

export function createUserFrustrationScorer(config: LlmScorerConfig<UserFrustrationOptions>) {
  const scale = scaleOption(userFrustrationScorerId, config.options?.scale);

  return createScorer({
    id: userFrustrationScorerId,
    name: 'User Frustration',
    description: "The share of the user's messages in a conversation that show frustration with the assistant.",
    type: 'agent',
    judge: judgeConfig(config, userFrustrationInstructions),
  })
    .preprocess(({ run }) => {
      const thread = threadOrNotScorable(run, userFrustrationScorerId);
      if (isNotScorable(thread)) return thread;
      const turns = conversationTurns(thread.turns);
      const messages = turns.flatMap((turn) => turn.user);
      if (messages.length === 0) return notScorable('The conversation has no user message.');
      return { turns: turns.length, conversation: conversationText(turns), messages };
    })
    .analyze({
      description: "Judge each of the user's messages for frustration.",
      outputSchema: userFrustrationAnalyzeSchema,
      createPrompt: ({ results }) => createUserFrustrationAnalyzePrompt(results.preprocessStepResult),
    })
    .generateScore(({ results }) => {
      // Only verdicts about messages that exist count: a judge that invents message 9 of 3 is not believed on it.
      const asked = results.preprocessStepResult.messages.length;
      const verdicts = results.analyzeStepResult.messages.filter((entry) => entry.message >= 1 && entry.message <= asked);
      const score = computeUserFrustrationScore(verdicts.map((entry) => entry.verdict), scale);
      return score ?? notScorable('The judge gave no verdict on any of the user messages.');
    })
    .generateReason({
      description: 'Explain the frustration score from the verdicts.',
      createPrompt: ({ results, score }) => createUserFrustrationReasonPrompt({ score, scale, messages: results.analyzeStepResult.messages }),
    });
}

// Knowledge retention (LLM judge, thread scorer): of the facts the user gave that mattered later in
// the conversation, the share the agent kept. The judge lists the user's facts and labels each
// retained / forgotten / not_needed; the score is retained / (retained + forgotten), times `scale`.
// A conversation of one turn, or one where no fact mattered later, has nothing to measure. Bind it
// with level: 'thread' (docs/threads.md).
import { z } from 'zod';
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable, notScorable } from '../../../scorer/not-scorable.ts';
import { conversationText, conversationTurns } from '../../shared/conversation-text.ts';
import { scaleOption } from '../../shared/invalid-options.ts';
import { judgeConfig } from '../../shared/llm-scorer-config.ts';
import type { LlmScorerConfig } from '../../shared/llm-scorer-config.ts';
import { threadOrNotScorable } from '../../shared/thread-run.ts';
import { scaleScore, weightedShare } from '../../shared/verdict-score.ts';
import { createKnowledgeRetentionAnalyzePrompt, createKnowledgeRetentionReasonPrompt, knowledgeRetentionInstructions } from './prompts.ts';

export const knowledgeRetentionScorerId = 'knowledge-retention';

export type KnowledgeRetentionOptions = {
  /** The score of a conversation in which every needed fact was kept (default 1). */
  scale?: number;
};

export const retentionVerdicts = ['retained', 'forgotten', 'not_needed'] as const;
export type RetentionVerdict = (typeof retentionVerdicts)[number];

export const knowledgeRetentionAnalyzeSchema = z.object({
  facts: z.array(z.object({ fact: z.string(), turn: z.number().int(), verdict: z.enum(retentionVerdicts), reason: z.string() })),
});

/** The kept share of the facts that mattered; undefined when none mattered. */
export function computeKnowledgeRetentionScore(verdicts: readonly RetentionVerdict[], scale: number): number | undefined {
  const share = weightedShare(verdicts.filter((verdict) => verdict !== 'not_needed'), { retained: 1 });
  return share === undefined ? undefined : scaleScore(share, scale);
}

export function createKnowledgeRetentionScorer(config: LlmScorerConfig<KnowledgeRetentionOptions>) {
  const scale = scaleOption(knowledgeRetentionScorerId, config.options?.scale);

  return createScorer({
    id: knowledgeRetentionScorerId,
    name: 'Knowledge Retention',
    description: 'Of the facts the user gave that mattered later in the conversation, the share the agent kept.',
    type: 'agent',
    judge: judgeConfig(config, knowledgeRetentionInstructions),
  })
    .preprocess(({ run }) => {
      const thread = threadOrNotScorable(run, knowledgeRetentionScorerId);
      if (isNotScorable(thread)) return thread;
      if (thread.turns.length < 2) return notScorable('A conversation of one turn has nothing to retain.');
      const turns = conversationTurns(thread.turns);
      if (!turns.some((turn) => turn.user.length > 0)) return notScorable('The conversation has no user message.');
      return { turns: turns.length, conversation: conversationText(turns) };
    })
    .analyze({
      description: "List the user's facts and judge whether the agent kept each.",
      outputSchema: knowledgeRetentionAnalyzeSchema,
      createPrompt: ({ results }) => createKnowledgeRetentionAnalyzePrompt(results.preprocessStepResult),
    })
    .generateScore(({ results }) => {
      const score = computeKnowledgeRetentionScore(results.analyzeStepResult.facts.map((entry) => entry.verdict), scale);
      return score ?? notScorable('No fact the user gave mattered later in the conversation.');
    })
    .generateReason({
      description: 'Explain the retention score from the verdicts.',
      createPrompt: ({ results, score }) => createKnowledgeRetentionReasonPrompt({ score, scale, facts: results.analyzeStepResult.facts }),
    });
}

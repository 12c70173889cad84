// What the faithfulness and hallucination judges share: the claim verdicts and schema, the
// preprocess step that gathers the answer and the context to check it against, and the reason
// prompt's evidence (context, answer, verdicts) that each frames in its own words.
import { layoutPrompt } from '../../judge/prompt-layout.ts';
import type { LaidOutPrompt } from '../../judge/prompt-layout.ts';
import { z } from 'zod';
import { notScorable } from '../../scorer/not-scorable.ts';
import type { NotScorable } from '../../scorer/not-scorable.ts';
import { getJudgeContext } from './judge-context.ts';
import type { JudgeContext } from './judge-context.ts';
import { numberedList, scoreToExplain, tagged } from './prompt-text.ts';
import { getAnswerText, partAbsent } from './run-text.ts';

export const claimVerdicts = ['supported', 'contradicted', 'unsupported'] as const;
export type ClaimVerdict = (typeof claimVerdicts)[number];

export const claimsAnalyzeSchema = z.object({
  claims: z.array(
    z.object({
      claim: z.string(),
      verdict: z.enum(claimVerdicts),
      reason: z.string(),
    }),
  ),
});

export type GroundedAnswer = { answer: string; context: string[]; contextSource: JudgeContext['source'] };

/** The answer and its context, or why the run cannot be checked (no answer, no context). */
export function prepareGroundedAnswer(
  run: { output?: unknown; missing?: unknown },
  configuredContext: readonly string[] | undefined,
): GroundedAnswer | NotScorable {
  const output = run.output;
  const answer = getAnswerText(output);
  if (answer === undefined) return partAbsent(run, 'answer', 'The agent gave no text answer.');
  const context = getJudgeContext(configuredContext, output);
  if (context.items.length === 0) {
    return notScorable(
      context.source === 'options'
        ? 'The configured context is empty.'
        : 'No context to check the answer against: no tool returned a result and no context is configured.',
    );
  }
  return { answer, context: context.items, contextSource: context.source };
}

export type ClaimsReasonInput = {
  answer: string;
  context: readonly string[];
  score: number;
  scale: number;
  claims: readonly { claim: string; verdict: string; reason: string }[];
};

/**
 * The generateReason prompt of a claims judge, laid out for the providers' prompt caches: its
 * judge's own `fixed` part (what was scored, what the score measures, what to explain) first, then
 * the context, the answer, the verdicts and the score.
 */
export function claimsReasonPrompt(input: ClaimsReasonInput, fixed: string): LaidOutPrompt {
  const verdicts = input.claims.map((entry) => `[${entry.verdict}] ${entry.claim} (${entry.reason})`);
  return layoutPrompt({
    fixed,
    material: [
      tagged('context', numberedList(input.context)),
      tagged('answer', input.answer),
      tagged('verdicts', numberedList(verdicts)),
      scoreToExplain(input.score, input.scale),
    ],
  });
}

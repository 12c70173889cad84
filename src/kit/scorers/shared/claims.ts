// What the faithfulness and hallucination judges share: the claim verdicts and schema, the
// preprocess step that gathers the answer and the context to check it against, and the reason
// prompt's evidence (context, answer, verdicts) that each frames in its own words.
import { z } from 'zod';
import { notScorable } from '../../scorer/not-scorable.ts';
import type { NotScorable } from '../../scorer/not-scorable.ts';
import { getJudgeContext } from './judge-context.ts';
import type { JudgeContext } from './judge-context.ts';
import { describeScore, numberedList, tagged } from './prompt-text.ts';
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
 * The generateReason prompt of a claims judge, framed by `what` was scored, what the score
 * `measures`, and what the explanation must cover (`explain`).
 */
export function claimsReasonPrompt(input: ClaimsReasonInput, framing: { what: string; measures: string; explain: string }): string {
  const verdicts = input.claims.map((entry) => `[${entry.verdict}] ${entry.claim} (${entry.reason})`);
  return `An answer was scored for ${framing.what}. The score is ${describeScore(input.score, input.scale)}: ${framing.measures}

${tagged('context', numberedList(input.context))}

${tagged('answer', input.answer)}

${tagged('verdicts', numberedList(verdicts))}

In one or two sentences, explain the score: ${framing.explain} Begin with "The score is ${input.score} because". Keep the given score and verdicts; do not re-judge the claims.`;
}

// What passing means for a scorer binding (`pass` in the config; docs/alerts.md, verdicts): a score
// range (`atLeast`, `atMost`, or both) or, for a classifier scorer of a choice question, the labels
// that pass. Every scored record of such a binding carries `verdict: 'pass' | 'fail'`, so a pass
// rate is an exact count rather than an estimate from histogram buckets. `not_scorable` and
// `failed` records get no verdict: they are neither. `objective` is the share of scored runs that
// should pass (the pass-rate SLO the shipped Prometheus rules alert on); it does not change verdicts.
import { z } from 'zod';
import type { Verdict } from '../contracts/score-record.ts';

const finite = (field: string) => z.number({ error: `${field} must be a finite number` }).refine(Number.isFinite, `${field} must be a finite number`);

export const passCriterionSchema = z
  .strictObject(
    {
      /** Passes when score >= atLeast. */
      atLeast: finite('atLeast').optional(),
      /** Passes when score <= atMost (for scorers where lower is better, such as toxicity). */
      atMost: finite('atMost').optional(),
      /** A classifier scorer's choices that pass (its analyze step's selected choice). */
      labels: z.array(z.string().min(1, 'a label must be a non-empty string')).min(1, 'expected at least one label').optional(),
      /** The share of scored runs that should pass, in (0, 1): the pass-rate SLO (docs/alerts.md). */
      objective: z
        .number({ error: 'objective must be a number between 0 and 1, e.g. 0.95' })
        .gt(0, 'objective must be above 0 and below 1, e.g. 0.95')
        .lt(1, 'objective must be above 0 and below 1 (an objective of 1 leaves no error budget), e.g. 0.95')
        .optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}; pass takes atLeast, atMost, labels and objective` : undefined) },
  )
  .superRefine((pass, context) => {
    const range = pass.atLeast !== undefined || pass.atMost !== undefined;
    if (!range && pass.labels === undefined) {
      context.addIssue({ code: 'custom', message: 'say what passes: { atLeast: 0.7 }, { atMost: 0.2 }, both, or { labels: [...] } for a classifier scorer', path: [] });
    }
    if (range && pass.labels !== undefined) {
      context.addIssue({ code: 'custom', message: 'labels cannot be combined with atLeast/atMost: a classifier choice passes by its label', path: ['labels'] });
    }
    if (pass.atLeast !== undefined && pass.atMost !== undefined && pass.atLeast > pass.atMost) {
      context.addIssue({ code: 'custom', message: `atLeast (${pass.atLeast}) is above atMost (${pass.atMost}): no score could pass`, path: ['atLeast'] });
    }
  });

export type PassCriterion = z.output<typeof passCriterionSchema>;

/** The choice a classifier scorer selected, from its analyze step's evidence (src/kit/classifier/classifier-projection.ts). */
export function selectedChoice(analyzeStepResult: unknown): string | undefined {
  const answer = (analyzeStepResult as { answer?: { type?: unknown; choice?: unknown } } | null | undefined)?.answer;
  return answer?.type === 'choice' && typeof answer.choice === 'string' ? answer.choice : undefined;
}

/**
 * The verdict of one score. For a label criterion the selected choice decides; a result without
 * one (a scorer that is not a classifier of a choice question, which the config check refuses
 * when it can tell) has no verdict.
 */
export function verdictFor(pass: PassCriterion, score: number, analyzeStepResult: unknown): Verdict | undefined {
  if (pass.labels !== undefined) {
    const choice = selectedChoice(analyzeStepResult);
    return choice === undefined ? undefined : pass.labels.includes(choice) ? 'pass' : 'fail';
  }
  if (pass.atLeast !== undefined && !(score >= pass.atLeast)) return 'fail';
  if (pass.atMost !== undefined && !(score <= pass.atMost)) return 'fail';
  return 'pass';
}

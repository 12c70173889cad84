// A binding's `escalate` option (docs/spend-and-replay.md, escalation): run this binding — typically an LLM
// judge — only on the runs that cheaper scorers of the same run send to it, plus a deterministic
// share `sample` judged anyway, so the judge's agreement with the cheap tier stays measured on the
// runs that tier passed. `when` is a predicate of the filter language over the run's context and
// `scores.<scorerId>`: each earlier binding's outcome on this run (decide-escalation.ts). The
// scorers it reads are its dependencies, run first (escalation-order.ts).
import { z } from 'zod';
import { compileParsedPredicate } from '../eligibility/compile-predicate.ts';
import { PREDICATE_ROOTS } from '../eligibility/predicate-context.ts';
import { parsePath } from '../eligibility/predicate-paths.ts';
import { predicateSchemaFor } from '../eligibility/predicate-schema.ts';
import type { Predicate } from '../eligibility/predicate-schema.ts';

/** The root under which a predicate reads the run's earlier scores: `scores.<scorerId>.<field>`. */
export const SCORES_ROOT = 'scores';

/** What an escalation predicate may read: the earlier scores and everything a filter may. */
export const ESCALATION_ROOTS: readonly string[] = [SCORES_ROOT, ...PREDICATE_ROOTS];

/** The share of the runs the cheap tier passed that a binding judges anyway, unless it says otherwise. */
export const DEFAULT_ESCALATION_SAMPLE = 0.05;

const sampleMessage = (issue: { input?: unknown }) => `sample must be a number from 0 to 1 (e.g. 0.05 judges 5% of the runs not escalated), got ${JSON.stringify(issue.input) ?? String(issue.input)}`;

/** Every path a predicate reads, in document order. */
function pathsOf(predicate: Predicate): string[] {
  switch (predicate.op) {
    case 'and':
    case 'or':
      return predicate.args.flatMap(pathsOf);
    case 'not':
      return pathsOf(predicate.arg);
    case 'exists':
    case 'notExists':
      return [predicate.path];
    default: {
      const refs = 'left' in predicate ? [predicate.left, predicate.right] : [predicate.value];
      return refs.flatMap((ref) => (ref.path === undefined ? [] : [ref.path]));
    }
  }
}

/** What a predicate may read of an earlier score (decide-escalation.ts, EarlierScore). */
export const EARLIER_SCORE_FIELDS = ['status', 'score', 'verdict', 'passed', 'label', 'reason'] as const;
export type EarlierScoreField = (typeof EARLIER_SCORE_FIELDS)[number];

/** Each `scores.<id>.<field>` a predicate reads, in document order; a bare `scores` path gives id '', `scores.<id>` field ''. */
export function scoreReadsOf(predicate: Predicate): { id: string; field: string }[] {
  return pathsOf(predicate).flatMap((path) => {
    const parsed = parsePath(path);
    return parsed?.root === SCORES_ROOT ? [{ id: parsed.rest[0] ?? '', field: parsed.rest.slice(1).join('.') }] : [];
  });
}

/** The scorer ids a predicate reads under `scores`, each once; a bare `scores` path yields ''. */
export function scorersReadBy(predicate: Predicate): string[] {
  return [...new Set(scoreReadsOf(predicate).map((read) => read.id))];
}

export const escalateSchema = z
  .strictObject(
    {
      /** When the earlier scores call for this binding, e.g. `{ op: 'eq', left: { path: 'scores.tool-check.verdict' }, right: { literal: 'fail' } }`. */
      when: predicateSchemaFor(ESCALATION_ROOTS),
      /** The share of the other runs judged anyway, chosen by the run's sampling key (default 0.05). */
      sample: z.number({ error: sampleMessage }).min(0, { error: sampleMessage }).max(1, { error: sampleMessage }).default(DEFAULT_ESCALATION_SAMPLE),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}; escalate takes when and sample` : undefined) },
  )
  .superRefine((escalate, context) => {
    const read = scorersReadBy(escalate.when);
    if (read.length === 0) context.addIssue({ code: 'custom', path: ['when'], message: "escalate.when reads no earlier score; name one as scores.<scorerId>.<field> (status, score, verdict, passed, label), or use filter for a condition on the run alone" });
    if (read.includes('')) context.addIssue({ code: 'custom', path: ['when'], message: 'a path under scores must name a scorer: scores.<scorerId>.<field>' });
  })
  .transform((escalate) => ({ ...escalate, after: scorersReadBy(escalate.when), reads: scoreReadsOf(escalate.when), matches: compileParsedPredicate(escalate.when) }));

export type ResolvedEscalate = z.output<typeof escalateSchema>;

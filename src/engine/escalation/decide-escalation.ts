// Whether a binding with `escalate` runs on one run (docs/spend-and-replay.md, escalation), from the
// outcomes of the scorers it reads: `escalated` when its `when` holds over them, else `sampled`
// when the run falls in its sample, else `not_escalated`. What the predicate sees of each earlier
// binding is `scores.<scorerId>`: its status (scored, not_scorable, failed, skipped, deferred),
// and when it was scored its score, its verdict (`passed` true or false when the binding declares
// `pass`) and a classifier's selected label. The sample is deterministic, by the run's sampling key
// salted with the binding's scorer id: retries, replays and replicas agree, and it is a slice of
// traffic of its own, independent of the binding's `sampling` and of other scorers' samples. Pure.
import type { Escalation } from '../../kit/contracts/escalation.ts';
import { selectedChoice } from '../../kit/verdict/pass-criterion.ts';
import { samplingBucket, saltedSamplingKey } from '../eligibility/sampling.ts';
import type { RunFacts } from '../pipeline/run-facts.ts';
import type { ScoringOutcome } from '../pipeline/scoring-outcome.ts';
import type { ResolvedEscalate } from './escalation-schema.ts';
import { SCORES_ROOT } from './escalation-schema.ts';

/** An earlier binding's outcome on the run, as an escalation predicate reads it. */
export type EarlierScore = {
  status: 'scored' | 'not_scorable' | 'failed' | 'skipped' | 'deferred';
  score?: number;
  verdict?: 'pass' | 'fail';
  passed?: boolean;
  label?: string;
  /** Why it was skipped or put off (its decision's reason). */
  reason?: string;
};

export type EscalationDecision = { run: boolean; escalation: Escalation; detail: string };

export function earlierScoreOf(outcome: ScoringOutcome): EarlierScore {
  if (outcome.kind === 'skipped') return { status: 'skipped', reason: outcome.decision.reason };
  if (outcome.kind === 'deferred') return { status: 'deferred', reason: outcome.decision.reason };
  const { record } = outcome;
  if (record.status !== 'scored') return { status: record.status };
  const label = selectedChoice(record.steps.analyze);
  return {
    status: 'scored',
    score: record.score,
    ...(record.verdict === undefined ? {} : { verdict: record.verdict, passed: record.verdict === 'pass' }),
    ...(label === undefined ? {} : { label }),
  };
}

function describeEarlier(scorerId: string, earlier: EarlierScore | undefined): string {
  if (earlier === undefined) return `${scorerId}: no outcome`;
  if (earlier.status !== 'scored') return `${scorerId}: ${earlier.status}${earlier.reason === undefined ? '' : ` (${earlier.reason})`}`;
  const verdict = earlier.verdict === undefined ? '' : ` ${earlier.verdict}`;
  const label = earlier.label === undefined ? '' : ` '${earlier.label}'`;
  return `${scorerId}: ${earlier.score}${verdict}${label}`;
}

/** The salted key of a binding's escalation sample: its own slice, the same for every version of the scorer. */
export function escalationSampleKey(scorerId: string, samplingKey: string): string {
  return saltedSamplingKey(samplingKey, `escalate:${scorerId}`);
}

/** `earlier`: the outcomes of the scorers `escalate.after` names, by scorer id. */
export function decideEscalation(scorerId: string, escalate: ResolvedEscalate, earlier: ReadonlyMap<string, ScoringOutcome>, facts: Pick<RunFacts, 'predicateContext' | 'samplingKey'>): EscalationDecision {
  const scores: Record<string, EarlierScore> = {};
  for (const [id, outcome] of earlier) scores[id] = earlierScoreOf(outcome);
  const read = escalate.after.map((id) => describeEarlier(id, scores[id])).join('; ');
  const bucket = samplingBucket(escalationSampleKey(scorerId, facts.samplingKey));
  const sample = { rate: escalate.sample, bucket };
  const after = [...escalate.after];
  const context = { ...facts.predicateContext, [SCORES_ROOT]: scores };
  if (escalate.matches(context)) {
    return { run: true, escalation: { tier: 'escalated', after, sample }, detail: `escalated on ${read}` };
  }
  if (bucket < escalate.sample) return { run: true, escalation: { tier: 'sampled', after, sample }, detail: `in the escalation sample (${read})` };
  return { run: false, escalation: { tier: 'not_escalated', after, sample }, detail: `not escalated: ${read}; escalate.when is false and the run is not in the ${escalate.sample} sample` };
}

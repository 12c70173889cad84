// Whether one scorer binding runs on one run event, and if not, why. Order: a declined trace
// (only when the deployment follows trace sampling: `traceSampling: 'follow'`), the declarative filter, the function filter, then deterministic sampling — cheap and
// context-only checks first, and sampling last so the recorded bucket explains the decision.
// Filters fail closed: a predicate that throws skips the scorer and says so.
import type { Sampling } from '../../kit/contracts/common.ts';
import type { Escalation } from '../../kit/contracts/escalation.ts';
import type { SkipReason } from '../../kit/contracts/decision-record.ts';
import { decideSampling, samplingBucket, saltedSamplingKey } from '../eligibility/sampling.ts';
import type { TraceSamplingPolicy } from '../config/config-types.ts';
import { DEFAULTS } from '../config/defaults.ts';
import type { ResolvedBinding } from '../config/resolve-config.ts';
import type { RunFacts } from './run-facts.ts';

export type Eligibility =
  // `escalation`: set for a binding with `escalate` once its earlier scores sent the run to it (src/engine/escalation/).
  | { eligible: true; sampling?: Sampling; escalation?: Escalation }
  | { eligible: false; reason: SkipReason; detail?: string; sampling?: Sampling };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `traceSampling`: whether a run whose propagated trace is not sampled is skipped (`follow`) or scored (`ignore`, the default). */
export async function decideEligibility<Event>(binding: ResolvedBinding<Event>, facts: RunFacts, traceSampling: TraceSamplingPolicy = DEFAULTS.traceSampling): Promise<Eligibility> {
  if (facts.trace.sampled === false && traceSampling === 'follow') {
    return { eligible: false, reason: 'trace_not_sampled', detail: 'the propagated trace context is not sampled' };
  }
  if (binding.matchesFilter !== undefined) {
    try {
      if (!binding.matchesFilter(facts.predicateContext)) return { eligible: false, reason: 'filter' };
    } catch (error) {
      return { eligible: false, reason: 'predicate_error', detail: `filter: ${messageOf(error)}` };
    }
  }
  if (binding.when !== undefined) {
    try {
      if (!(await binding.when(facts.event as Event))) return { eligible: false, reason: 'when' };
    } catch (error) {
      return { eligible: false, reason: 'predicate_error', detail: `when: ${messageOf(error)}` };
    }
  }
  const sampling = binding.sampling;
  if (sampling === undefined || sampling.type === 'none') return { eligible: true };
  // One hash per (run, binding): the decision and the bucket it records come from the same call.
  // At rate 0 or 1 the decision needs no hash, but the record still explains it with the bucket.
  const decided = decideSampling(sampling, facts.samplingKey);
  const bucket = decided.bucket ?? samplingBucket(saltedSamplingKey(facts.samplingKey, sampling.salt));
  const decision: Sampling = { rate: sampling.rate, bucket };
  return decided.sampled ? { eligible: true, sampling: decision } : { eligible: false, reason: 'sampling', sampling: decision };
}

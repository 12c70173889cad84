// A thread's admission (docs/threads.md, sampling once per thread): on its first turn, every thread
// binding decides — declined trace aside, as for runs: filter, when, sampling — and the state keeps
// the decision for the thread's life, so later turns and a restore never roll it again. Sampling
// hashes the thread key, so every replica and every replay of the thread decides alike.
import type { ResolvedThreadBinding } from '../config/config-types.ts';
import type { ThreadTurn } from '../../kit/contracts/thread-turn.ts';
import { ScorestreamError } from '../../kit/errors.ts';
import { decideEligibility } from '../pipeline/decide-eligibility.ts';
import { collectRunFacts } from '../pipeline/run-facts.ts';
import { bindingKeyOf } from './thread-part.ts';
import type { Admission, ThreadPolicy } from './thread-part.ts';

/**
 * The admissions of `policies` (what ThreadState.missingAdmissions named) for the thread of `turn`.
 * A turn's propagated "not sampled" flag does not decide a thread: a thread spans many traces.
 */
export async function admitThread<Event>(bindings: readonly ResolvedThreadBinding<Event>[], turn: ThreadTurn, policies: readonly ThreadPolicy[]): Promise<Map<string, Admission>> {
  const { sampled: _sampled, ...trace } = turn.trace;
  const facts = collectRunFacts(turn.run, turn.source, trace);
  const threadFacts = { ...facts, samplingKey: turn.thread.key, predicateContext: { ...facts.predicateContext, threadId: turn.thread.id } };
  const admissions = new Map<string, Admission>();
  for (const policy of policies) {
    const binding = bindings.find((candidate) => bindingKeyOf(candidate.scorerId, candidate.version) === policy.binding);
    if (binding === undefined) throw new ScorestreamError(`no thread binding for ${policy.binding}: build the thread state's policies from the same bindings (threadPoliciesOf)`, { code: 'thread_binding_missing' });
    admissions.set(policy.binding, await decideEligibility(binding, threadFacts));
  }
  return admissions;
}

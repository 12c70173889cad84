// admitThread: a thread's bindings decide once, on its first turn — filter, when, sampling by the thread key.
import { describe, expect, it } from 'vitest';
import { decideSampling } from '../../../../../src/engine/eligibility/sampling.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { admitThread } from '../../../../../src/engine/threads/admit-thread.ts';
import { threadPoliciesOf } from '../../../../../src/engine/threads/thread-part.ts';
import { threadBindings, turnOf } from './fixtures.ts';

const scorer = (id: string) => createScorer({ id, description: 'd' }).generateScore(() => 1);

describe('admitThread', () => {
  it('samples by the thread key, so every turn of the thread (and every replica) decides alike', async () => {
    const bindings = threadBindings({ scorer: scorer('sampled'), sampling: { type: 'ratio', rate: 0.5 } });
    const policies = threadPoliciesOf(bindings);
    const expected = decideSampling({ type: 'ratio', rate: 0.5 }, 'acme:t-1');
    for (const runId of ['run-1', 'run-2', 'run-3']) {
      const admissions = await admitThread(bindings, turnOf({ runId }).turn, policies);
      expect(admissions.get(policies[0]!.binding)).toEqual(expected.sampled ? { eligible: true, sampling: { rate: 0.5, bucket: expected.bucket } } : { eligible: false, reason: 'sampling', sampling: { rate: 0.5, bucket: expected.bucket } });
    }
  });

  it('applies the filter to the first turn, with threadId the thread id, and hands `when` the run', async () => {
    const runs: unknown[] = [];
    const bindings = threadBindings(
      { scorer: scorer('gold-only'), filter: { op: 'eq', left: { path: 'requestContext.tier' }, right: { literal: 'silver' } } },
      { scorer: scorer('this-thread'), filter: { op: 'eq', left: { path: 'threadId' }, right: { literal: 't-1' } } },
      { scorer: scorer('by-when'), when: (event) => (runs.push(event), false) },
    );
    const policies = threadPoliciesOf(bindings);
    const { turn } = turnOf({ runId: 'run-1' });
    const admissions = await admitThread(bindings, turn, policies);
    expect(policies.map((policy) => admissions.get(policy.binding))).toEqual([{ eligible: false, reason: 'filter' }, { eligible: true }, { eligible: false, reason: 'when' }]);
    expect(runs).toEqual([turn.run]);
  });

  it('fails closed on a predicate that throws, and is not decided by a turn whose trace is not sampled', async () => {
    const bindings = threadBindings({ scorer: scorer('throws'), when: () => { throw new Error('no tier'); } }, { scorer: scorer('plain') });
    const policies = threadPoliciesOf(bindings);
    const { turn } = turnOf({ runId: 'run-1' });
    const admissions = await admitThread(bindings, { ...turn, trace: { ...turn.trace, sampled: false } }, policies);
    expect(admissions.get(policies[0]!.binding)).toEqual({ eligible: false, reason: 'predicate_error', detail: 'when: no tier' });
    expect(admissions.get(policies[1]!.binding)).toEqual({ eligible: true });
  });

  it('only admits the policies it is given, and refuses one it has no binding for', async () => {
    const bindings = threadBindings({ scorer: scorer('a') }, { scorer: scorer('b') });
    const policies = threadPoliciesOf(bindings);
    expect([...(await admitThread(bindings, turnOf({ runId: 'run-1' }).turn, [policies[1]!])).keys()]).toEqual([policies[1]!.binding]);
    await expect(admitThread([bindings[0]!], turnOf({ runId: 'run-1' }).turn, policies)).rejects.toMatchObject({ code: 'thread_binding_missing' });
  });
});

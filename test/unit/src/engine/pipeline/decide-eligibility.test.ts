// decideEligibility (docs/scorers.md, eligibility filters and deterministic sampling): a declined
// trace (skipped only with traceSampling 'follow'), the declarative filter, the function filter, then deterministic sampling, in that order;
// filters fail closed.
import { describe, expect, it, vi } from 'vitest';
import { parseDecisionRecord, parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import { samplingBucket } from '../../../../../src/engine/eligibility/sampling.ts';
import { decideEligibility } from '../../../../../src/engine/pipeline/decide-eligibility.ts';
import { scoreRunEvent as outcomesOf } from '../../../../../src/engine/pipeline/score-run-event.ts';
import { settleOutcomes } from '../../../../../src/engine/pipeline/scoring-outcome.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { traceFor } from '../../../../helpers/runs.ts';
import { binding, bindings, runFacts } from './fixtures.ts';

/** A run's records and decisions once every binding is done (the transport takes them one by one as they finish). */
const scoreRunEvent = (...args: Parameters<typeof outcomesOf>) => settleOutcomes(outcomesOf(...args));

const scorer = createScorer({ id: 'answer-length', description: 'd' }).generateScore(() => 1);
const otherScorer = createScorer({ id: 'tone', description: 'd' }).generateScore(() => 1);

describe('decideEligibility', () => {
  describe("a declined trace, with traceSampling 'follow'", () => {
    it('skips a binding with nothing else configured when the propagated trace is not sampled', async () => {
      expect(await decideEligibility(binding({ scorer }), runFacts({ runId: 'run-1', trace: true, sampled: false }), 'follow')).toEqual({
        eligible: false,
        reason: 'trace_not_sampled',
        detail: 'the propagated trace context is not sampled',
      });
    });

    it('skips every binding before running any filter', async () => {
      const when = vi.fn(() => true);
      const facts = runFacts({ runId: 'run-1', trace: true, sampled: false });
      const all = bindings({ scorer, when }, { scorer: otherScorer, sampling: { type: 'ratio', rate: 1 }, filter: { op: 'exists', path: 'requestContext.tier' } });
      const { records, decisions } = await scoreRunEvent(facts, { bindings: all, now: () => 0, traceSampling: 'follow' });
      expect(records).toEqual([]);
      expect(decisions.map((decision) => [decision.scorerId, decision.reason])).toEqual([
        ['answer-length', 'trace_not_sampled'],
        ['tone', 'trace_not_sampled'],
      ]);
      expect(when).not.toHaveBeenCalled();
      for (const decision of decisions) {
        expect(parseDecisionRecord(decision).success).toBe(true);
        // The decision says the trace was declined, so a reader needs no second lookup.
        expect(decision.trace).toMatchObject({ sampled: false });
      }
    });

    it('is not a decline when the run carries no trace context at all', async () => {
      expect(await decideEligibility(binding({ scorer }), runFacts({ runId: 'run-1' }), 'follow')).toEqual({ eligible: true });
    });

    it('is not a decline when the trace is sampled', async () => {
      expect(await decideEligibility(binding({ scorer }), runFacts({ runId: 'run-1', trace: true }), 'follow')).toEqual({ eligible: true });
    });
  });

  describe("a declined trace, with traceSampling 'ignore' (the default)", () => {
    it('scores the run: coverage does not follow the trace sampling rate', async () => {
      const facts = runFacts({ runId: 'run-1', trace: true, sampled: false });
      expect(await decideEligibility(binding({ scorer }), facts)).toEqual({ eligible: true });
      expect(await decideEligibility(binding({ scorer }), facts, 'ignore')).toEqual({ eligible: true });
    });

    it("still applies the binding's own filters and sampling", async () => {
      const facts = runFacts({ runId: 'run-1', trace: true, sampled: false, requestContext: { tier: 'silver' } });
      const goldOnly = { op: 'eq', left: { path: 'requestContext.tier' }, right: { literal: 'gold' } } as const;
      expect(await decideEligibility(binding({ scorer, filter: goldOnly }), facts, 'ignore')).toEqual({ eligible: false, reason: 'filter' });
      expect(await decideEligibility(binding({ scorer, sampling: { type: 'ratio', rate: 0 } }), facts, 'ignore')).toMatchObject({ eligible: false, reason: 'sampling' });
    });

    it('gives the record the trace ids and `sampled: false`, and no score span id (nothing was recorded)', async () => {
      const facts = runFacts({ runId: 'run-1', trace: true, sampled: false });
      const { records, decisions } = await scoreRunEvent(facts, { bindings: bindings({ scorer }), now: () => 0 });
      expect(decisions).toEqual([]);
      expect(records).toHaveLength(1);
      expect(parseScoreRecord(records[0]!).success).toBe(true);
      expect(records[0]!.trace).toEqual({ traceId: facts.trace.traceId, parentSpanId: facts.trace.spanId, sampled: false });
    });
  });

  describe('the declarative filter', () => {
    const goldOnly = { op: 'eq', left: { path: 'requestContext.tier' }, right: { literal: 'gold' } };

    it('runs the scorer when the predicate holds', async () => {
      expect(await decideEligibility(binding({ scorer, filter: goldOnly }), runFacts({ runId: 'run-1', requestContext: { tier: 'gold' } }))).toEqual({ eligible: true });
    });

    it('skips with reason "filter" when it does not', async () => {
      expect(await decideEligibility(binding({ scorer, filter: goldOnly }), runFacts({ runId: 'run-1', requestContext: { tier: 'free' } }))).toEqual({ eligible: false, reason: 'filter' });
    });

    it('sees the flattened request context, entity, metadata and run id', async () => {
      const filter = {
        op: 'and',
        args: [
          { op: 'eq', left: { path: 'requestContext.user.plan' }, right: { literal: 'pro' } },
          { op: 'eq', left: { path: 'entity.id' }, right: { literal: 'support-agent' } },
          { op: 'eq', left: { path: 'entityType' }, right: { literal: 'AGENT' } },
          { op: 'eq', left: { path: 'source' }, right: { literal: 'LIVE' } },
          { op: 'eq', left: { path: 'metadata.tenantId' }, right: { literal: 'acme' } },
          { op: 'eq', left: { path: 'runId' }, right: { literal: 'run-9' } },
          { op: 'eq', left: { path: 'traceId' }, right: { literal: traceFor('run-9').traceId } },
        ],
      };
      const facts = runFacts({ runId: 'run-9', trace: true, requestContext: { user: { plan: 'pro' } } });
      expect(await decideEligibility(binding({ scorer, filter }), facts)).toEqual({ eligible: true });
    });

    it('fails closed when the filter throws: skipped with predicate_error and the message', async () => {
      const resolved = {
        ...binding({ scorer }),
        matchesFilter: () => {
          throw new Error('cannot compare');
        },
      };
      expect(await decideEligibility(resolved, runFacts({ runId: 'run-1' }))).toEqual({ eligible: false, reason: 'predicate_error', detail: 'filter: cannot compare' });
    });

    it('runs before `when`, which is not called when the filter says no', async () => {
      const when = vi.fn(() => true);
      await decideEligibility(binding({ scorer, filter: goldOnly, when }), runFacts({ runId: 'run-1', requestContext: { tier: 'free' } }));
      expect(when).not.toHaveBeenCalled();
    });
  });

  describe('the function filter `when`', () => {
    it('gets the run event and runs the scorer when it returns true', async () => {
      const when = vi.fn((event: { runId: string }) => event.runId === 'run-1');
      const facts = runFacts({ runId: 'run-1' });
      expect(await decideEligibility(binding({ scorer, when }), facts)).toEqual({ eligible: true });
      expect(when).toHaveBeenCalledWith(facts.event);
    });

    it('skips with reason "when" when it returns false', async () => {
      expect(await decideEligibility(binding({ scorer, when: () => false }), runFacts({ runId: 'run-1' }))).toEqual({ eligible: false, reason: 'when' });
    });

    it('may be async', async () => {
      expect(await decideEligibility(binding({ scorer, when: async () => false }), runFacts({ runId: 'run-1' }))).toEqual({ eligible: false, reason: 'when' });
      expect(await decideEligibility(binding({ scorer, when: async () => true }), runFacts({ runId: 'run-1' }))).toEqual({ eligible: true });
    });

    it('fails closed when it throws or rejects', async () => {
      const throwing = () => {
        throw new TypeError("Cannot read properties of undefined (reading 'plan')");
      };
      expect(await decideEligibility(binding({ scorer, when: throwing }), runFacts({ runId: 'run-1' }))).toEqual({
        eligible: false,
        reason: 'predicate_error',
        detail: "when: Cannot read properties of undefined (reading 'plan')",
      });
      const rejecting = () => Promise.reject(new Error('lookup failed'));
      expect(await decideEligibility(binding({ scorer, when: rejecting }), runFacts({ runId: 'run-1' }))).toEqual({ eligible: false, reason: 'predicate_error', detail: 'when: lookup failed' });
    });

    it('runs before sampling, so a skipped run records no bucket', async () => {
      const result = await decideEligibility(binding({ scorer, when: () => false, sampling: { type: 'ratio', rate: 1 } }), runFacts({ runId: 'run-1' }));
      expect(result).toEqual({ eligible: false, reason: 'when' });
    });
  });

  describe('sampling', () => {
    it('scores every run without sampling or with { type: "none" }, and records no sampling', async () => {
      for (const runId of ['run-2', 'run-7', 'run-8']) {
        expect(await decideEligibility(binding({ scorer }), runFacts({ runId }))).toEqual({ eligible: true });
        expect(await decideEligibility(binding({ scorer, sampling: { type: 'none' } }), runFacts({ runId }))).toEqual({ eligible: true });
      }
    });

    it('hashes the trace id when there is one, and records rate and bucket', async () => {
      const facts = runFacts({ runId: 'run-2', trace: true });
      const bucket = samplingBucket(traceFor('run-2').traceId);
      const result = await decideEligibility(binding({ scorer, sampling: { type: 'ratio', rate: 0.5 } }), facts);
      expect(result).toEqual(bucket < 0.5 ? { eligible: true, sampling: { rate: 0.5, bucket } } : { eligible: false, reason: 'sampling', sampling: { rate: 0.5, bucket } });
      expect(bucket).not.toBe(samplingBucket('run-2'));
    });

    it('hashes the run id when there is no trace id', async () => {
      // u('run-2') = 0.7258..., u('run-3') = 0.0798... (reference values of the sampling hash).
      expect(await decideEligibility(binding({ scorer, sampling: { type: 'ratio', rate: 0.5 } }), runFacts({ runId: 'run-2' }))).toEqual({
        eligible: false,
        reason: 'sampling',
        sampling: { rate: 0.5, bucket: 0.7258521436349668 },
      });
      expect(await decideEligibility(binding({ scorer, sampling: { type: 'ratio', rate: 0.5 } }), runFacts({ runId: 'run-3' }))).toEqual({
        eligible: true,
        sampling: { rate: 0.5, bucket: 0.07985293341542032 },
      });
    });

    it('hashes `${salt}:${key}` with a salt, and decides on that same bucket', async () => {
      const salt = 'experiment-7';
      for (const runId of ['run-1', 'run-2', 'run-3', 'run-4', 'run-5', 'run-6', 'run-7', 'run-8']) {
        const bucket = samplingBucket(`${salt}:${runId}`);
        const result = await decideEligibility(binding({ scorer, sampling: { type: 'ratio', rate: 0.5, salt } }), runFacts({ runId }));
        expect(result.sampling).toEqual({ rate: 0.5, bucket });
        expect(result.eligible).toBe(bucket < 0.5);
      }
    });

    it('never scores at rate 0 and always at rate 1', async () => {
      for (const runId of ['run-1', 'run-3', 'run-8']) {
        const facts = runFacts({ runId });
        expect(await decideEligibility(binding({ scorer, sampling: { type: 'ratio', rate: 0 } }), facts)).toMatchObject({ eligible: false, reason: 'sampling' });
        expect(await decideEligibility(binding({ scorer, sampling: { type: 'ratio', rate: 1 } }), facts)).toMatchObject({ eligible: true, sampling: { rate: 1 } });
      }
    });

    it('scores exactly run-1, 3, 4, 5, 6 of run-1..run-8 at rate 0.5 without trace context (the spec’s end-to-end check)', async () => {
      const sampled = binding({ scorer, sampling: { type: 'ratio', rate: 0.5 } });
      const runIds = ['run-1', 'run-2', 'run-3', 'run-4', 'run-5', 'run-6', 'run-7', 'run-8'];
      const decisions = await Promise.all(runIds.map((runId) => decideEligibility(sampled, runFacts({ runId }))));
      expect(runIds.filter((_, index) => decisions[index]!.eligible)).toEqual(['run-1', 'run-3', 'run-4', 'run-5', 'run-6']);
    });

    it('scores the same runs for every scorer at the same rate (no salt)', async () => {
      const [first, second] = bindings({ scorer, sampling: { type: 'ratio', rate: 0.3 } }, { scorer: otherScorer, sampling: { type: 'ratio', rate: 0.3 } });
      for (let index = 0; index < 50; index += 1) {
        const facts = runFacts({ runId: `run-${index}`, trace: index % 2 === 0 });
        expect((await decideEligibility(first!, facts)).eligible).toBe((await decideEligibility(second!, facts)).eligible);
      }
    });
  });
});

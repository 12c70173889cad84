// Escalation (docs/scorers.md, escalation): a binding with `escalate` runs after the scorers its
// `when` reads and only on the runs their outcomes send to it, or in its sample; the others get a
// `not_escalated` decision saying what was read. Config mistakes — an unknown, ambiguous or own
// scorer, a thread binding, a cycle — are refused at load with the field and what to do.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import type { ScorerBindingInput } from '../../../../../src/engine/config/config-types.ts';
import { escalateSchema } from '../../../../../src/engine/escalation/escalation-schema.ts';
import { decideEscalation, escalationSampleKey } from '../../../../../src/engine/escalation/decide-escalation.ts';
import { samplingBucket } from '../../../../../src/engine/eligibility/sampling.ts';
import { scoreRunEvent, skippedOutcome } from '../../../../../src/engine/pipeline/score-run-event.ts';
import { settleOutcomes } from '../../../../../src/engine/pipeline/scoring-outcome.ts';
import { parseDecisionRecord, parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { selectScorers } from '../../../../../service/replay.ts';
import { budgetSchema, pricingSchema } from '../../../../../src/engine/budget/budget-schema.ts';
import { createJudgeSpend } from '../../../../../src/engine/budget/judge-spend.ts';
import { scoreRetry } from '../../../../../src/engine/pipeline/score-retry.ts';
import { scoreRescore } from '../../../../../src/engine/pipeline/score-rescore.ts';
import { bindings, deferred, runFacts } from '../pipeline/fixtures.ts';

/** The cheap tier: fails a run whose id ends in "-bad". */
const cheapCheck = createScorer({ id: 'cheap-check', description: 'd' }).generateScore(({ run }) => (String((run as { runId?: string }).runId ?? '').endsWith('-bad') ? 0 : 1));
const failsWhenBad = { op: 'eq', left: { path: 'scores.cheap-check.passed' }, right: { literal: false } } as const;

function countingJudge(id = 'judge') {
  const calls: string[] = [];
  const scorer = createScorer({ id, description: 'd' }).generateScore(({ run }) => {
    calls.push(String((run as { runId?: string }).runId));
    return 0.5;
  });
  return { scorer, calls };
}

function configWith(scorers: ScorerBindingInput[]) {
  return () => resolveConfig({ kafka: { brokers: ['localhost:9092'] }, scorers });
}

describe('escalate at config load', () => {
  const judge = countingJudge().scorer;
  const cheap = { scorer: cheapCheck, pass: { atLeast: 0.5 } };

  it('refuses a scorer that is not bound, bound twice, itself, and a thread binding, each at its field', () => {
    expect(configWith([cheap, { scorer: judge, escalate: { when: { op: 'truthy', value: { path: 'scores.nope.passed' } } } }])).toThrow(/scorers\[1\]\.escalate\.when: reads scores\.nope, but no scorer 'nope' is bound at run level; bound: 'cheap-check', 'judge'/);
    expect(configWith([cheap, { ...cheap, version: '2' }, { scorer: judge, escalate: { when: failsWhenBad } }])).toThrow(/scorer 'cheap-check' is bound 2 times \(scorers\[0\], scorers\[1\]\)/);
    expect(configWith([cheap, { scorer: judge, escalate: { when: { op: 'exists', path: 'scores.judge.score' } } }])).toThrow(/scorer 'judge' cannot escalate on its own score/);
    expect(configWith([cheap, { scorer: judge, level: 'thread', escalate: { when: failsWhenBad } }])).toThrow(/scorers\[1\]\.escalate: escalate applies to bindings that score runs/);
  });

  it('refuses a cycle once, naming its scorers in order', () => {
    const a = createScorer({ id: 'a', description: 'd' }).generateScore(() => 1);
    const b = createScorer({ id: 'b', description: 'd' }).generateScore(() => 1);
    const c = createScorer({ id: 'c', description: 'd' }).generateScore(() => 1);
    const reads = (id: string) => ({ when: { op: 'exists', path: `scores.${id}.score` } as const });
    let message = '';
    try {
      configWith([{ scorer: a, escalate: reads('b') }, { scorer: b, escalate: reads('c') }, { scorer: c, escalate: reads('a') }])();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/escalations form a cycle \('a' → 'b' → 'c' → 'a'\): each would wait for the other's score/);
    expect(message.match(/form a cycle/g)).toHaveLength(1);
  });

  it('refuses a predicate that reads no earlier score, a bare scores path, a bad sample and unknown keys', () => {
    expect(configWith([cheap, { scorer: judge, escalate: { when: { op: 'eq', left: { path: 'metadata.tenantId' }, right: { literal: 'a' } } } }])).toThrow(/escalate.when reads no earlier score; name one as scores.<scorerId>.<field>/);
    expect(configWith([cheap, { scorer: judge, escalate: { when: { op: 'exists', path: 'scores' } } }])).toThrow(/a path under scores must name a scorer/);
    expect(configWith([cheap, { scorer: judge, escalate: { when: failsWhenBad, sample: 5 } }])).toThrow(/sample must be a number from 0 to 1.*got 5/);
    expect(configWith([cheap, { scorer: judge, escalate: { when: failsWhenBad, rate: 0.1 } as never }])).toThrow(/unknown key\(s\) rate; escalate takes when and sample/);
    expect(configWith([cheap, { scorer: judge, escalate: { when: { op: 'eq', left: { path: 'output.text' }, right: { literal: 1 } } } }])).toThrow(/must start with one of: scores, requestContext/);
  });

  it('refuses a field no earlier score has, a verdict of a scorer without pass, a label of a scorer that is not a classifier, and an id with a dot', () => {
    expect(configWith([cheap, { scorer: judge, escalate: { when: { op: 'eq', left: { path: 'scores.cheap-check.verdit' }, right: { literal: 'fail' } } } }])).toThrow(/reads scores\.cheap-check\.verdit, but 'verdit' is not a field of a score: read one of scores\.cheap-check\.status, scores\.cheap-check\.score, scores\.cheap-check\.verdict/);
    expect(configWith([cheap, { scorer: judge, escalate: { when: { op: 'exists', path: 'scores.cheap-check' } } }])).toThrow(/reads scores\.cheap-check, but no field is named: read one of/);
    expect(configWith([{ scorer: cheapCheck }, { scorer: judge, escalate: { when: failsWhenBad } }])).toThrow(/reads scores\.cheap-check\.passed, but scorer 'cheap-check' declares no pass, so its records carry no verdict/);
    expect(configWith([cheap, { scorer: judge, escalate: { when: { op: 'eq', left: { path: 'scores.cheap-check.label' }, right: { literal: 'curt' } } } }])).toThrow(/reads scores\.cheap-check\.label, but scorer 'cheap-check' is not a classifier of a choice question/);
    const dotted = createScorer({ id: 'checks.tools', description: 'd' }).generateScore(() => 1);
    expect(configWith([{ scorer: dotted }, { scorer: judge, escalate: { when: { op: 'lt', left: { path: 'scores.checks.tools.score' }, right: { literal: 1 } } } }])).toThrow(/scorer 'checks\.tools' has a dot in its id, which a path reads as a field: give it an id without dots/);
  });

  it('defaults the sample to 5%', () => {
    const [, resolved] = configWith([cheap, { scorer: judge, escalate: { when: failsWhenBad } }])().scorers;
    expect(resolved!.escalate).toMatchObject({ sample: 0.05, after: ['cheap-check'] });
  });
});

describe('escalation on a run', () => {
  it('runs the judge only where the cheap tier failed the run; the others get a not_escalated decision saying what was read', async () => {
    const { scorer, calls } = countingJudge();
    // The judge is bound first: it still waits for the cheap tier's outcome.
    const bound = bindings({ scorer, escalate: { when: failsWhenBad, sample: 0 } }, { scorer: cheapCheck, pass: { atLeast: 0.5 } });
    const good = await settleOutcomes(scoreRunEvent(runFacts({ runId: 'run-good' }), { bindings: bound }));
    const bad = await settleOutcomes(scoreRunEvent(runFacts({ runId: 'run-bad' }), { bindings: bound }));
    expect(calls).toEqual(['run-bad']);

    expect(good.records.map((record) => record.scorerId)).toEqual(['cheap-check']);
    const [decision] = good.decisions;
    expect(parseDecisionRecord(decision).success).toBe(true);
    expect(decision).toMatchObject({ scorerId: 'judge', decision: 'skipped', reason: 'not_escalated', escalation: { tier: 'not_escalated', after: ['cheap-check'], sample: { rate: 0 } } });
    expect(decision!.detail).toBe("not escalated: cheap-check: 1 pass; escalate.when is false and the run is not in the 0 sample");

    const judged = bad.records.find((record) => record.scorerId === 'judge')!;
    expect(parseScoreRecord(judged).success).toBe(true);
    expect(judged.escalation).toMatchObject({ tier: 'escalated', after: ['cheap-check'] });
    expect(bad.records.find((record) => record.scorerId === 'cheap-check')).not.toHaveProperty('escalation');
  });

  it('judges the runs the cheap tier passed in its sample, by a bucket of its own', async () => {
    const { scorer, calls } = countingJudge();
    const bound = bindings({ scorer: cheapCheck, pass: { atLeast: 0.5 } }, { scorer, escalate: { when: failsWhenBad, sample: 0.3 } });
    const runIds = Array.from({ length: 400 }, (_, index) => `run-${index}`);
    const outcomes = await Promise.all(runIds.map((runId) => settleOutcomes(scoreRunEvent(runFacts({ runId }), { bindings: bound }))));
    const expected = runIds.filter((runId) => samplingBucket(escalationSampleKey('judge', runId)) < 0.3);
    expect(calls.sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(90);
    expect(expected.length).toBeLessThan(150);
    for (const { records } of outcomes) {
      const judged = records.find((record) => record.scorerId === 'judge');
      if (judged !== undefined) expect(judged.escalation).toMatchObject({ tier: 'sampled', sample: { rate: 0.3 } });
    }
    // Not the plain sampling slice: a binding's `sampling` at the same rate picks other runs.
    const plain = runIds.filter((runId) => samplingBucket(runId) < 0.3);
    expect(plain.sort()).not.toEqual(expected.sort());
  });

  it('lets the predicate read a dependency that was skipped, failed or put off, and waits for a slow one', async () => {
    const { scorer, calls } = countingJudge();
    const notRunYet = { op: 'ne', left: { path: 'scores.cheap-check.status' }, right: { literal: 'scored' } } as const;
    const skippedCheap = bindings({ scorer: cheapCheck, sampling: { type: 'ratio', rate: 0 } }, { scorer, escalate: { when: notRunYet, sample: 0 } });
    await settleOutcomes(scoreRunEvent(runFacts({ runId: 'run-x' }), { bindings: skippedCheap }));
    expect(calls).toEqual(['run-x']);

    const gate = deferred<number>();
    const slow = createScorer({ id: 'cheap-check', description: 'd' }).generateScore(() => gate.promise);
    const order: string[] = [];
    const judge = createScorer({ id: 'judge', description: 'd' }).generateScore(() => {
      order.push('judge');
      return 1;
    });
    const bound = bindings({ scorer: judge, escalate: { when: { op: 'lt', left: { path: 'scores.cheap-check.score' }, right: { literal: 0.5 } }, sample: 0 } }, { scorer: slow });
    const outcomes = scoreRunEvent(runFacts({ runId: 'run-slow' }), { bindings: bound });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    order.push('cheap');
    gate.resolve(0.1);
    const settled = await settleOutcomes(outcomes);
    expect(order).toEqual(['cheap', 'judge']);
    expect(settled.records.map((record) => record.scorerId)).toEqual(['judge', 'cheap-check']);
  });

  it('reads a classifier label, a verdict and the score as scores.<id>.label / verdict / score', () => {
    // A classifier's label and a verdict (the config check would want cheap-check to be a classifier with pass: the predicate alone here).
    const escalate = escalateSchema.parse({ when: { op: 'or', args: [{ op: 'eq', left: { path: 'scores.cheap-check.label' }, right: { literal: 'unsafe' } }, { op: 'eq', left: { path: 'scores.cheap-check.verdict' }, right: { literal: 'fail' } }] }, sample: 0 });
    const facts = runFacts({ runId: 'run-label' });
    const record = (analyze: unknown, verdict: 'pass' | 'fail') => ({ kind: 'record' as const, record: { status: 'scored', score: 1, verdict, steps: { analyze } } as never });
    expect(decideEscalation('judge', escalate, new Map([['cheap-check', record({ answer: { type: 'choice', choice: 'unsafe' } }, 'pass')]]), facts)).toMatchObject({ run: true, detail: "escalated on cheap-check: 1 pass 'unsafe'" });
    expect(decideEscalation('judge', escalate, new Map([['cheap-check', record({ answer: { type: 'choice', choice: 'safe' } }, 'fail')]]), facts).run).toBe(true);
    expect(decideEscalation('judge', escalate, new Map([['cheap-check', record({ answer: { type: 'choice', choice: 'safe' } }, 'pass')]]), facts).run).toBe(false);
    const skipped = skippedOutcome(facts, { scorerId: 'cheap-check' }, { reason: 'filter' }, '2026-12-07T00:00:00.000Z');
    expect(decideEscalation('judge', escalate, new Map([['cheap-check', skipped]]), facts)).toMatchObject({ run: false, detail: expect.stringContaining('cheap-check: skipped (filter)') });
  });

  it("keeps a deferred pair's escalation in its retry message", async () => {
    const failing = createScorer({ id: 'judge', description: 'd' }).generateScore(() => {
      throw Object.assign(new Error('judge 503'), { isRetryable: true });
    });
    const bound = bindings({ scorer: cheapCheck, pass: { atLeast: 0.5 } }, { scorer: failing, escalate: { when: failsWhenBad, sample: 0 } });
    const retries = { enabled: true, delaysMs: [10_000], maxAgeMs: 60_000 };
    const settled = await settleOutcomes(scoreRunEvent(runFacts({ runId: 'run-bad' }), { bindings: bound, retries }));
    expect(settled.deferred).toHaveLength(1);
    expect(settled.deferred[0]!.retry.escalation).toMatchObject({ tier: 'escalated', after: ['cheap-check'] });
    expect(settled.deferred[0]!.final.escalation).toMatchObject({ tier: 'escalated' });
  });
});

describe('escalation beside the rest of the pipeline', () => {
  it("decides the binding's own filter and sampling first; a run not escalated takes nothing of a runs budget", async () => {
    const { scorer, calls } = countingJudge();
    const sampledOut = bindings({ scorer: cheapCheck, pass: { atLeast: 0.5 } }, { scorer, sampling: { type: 'ratio', rate: 0 }, escalate: { when: failsWhenBad, sample: 1 } });
    const skipped = await settleOutcomes(scoreRunEvent(runFacts({ runId: 'run-bad' }), { bindings: sampledOut }));
    expect(skipped.decisions).toMatchObject([{ scorerId: 'judge', reason: 'sampling' }]);
    expect(calls).toEqual([]);

    const spend = createJudgeSpend({ pricing: pricingSchema.parse({}), budgets: [budgetSchema.parse({ name: 'judge-runs', of: 'runs', max: 5, window: 'minute', scorer: 'judge' })], now: () => 0 });
    const bound = bindings({ scorer: cheapCheck, pass: { atLeast: 0.5 } }, { scorer, escalate: { when: failsWhenBad, sample: 0 } });
    for (const runId of ['run-a', 'run-b', 'run-c']) await settleOutcomes(scoreRunEvent(runFacts({ runId }), { bindings: bound, spend }));
    expect(spend.ledger!.used('judge-runs')).toBe(0);
    await settleOutcomes(scoreRunEvent(runFacts({ runId: 'run-d-bad' }), { bindings: bound, spend }));
    expect(spend.ledger!.used('judge-runs')).toBe(1);
  });

  it("keeps the tier on a retried pair's record, and says it on a budget skip of an escalated pair", async () => {
    const { scorer } = countingJudge();
    const [, judgeBinding] = bindings({ scorer: cheapCheck, pass: { atLeast: 0.5 } }, { scorer, escalate: { when: failsWhenBad, sample: 0 } });
    const facts = runFacts({ runId: 'run-bad' });
    const escalation = { tier: 'escalated' as const, after: ['cheap-check'], sample: { rate: 0, bucket: 0.3 } };
    const retry = {
      schemaVersion: 1 as const,
      runId: 'run-bad',
      scorerId: 'judge',
      attempt: 1,
      firstFailedAt: '2026-12-07T00:00:00.000Z',
      dueAt: '2026-12-07T00:00:10.000Z',
      source: facts.source,
      trace: {},
      escalation,
      attempts: [{ failedAt: '2026-12-07T00:00:00.000Z', durationMs: 5, error: { name: 'APICallError', message: '503', failedStep: 'generateScore' as const, completedSteps: [], retryable: true } }],
      event: facts.event,
    };
    const outcome = await scoreRetry(facts, retry, { bindings: [judgeBinding!] });
    expect(outcome).toMatchObject({ kind: 'record', record: { scorerId: 'judge', escalation } });

    const spend = createJudgeSpend({ pricing: pricingSchema.parse({}), budgets: [budgetSchema.parse({ name: 'one-judge-run', of: 'runs', max: 1, window: 'minute', scorer: 'judge' })], now: () => 0 });
    spend.ledger!.admitRun('judge', undefined); // the minute's one run is taken
    const bound = bindings({ scorer: cheapCheck, pass: { atLeast: 0.5 } }, { scorer, escalate: { when: failsWhenBad, sample: 0 } });
    const refused = await settleOutcomes(scoreRunEvent(runFacts({ runId: 'run-bad' }), { bindings: bound, spend }));
    expect(refused.decisions).toMatchObject([{ scorerId: 'judge', reason: 'budget_exhausted', escalation: { tier: 'escalated' } }]);
  });

  it('does not escalate a re-score on feedback again: a person asked', async () => {
    const { scorer, calls } = countingJudge();
    const [, judgeBinding] = bindings({ scorer: cheapCheck, pass: { atLeast: 0.5 } }, { scorer, escalate: { when: failsWhenBad, sample: 0 }, rescoreOn: ['thumbs-down'] });
    const facts = runFacts({ runId: 'run-good' });
    const request = { schemaVersion: 1 as const, runId: 'run-good', scorerId: 'judge', scoreId: 'judged-1', source: facts.source, rescore: { feedbackId: 'fb-1', reason: 'thumbs-down' as const }, requestedAt: '2026-12-07T00:00:00.000Z' };
    const outcome = await scoreRescore(facts, request, judgeBinding!, { bindings: [judgeBinding!] });
    expect(outcome).toMatchObject({ kind: 'record', record: { scorerId: 'judge', status: 'scored', rescore: { feedbackId: 'fb-1' } } });
    expect(calls).toEqual(['run-good']);
  });
});

describe('replay of an escalated binding', () => {
  it('refuses --scorer with the judge but not the scorers it escalates on', () => {
    const config = configWith([{ scorer: cheapCheck, pass: { atLeast: 0.5 } }, { scorer: countingJudge().scorer, escalate: { when: failsWhenBad } }])();
    expect(() => selectScorers(config, ['judge'])).toThrow(/scorer 'judge' escalates on the score of 'cheap-check'.*add --scorer cheap-check/);
    expect(selectScorers(config, ['judge', 'cheap-check']).map((binding) => binding.scorerId)).toEqual(['cheap-check', 'judge']);
  });
});

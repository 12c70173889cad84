import { describe, expect, it } from 'vitest';
import { createTrajectoryMatchScorer } from '../../../../../../../src/kit/scorers/code/trajectory-match/index.ts';
import { invalidScorerOptionsCode } from '../../../../../../../src/kit/scorers/shared/invalid-options.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

type Call = string | { name: string; args: unknown };

/** A support-agent turn whose tool calls are `calls`, one model step each, then the answer. */
function runCalling(calls: Call[], extra: Record<string, unknown> = {}) {
  const output = calls.map((call, index) => {
    const { name, args } = typeof call === 'string' ? { name: call, args: {} } : call;
    return assistantMessage('', [toolCall(name, { id: `c${index}`, args })], `assistant-${index}`);
  });
  output.push(assistantMessage('Your refund of €42 is on its way.', [], 'assistant-final'));
  return { ...agentTurn('I want a refund for order 1234.', output), ...extra };
}

const refundFlow = ['lookupOrder', 'checkPolicy', 'refund'];

describe('createTrajectoryMatchScorer', () => {
  describe('in_order (default)', () => {
    it('scores 1 when the expected steps appear in order, other calls allowed between', async () => {
      const run = runCalling(['lookupOrder', 'getCustomer', 'checkPolicy', 'refund'], { expectedTrajectory: refundFlow });
      const result = await createTrajectoryMatchScorer().run(run);
      expect(result.score).toBe(1);
      expect(result.preprocessStepResult).toMatchObject({ mode: 'in_order', matchHolds: true, matched: 3, precision: 0.75, recall: 1, missing: [], expectedFrom: 'run' });
      expect(result.reason).toBe('In-order match holds: all 3 expected steps appear in order (1 other call allowed).');
    });

    it('grades a failed match by the F1 of precision and recall, naming what is missing and unexpected', async () => {
      const run = runCalling(['lookupOrder', 'sendEmail', 'checkPolicy'], { expectedTrajectory: ['lookupOrder', 'refund', 'checkPolicy', 'closeTicket'] });
      const result = await createTrajectoryMatchScorer().run(run);
      // matched 2: precision 2/3, recall 2/4, F1 = 2·(2/3)·(1/2) / (2/3 + 1/2) = 4/7.
      expect(result.score).toBeCloseTo(4 / 7, 12);
      expect(result.preprocessStepResult).toMatchObject({
        matchHolds: false,
        matched: 2,
        missing: [
          { toolName: 'refund', expectedIndex: 1, after: 'lookupOrder' },
          { toolName: 'closeTicket', expectedIndex: 3, after: 'checkPolicy' },
        ],
        unexpected: [{ toolName: 'sendEmail', toolCallId: 'c1', actualIndex: 1 }],
        missingCount: 2,
        unexpectedCount: 1,
      });
      expect(result.reason).toBe(
        'In-order match failed: missing refund after lookupOrder, closeTicket after checkPolicy; 1 unexpected step (sendEmail). Precision 0.67, recall 0.50.',
      );
    });

    it('fails when the steps are all there but out of order', async () => {
      const result = await createTrajectoryMatchScorer().run(runCalling(['refund', 'lookupOrder'], { expectedTrajectory: ['lookupOrder', 'refund'] }));
      expect(result.score).toBe(0.5);
      expect(result.reason).toBe('In-order match failed: missing refund after lookupOrder; 1 unexpected step (refund). Precision 0.50, recall 0.50.');
    });

    it('scores 0 when the agent called none of the expected tools', async () => {
      const result = await createTrajectoryMatchScorer().run(runCalling(['search'], { expectedTrajectory: ['lookupOrder'] }));
      expect(result.score).toBe(0);
      expect(result.reason).toBe('In-order match failed: missing lookupOrder; 1 unexpected step (search). Precision 0.00, recall 0.00.');
    });
  });

  describe('exact', () => {
    it('scores 1 only for the identical sequence', async () => {
      const result = await createTrajectoryMatchScorer({ mode: 'exact' }).run(runCalling(refundFlow, { expectedTrajectory: refundFlow }));
      expect(result.score).toBe(1);
      expect(result.reason).toBe('Exact match holds: the 3 tool calls are exactly the expected steps.');
    });

    it('fails on an extra call that in_order allows', async () => {
      const run = runCalling(['lookupOrder', 'getCustomer', 'checkPolicy', 'refund'], { expectedTrajectory: refundFlow });
      const exact = await createTrajectoryMatchScorer({ mode: 'exact' }).run(run);
      // precision 3/4, recall 1: F1 = 6/7.
      expect(exact.score).toBeCloseTo(6 / 7, 12);
      expect(exact.reason).toBe('Exact match failed: 1 unexpected step (getCustomer). Precision 0.75, recall 1.00.');
    });

    it('scores 1 when no tools were expected and none were called, and 0 when some were', async () => {
      const scorer = createTrajectoryMatchScorer({ mode: 'exact' });
      expect((await scorer.run(runCalling([], { expectedTrajectory: [] }))).score).toBe(1);
      expect((await scorer.run(runCalling(['refund'], { expectedTrajectory: [] }))).score).toBe(0);
    });
  });

  describe('any_order', () => {
    it('scores 1 when every expected step appears, in any order', async () => {
      const result = await createTrajectoryMatchScorer({ mode: 'any_order' }).run(runCalling(['checkPolicy', 'refund', 'lookupOrder'], { expectedTrajectory: refundFlow }));
      expect(result.score).toBe(1);
      expect(result.reason).toBe('Any-order match holds: all 3 expected steps appear.');
    });

    it('counts repeated steps as a multiset and does not place missing ones', async () => {
      const run = runCalling(['search', 'refund'], { expectedTrajectory: ['search', 'search', 'refund'] });
      const result = await createTrajectoryMatchScorer({ mode: 'any_order' }).run(run);
      // precision 2/2, recall 2/3: F1 = 0.8.
      expect(result.score).toBeCloseTo(0.8, 12);
      expect(result.preprocessStepResult!.missing).toEqual([{ toolName: 'search', expectedIndex: 1 }]);
      expect(result.reason).toBe('Any-order match failed: missing search. Precision 1.00, recall 0.67.');
    });
  });

  describe('compareArgs', () => {
    const expectedTrajectory = [{ toolName: 'lookupOrder', args: { orderId: '1234' } }, 'refund'];

    it('matches when the expected args are a subset of the call args, JSON-string args parsed', async () => {
      const run = runCalling([{ name: 'lookupOrder', args: '{"orderId":"1234","verbose":true}' }, { name: 'refund', args: { amount: 42 } }], { expectedTrajectory });
      expect((await createTrajectoryMatchScorer({ compareArgs: true }).run(run)).score).toBe(1);
    });

    it('fails on a differing arg, which name-only matching ignores', async () => {
      const run = runCalling([{ name: 'lookupOrder', args: { orderId: '9999' } }, 'refund'], { expectedTrajectory });
      expect((await createTrajectoryMatchScorer().run(run)).score).toBe(1);
      const withArgs = await createTrajectoryMatchScorer({ compareArgs: true }).run(run);
      expect(withArgs.score).toBe(0.5);
      expect(withArgs.reason).toBe('In-order match failed: missing lookupOrder; 1 unexpected step (lookupOrder). Precision 0.50, recall 0.50.');
    });

    it('compares nested args deeply and finds the best any-order pairing', async () => {
      const expected = [{ name: 'search' }, { toolName: 'search', args: { filter: { tags: ['a', 'b'] } } }];
      const run = runCalling([{ name: 'search', args: { filter: { tags: ['a', 'b'] } } }, { name: 'search', args: { filter: { tags: ['b', 'a'] } } }], { expectedTrajectory: expected });
      // A greedy first fit would give the args-free step the only call the second step accepts.
      expect((await createTrajectoryMatchScorer({ mode: 'any_order', compareArgs: true }).run(run)).score).toBe(1);
    });
  });

  describe('where the expected trajectory comes from', () => {
    const expected = { refund: refundFlow, cancel: ['lookupOrder', 'cancelOrder'] };

    it('reads { steps: [...] } and steps with name or toolName from the run', async () => {
      const run = runCalling(refundFlow, { expectedTrajectory: { steps: [{ name: 'lookupOrder' }, { toolName: 'checkPolicy' }, 'refund'] } });
      expect((await createTrajectoryMatchScorer({ mode: 'exact' }).run(run)).score).toBe(1);
    });

    it('prefers the run’s expectedTrajectory over the intent table', async () => {
      const run = runCalling(['lookupOrder', 'cancelOrder'], { expectedTrajectory: ['lookupOrder', 'cancelOrder'], requestContext: { intent: 'refund' } });
      const result = await createTrajectoryMatchScorer({ expected }).run(run);
      expect(result.score).toBe(1);
      expect(result.preprocessStepResult!.expectedFrom).toBe('run');
    });

    it('looks the intent up in a plain-object request context', async () => {
      const run = runCalling(['lookupOrder', 'cancelOrder'], { requestContext: { intent: 'cancel' } });
      const result = await createTrajectoryMatchScorer({ expected }).run(run);
      expect(result.score).toBe(1);
      expect(result.preprocessStepResult!.expectedFrom).toEqual({ intent: 'cancel' });
    });

    it('looks the intent up in a Map-like request context under a custom key', async () => {
      const requestContext = new Map<string, unknown>([['route', 'refund']]);
      const run = runCalling(['lookupOrder', 'refund'], { requestContext });
      const result = await createTrajectoryMatchScorer({ expected, intentKey: 'route' }).run(run);
      expect(result.score).toBeCloseTo(0.8, 12);
      expect(result.reason).toBe('In-order match failed: missing checkPolicy after lookupOrder. Precision 1.00, recall 0.67.');
    });

    it('follows a dotted intent key into a nested plain object', async () => {
      const run = runCalling(['lookupOrder', 'cancelOrder'], { requestContext: { routing: { intent: 'cancel' } } });
      expect((await createTrajectoryMatchScorer({ expected, intentKey: 'routing.intent' }).run(run)).score).toBe(1);
    });

    it('is not scorable without an expected trajectory, saying where it looked', async () => {
      const bare = await createTrajectoryMatchScorer().run(runCalling(['refund']));
      expect(bare.notScorable?.reason).toBe('The run carries no expectedTrajectory and the scorer has no "expected" table to look one up in.');
      const noIntent = await createTrajectoryMatchScorer({ expected }).run(runCalling(['refund'], { requestContext: { tenant: 'acme' } }));
      expect(noIntent.notScorable?.reason).toBe('The run carries no expectedTrajectory and its request context has no "intent" string to pick an entry of "expected" with.');
      const unknown = await createTrajectoryMatchScorer({ expected }).run(runCalling(['refund'], { requestContext: { intent: 'upgrade' } }));
      expect(unknown.notScorable?.reason).toBe('The run carries no expectedTrajectory and "expected" has no entry for intent "upgrade" (known: refund, cancel).');
    });

    it('is not scorable when the run’s expected trajectory is malformed, saying what is wrong', async () => {
      const reasonFor = async (expectedTrajectory: unknown) =>
        (await createTrajectoryMatchScorer().run(runCalling(['refund'], { expectedTrajectory }))).notScorable?.reason;
      expect(await reasonFor('refund')).toBe(
        "The run's expectedTrajectory is malformed: it is string; give a list of steps (tool names or { toolName, args? }) or { steps: [...] }.",
      );
      expect(await reasonFor({ tools: ['refund'] })).toMatch(/malformed: it is object; give a list of steps/);
      expect(await reasonFor(['lookupOrder', 42])).toBe("The run's expectedTrajectory is malformed: step 2 is number; give a tool name or { toolName, args? }.");
      expect(await reasonFor([{ args: {} }])).toBe('The run\'s expectedTrajectory is malformed: step 1 has no tool name; give "toolName" (or "name") as a non-empty string.');
      expect(await reasonFor([{ toolName: 'refund', args: [1] }])).toBe(
        'The run\'s expectedTrajectory is malformed: step 1 ("refund") has args that are an array; give an object of the args to check.',
      );
      expect(await reasonFor([''])).toBe("The run's expectedTrajectory is malformed: step 1 is an empty tool name.");
    });

    it('is not scorable when the run has no response messages', async () => {
      const result = await createTrajectoryMatchScorer().run({ ...agentTurn('Refund please', []), expectedTrajectory: ['refund'] });
      expect(result.notScorable?.reason).toBe('The run has no response messages to read tool calls from.');
    });
  });

  it('keeps reasons short and on one line with hostile tool names', async () => {
    const longName = `evil\n${'x'.repeat(5000)}`;
    const unexpectedCalls = Array.from({ length: 80 }, (_, index) => `${longName}${index}`);
    const run = runCalling(['lookupOrder', ...unexpectedCalls], { expectedTrajectory: ['lookupOrder', longName, 'refund', 'notify', 'close'] });
    const result = await createTrajectoryMatchScorer().run(run);
    const reason = result.reason!;
    expect(reason).not.toContain('\n');
    expect(reason.length).toBeLessThan(600);
    expect(reason).toMatch(/^In-order match failed: missing evil x+… after lookupOrder, refund after evil x+…, notify after refund and 1 more; 80 unexpected steps \(evil x+…, evil x+…, evil x+… and 77 more\)\. Precision 0\.01, recall 0\.20\.$/);
    const recorded = result.preprocessStepResult!;
    expect(recorded.unexpected).toHaveLength(50);
    expect(recorded.unexpectedCount).toBe(80);
    expect(recorded.actualSteps).toHaveLength(50);
    expect(recorded.missing[0]!.toolName).toHaveLength(200);
  });

  it('rejects options that cannot work, at construction', () => {
    expect(() => createTrajectoryMatchScorer({ mode: 'strict' as never })).toThrow(
      'Scorer "trajectory-match": option "mode" must be one of "exact", "in_order", "any_order"; got "strict".',
    );
    expect(() => createTrajectoryMatchScorer({ compareArgs: 'yes' as never })).toThrow('option "compareArgs" must be true or false.');
    expect(() => createTrajectoryMatchScorer({ intentKey: '' })).toThrow('option "intentKey" must be a non-empty request-context key.');
    expect(() => createTrajectoryMatchScorer({ expected: ['refund'] as never })).toThrow('option "expected" must be an object mapping each intent to its list of steps.');
    expect(() => createTrajectoryMatchScorer({ expected: { refund: [{ name: '' }] } })).toThrow(
      expect.objectContaining({ code: invalidScorerOptionsCode, message: expect.stringContaining('option "expected", intent "refund": step 1 has no tool name') }),
    );
  });
});

describe('any-order pairing by name', () => {
  it('pairs as many steps as the general pairing does, on random trajectories', async () => {
    const { pairAnyOrder, pairAnyOrderByName } = await import('../../../../../../../src/kit/scorers/code/trajectory-match/match-steps.ts');
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let round = 0; round < 200; round += 1) {
      const names = (count: number) => Array.from({ length: count }, () => ['a', 'b', 'c', 'd'][next() % 4]!);
      const expected = names(next() % 8);
      const actual = names(next() % 8);
      const general = pairAnyOrder(expected.length, actual.length, (e, a) => expected[e] === actual[a]);
      const byName = pairAnyOrderByName(expected, actual);
      const count = (flags: boolean[]) => flags.filter(Boolean).length;
      expect(count(byName.expectedMatched)).toBe(count(general.expectedMatched));
      expect(count(byName.actualMatched)).toBe(count(general.actualMatched));
      byName.actualMatched.forEach((matched, index) => {
        if (matched) expect(expected).toContain(actual[index]);
      });
    }
  });
});

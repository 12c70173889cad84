import { describe, expect, it } from 'vitest';
import { canonicalArgs, createRepeatedToolCallsScorer } from '../../../../../../../src/kit/scorers/code/repeated-tool-calls/index.ts';
import { ScorestreamError } from '../../../../../../../src/kit/errors.ts';
import type { ToolInvocation } from '../../../../../../../src/kit/utils/message-types.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

/** One turn whose calls each sit in their own assistant message, then the answer. */
function runWithCalls(calls: ToolInvocation[], answer = 'Here is what I found.') {
  return agentTurn('Find me a cheap flight from Oslo to Rome next Friday.', [
    ...calls.map((call, index) => assistantMessage('', [call], `assistant-${index + 1}`)),
    assistantMessage(answer, [], 'assistant-final'),
  ]);
}

const rome = { from: 'OSL', to: 'FCO', date: '2026-03-13' };

describe('createRepeatedToolCallsScorer', () => {
  it('scores 1 when no call repeats an earlier one', async () => {
    const run = runWithCalls([
      toolCall('searchFlights', { id: 'c1', args: rome }),
      toolCall('searchFlights', { id: 'c2', args: { ...rome, date: '2026-03-14' } }),
      toolCall('getPrice', { id: 'c3', args: { flight: 'AZ611' } }),
      toolCall('convertCurrency', { id: 'c4', args: { amount: 89, to: 'NOK' } }),
      toolCall('getWeather', { id: 'c5', args: { city: 'Rome' } }),
    ]);
    const result = await createRepeatedToolCallsScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult).toEqual({ totalCalls: 5, redundantCalls: 0, groups: [], cycles: [] });
    expect(result.reason).toBe('No tool call repeated an earlier one (5 calls).');
  });

  it('allows a call twice by default (one retry) and says "1 call" for a single call', async () => {
    const twice = await createRepeatedToolCallsScorer().run(
      runWithCalls([toolCall('searchFlights', { id: 'c1', args: rome }), toolCall('searchFlights', { id: 'c2', args: rome })]),
    );
    expect(twice.score).toBe(1);
    const once = await createRepeatedToolCallsScorer().run(runWithCalls([toolCall('searchFlights', { args: rome })]));
    expect(once.reason).toBe('No tool call repeated an earlier one (1 call).');
  });

  it('counts every identical call beyond maxIdenticalCalls as redundant', async () => {
    const run = runWithCalls([
      toolCall('searchFlights', { id: 'c1', args: rome }),
      toolCall('getWeather', { id: 'c2', args: { city: 'Rome' } }),
      toolCall('searchFlights', { id: 'c3', args: rome }),
      toolCall('searchFlights', { id: 'c4', args: rome }),
      toolCall('searchFlights', { id: 'c5', args: rome }),
    ]);
    const result = await createRepeatedToolCallsScorer().run(run);
    expect(result.score).toBeCloseTo(1 - 2 / 5, 12);
    expect(result.preprocessStepResult).toEqual({
      totalCalls: 5,
      redundantCalls: 2,
      groups: [{ toolName: 'searchFlights', args: '{"date":"2026-03-13","from":"OSL","to":"FCO"}', count: 4 }],
      cycles: [],
    });
    expect(result.reason).toBe('2 of 5 tool calls repeated earlier ones: searchFlights with the same arguments 4 times.');
  });

  it('honours maxIdenticalCalls: 1 and says "an earlier one" for a single redundant call', async () => {
    const run = runWithCalls([toolCall('getWeather', { id: 'c1', args: { city: 'Rome' } }), toolCall('getWeather', { id: 'c2', args: { city: 'Rome' } })]);
    const result = await createRepeatedToolCallsScorer({ maxIdenticalCalls: 1 }).run(run);
    expect(result.score).toBe(0.5);
    expect(result.reason).toBe('1 of 2 tool calls repeated an earlier one: getWeather with the same arguments 2 times.');
  });

  it('compares arguments whatever their key order, at every depth', async () => {
    const run = runWithCalls([
      toolCall('searchFlights', { id: 'c1', args: { from: 'OSL', to: 'FCO', filters: { stops: 0, cabin: 'economy' } } }),
      toolCall('searchFlights', { id: 'c2', args: { filters: { cabin: 'economy', stops: 0 }, to: 'FCO', from: 'OSL' } }),
      toolCall('searchFlights', { id: 'c3', args: { to: 'FCO', filters: { stops: 0, cabin: 'economy' }, from: 'OSL' } }),
    ]);
    const result = await createRepeatedToolCallsScorer().run(run);
    expect(result.preprocessStepResult?.redundantCalls).toBe(1);
    expect(result.preprocessStepResult?.groups).toEqual([
      { toolName: 'searchFlights', args: '{"filters":{"cabin":"economy","stops":0},"from":"OSL","to":"FCO"}', count: 3 },
    ]);
  });

  it('parses arguments sent as a JSON string before comparing them', async () => {
    const run = runWithCalls([
      toolCall('getPrice', { id: 'c1', args: { flight: 'AZ611', currency: 'EUR' } }),
      toolCall('getPrice', { id: 'c2', args: '{"currency":"EUR","flight":"AZ611"}' }),
      toolCall('getPrice', { id: 'c3', args: ' { "flight": "AZ611", "currency": "EUR" } ' }),
    ]);
    const result = await createRepeatedToolCallsScorer().run(run);
    expect(result.preprocessStepResult?.redundantCalls).toBe(1);
    expect(canonicalArgs('not json')).toBe('"not json"');
    expect(canonicalArgs(undefined)).toBe('{}');
  });

  it('does not count a different tool with the same arguments, or the same tool with other arguments', async () => {
    const run = runWithCalls([
      toolCall('getPrice', { id: 'c1', args: { flight: 'AZ611' } }),
      toolCall('getSeatMap', { id: 'c2', args: { flight: 'AZ611' } }),
      toolCall('getPrice', { id: 'c3', args: { flight: 'AZ612' } }),
      toolCall('getPrice', { id: 'c4', args: { flight: 'AZ613' } }),
    ]);
    expect((await createRepeatedToolCallsScorer().run(run)).score).toBe(1);
  });

  it('does not count retries after a failed identical call, up to the allowance', async () => {
    const run = runWithCalls([
      toolCall('searchFlights', { id: 'c1', args: rome }),
      toolCall('searchFlights', { id: 'c2', args: rome, state: 'output-error', errorText: 'upstream timeout' }),
      toolCall('searchFlights', { id: 'c3', args: rome, isError: true, result: 'rate limited' }),
      toolCall('searchFlights', { id: 'c4', args: rome }),
    ]);
    // c1 and c2 are the allowed two calls; c3 retries the failed c2 and c4 the failed c3.
    const result = await createRepeatedToolCallsScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.reason).toBe('No tool call repeated an earlier one (4 calls).');
  });

  it('still catches an agent hammering a failing tool past the retry allowance', async () => {
    const failing = (id: string) => toolCall('getWeather', { id, args: { city: 'Rome' }, state: 'output-error', errorText: '503' });
    const run = runWithCalls([failing('c1'), failing('c2'), failing('c3'), failing('c4'), failing('c5')]);
    const result = await createRepeatedToolCallsScorer().run(run);
    expect(result.preprocessStepResult?.redundantCalls).toBe(2);
    expect(result.reason).toBe('2 of 5 tool calls repeated earlier ones: getWeather with the same arguments 5 times.');
  });

  it('counts a repeat after a successful call, even right after it', async () => {
    const run = runWithCalls([
      toolCall('getWeather', { id: 'c1', args: { city: 'Rome' } }),
      toolCall('getWeather', { id: 'c2', args: { city: 'Rome' } }),
      toolCall('getWeather', { id: 'c3', args: { city: 'Rome' } }),
    ]);
    expect((await createRepeatedToolCallsScorer().run(run)).preprocessStepResult?.redundantCalls).toBe(1);
  });

  it('finds an A-B cycle repeated more than maxCycleRepeats times and counts each call once', async () => {
    const price = () => ({ flight: 'AZ611' });
    const convert = () => ({ amount: 89, to: 'NOK' });
    const run = runWithCalls([
      toolCall('searchFlights', { id: 's', args: rome }),
      toolCall('getPrice', { id: 'p1', args: price() }),
      toolCall('convertCurrency', { id: 'v1', args: convert() }),
      toolCall('getPrice', { id: 'p2', args: price() }),
      toolCall('convertCurrency', { id: 'v2', args: convert() }),
      toolCall('getPrice', { id: 'p3', args: price() }),
      toolCall('convertCurrency', { id: 'v3', args: convert() }),
    ]);
    const result = await createRepeatedToolCallsScorer().run(run);
    // The third getPrice and convertCurrency are over both limits: two redundant calls, not four.
    expect(result.preprocessStepResult?.redundantCalls).toBe(2);
    expect(result.preprocessStepResult?.cycles).toEqual([{ tools: ['getPrice', 'convertCurrency'], repeats: 3 }]);
    expect(result.score).toBeCloseTo(1 - 2 / 7, 12);
    expect(result.reason).toBe(
      '2 of 7 tool calls repeated earlier ones: getPrice with the same arguments 3 times; convertCurrency with the same arguments 3 times; the cycle getPrice → convertCurrency repeated 3 times.',
    );
  });

  it('finds a cycle the identical-call limit allows', async () => {
    const calls = ['p1', 'v1', 'p2', 'v2', 'p3', 'v3', 'p4', 'v4'].map((id) =>
      toolCall(id.startsWith('p') ? 'getPrice' : 'convertCurrency', { id, args: { n: 1 } }),
    );
    const result = await createRepeatedToolCallsScorer({ maxIdenticalCalls: 10, maxCycleRepeats: 1 }).run(runWithCalls(calls));
    expect(result.preprocessStepResult).toEqual({
      totalCalls: 8,
      redundantCalls: 6,
      groups: [],
      cycles: [{ tools: ['getPrice', 'convertCurrency'], repeats: 4 }],
    });
    expect(result.reason).toBe('6 of 8 tool calls repeated earlier ones: the cycle getPrice → convertCurrency repeated 4 times.');
  });

  it('does not take a sequence whose arguments change (paging) for a cycle', async () => {
    const calls = [1, 2, 3, 4].flatMap((page) => [
      toolCall('listFlights', { id: `l${page}`, args: { page } }),
      toolCall('getPrice', { id: `p${page}`, args: { page } }),
    ]);
    const result = await createRepeatedToolCallsScorer().run(runWithCalls(calls));
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult?.cycles).toEqual([]);
  });

  it('is not scorable when the agent called no tools', async () => {
    const result = await createRepeatedToolCallsScorer().run(agentTurn('Hi', [assistantMessage('Hello!')]));
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'The agent called no tools.' });
  });

  it.each([
    [{ maxIdenticalCalls: 0 }, 'option "maxIdenticalCalls" must be a whole number >= 1; got 0.'],
    [{ maxIdenticalCalls: 1.5 }, 'option "maxIdenticalCalls" must be a whole number >= 1; got 1.5.'],
    [{ maxCycleRepeats: -1 }, 'option "maxCycleRepeats" must be a whole number >= 1; got -1.'],
    [{ maxCycleRepeats: Number.NaN }, 'option "maxCycleRepeats" must be a whole number >= 1; got NaN.'],
    [{ maxCycleRepeats: '2' as unknown as number }, 'option "maxCycleRepeats" must be a whole number >= 1; got "2".'],
  ])('rejects %j at construction', (options, message) => {
    const create = () => createRepeatedToolCallsScorer(options);
    expect(create).toThrow(ScorestreamError);
    expect(create).toThrow(message);
    try {
      create();
    } catch (error) {
      expect((error as ScorestreamError).code).toBe('INVALID_SCORER_OPTIONS');
      expect((error as ScorestreamError).canRetry).toBe(false);
    }
  });

  it('keeps the reason and step result short and on one line for hostile tool names and arguments', async () => {
    const hostileName = `search\nFlights\u001b[31m${'x'.repeat(200)}`;
    const hugeArgs = { query: `line1\nline2\u001b[2J${'y'.repeat(10_000)}` };
    const run = runWithCalls([1, 2, 3].map((n) => toolCall(hostileName, { id: `c${n}`, args: hugeArgs })));
    const result = await createRepeatedToolCallsScorer().run(run);
    expect(result.preprocessStepResult?.redundantCalls).toBe(1);
    const [group] = result.preprocessStepResult!.groups;
    expect(group!.args).toHaveLength(120);
    expect(group!.args).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect(result.reason!.length).toBeLessThan(200);
    expect(result.reason).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect(result.reason).toMatch(/^1 of 3 tool calls repeated an earlier one: search Flights \[31mx+… with the same arguments 3 times\.$/);
  });

  it('scores a run with thousands of calls (its cost: npm run bench:trajectory, not a timing here)', async () => {
    const calls = Array.from({ length: 3000 }, (_, n) => toolCall(n % 7 === 0 ? 'a' : 'b', { id: `c${n}`, args: { n: n % 5 } }));
    const result = await createRepeatedToolCallsScorer().run(runWithCalls(calls));
    expect(result.preprocessStepResult?.totalCalls).toBe(3000);
    // Ten distinct (tool, arguments) groups, each allowed twice: every other call repeats one.
    expect(result.preprocessStepResult?.redundantCalls).toBe(3000 - 20);
  });

  it('treats arguments too deep to compare as unlike any other call, instead of failing', async () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 200_000; level += 1) deep = [deep];
    const calls = [toolCall('search', { id: 'c1', args: { q: deep } }), toolCall('search', { id: 'c2', args: { q: deep } }), toolCall('search', { id: 'c3', args: { q: deep } })];
    const result = await createRepeatedToolCallsScorer().run(runWithCalls(calls));
    expect(result.score).toBe(1);
  });

  it('names at most three findings in the reason', async () => {
    const calls = ['a', 'b', 'c', 'd', 'e'].flatMap((tool) => [1, 2, 3].map((n) => toolCall(tool, { id: `${tool}${n}`, args: { tool } })));
    const result = await createRepeatedToolCallsScorer().run(runWithCalls(calls));
    expect(result.preprocessStepResult?.groups).toHaveLength(5);
    expect(result.reason).toBe(
      '5 of 15 tool calls repeated earlier ones: a with the same arguments 3 times; b with the same arguments 3 times; c with the same arguments 3 times; and 2 more.',
    );
  });
});

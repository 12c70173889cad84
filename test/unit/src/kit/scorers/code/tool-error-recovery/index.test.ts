import { describe, expect, it } from 'vitest';
import { admitsFailure, createToolErrorRecoveryScorer } from '../../../../../../../src/kit/scorers/code/tool-error-recovery/index.ts';
import type { ToolInvocation } from '../../../../../../../src/kit/utils/message-types.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

/** One turn whose calls each sit in their own assistant message, then the answer. */
function runWithCalls(calls: ToolInvocation[], answer: string) {
  return agentTurn('Find me a cheap flight from Oslo to Rome next Friday, and the weather there.', [
    ...calls.map((call, index) => assistantMessage('', [call], `assistant-${index + 1}`)),
    assistantMessage(answer, [], 'assistant-final'),
  ]);
}

const thrown = (toolName: string, id: string) => toolCall(toolName, { id, state: 'output-error', errorText: 'upstream timeout after 30s' });
const ok = (toolName: string, id: string) => toolCall(toolName, { id });

describe('createToolErrorRecoveryScorer', () => {
  it('scores 1 when a later call to the same tool succeeded (retried)', async () => {
    const run = runWithCalls([thrown('searchFlights', 'c1'), ok('searchFlights', 'c2')], 'The cheapest flight is €89.');
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult).toEqual({
      failures: [{ toolName: 'searchFlights', toolCallId: 'c1', outcome: 'retried', recoveredBy: 'searchFlights' }],
      answerAdmitsFailure: undefined,
    });
    expect(result.reason).toBe('The one tool failure was recovered (searchFlights retried).');
  });

  it('scores 1 when a later call to another tool succeeded (alternative)', async () => {
    const failed = toolCall('getPrices', { id: 'c1', isError: true, result: 'currency service unavailable' });
    const run = runWithCalls([failed, ok('getPricesCached', 'c2')], 'Prices from an hour ago: €89.');
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult?.failures).toEqual([
      { toolName: 'getPrices', toolCallId: 'c1', outcome: 'alternative', recoveredBy: 'getPricesCached' },
    ]);
    expect(result.reason).toBe('The one tool failure was recovered (getPrices replaced by getPricesCached).');
  });

  it('prefers a later success of the same tool over an earlier one of another tool', async () => {
    const run = runWithCalls([thrown('searchFlights', 'c1'), ok('getWeather', 'c2'), ok('searchFlights', 'c3')], 'Flights found.');
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.preprocessStepResult?.failures[0]).toMatchObject({ outcome: 'retried', recoveredBy: 'searchFlights' });
  });

  it('scores 0.5 when the agent gave up and the answer admits it', async () => {
    const run = runWithCalls([thrown('getWeather', 'c1')], "Sorry, I couldn't get the weather for Rome right now.");
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.score).toBe(0.5);
    expect(result.preprocessStepResult).toEqual({
      failures: [{ toolName: 'getWeather', toolCallId: 'c1', outcome: 'gave_up' }],
      answerAdmitsFailure: true,
    });
    expect(result.reason).toBe('The one tool failure was not recovered: getWeather failed and the answer says so.');
  });

  it('scores 0 when the agent gave up and the answer hides it', async () => {
    const run = runWithCalls([thrown('getWeather', 'c1')], 'It will be sunny and 24°C in Rome on Friday.');
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.score).toBe(0);
    expect(result.preprocessStepResult?.answerAdmitsFailure).toBe(false);
    expect(result.reason).toBe('The one tool failure was not recovered: getWeather failed and the answer does not say so.');
  });

  it('counts a failed or unfinished later call as no recovery', async () => {
    const run = runWithCalls(
      [thrown('getWeather', 'c1'), thrown('getWeather', 'c2'), toolCall('getForecast', { id: 'c3', state: 'call' })],
      'Rome: sunny.',
    );
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.preprocessStepResult?.failures.map((failure) => failure.outcome)).toEqual(['gave_up', 'gave_up']);
    expect(result.score).toBe(0);
    expect(result.reason).toBe('None of the 2 tool failures was recovered: getWeather ×2 failed and the answer does not say so.');
  });

  it('counts a success only when it came after the failure', async () => {
    const run = runWithCalls([ok('searchFlights', 'c1'), thrown('searchFlights', 'c2')], 'Flight AZ611, €89.');
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.preprocessStepResult?.failures[0]?.outcome).toBe('gave_up');
  });

  it('takes the mean over several failures with different outcomes', async () => {
    const run = runWithCalls(
      [
        thrown('searchFlights', 'c1'),
        ok('searchFlights', 'c2'),
        toolCall('getPrices', { id: 'c3', isError: true, result: 'rate limited' }),
        ok('getPricesCached', 'c4'),
        thrown('getWeather', 'c5'),
      ],
      'Flight AZ611 costs €89. The weather service is unavailable at the moment.',
    );
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.score).toBeCloseTo((1 + 1 + 0.5) / 3, 12);
    expect(result.preprocessStepResult).toEqual({
      failures: [
        { toolName: 'searchFlights', toolCallId: 'c1', outcome: 'retried', recoveredBy: 'searchFlights' },
        { toolName: 'getPrices', toolCallId: 'c3', outcome: 'alternative', recoveredBy: 'getPricesCached' },
        { toolName: 'getWeather', toolCallId: 'c5', outcome: 'gave_up' },
      ],
      answerAdmitsFailure: true,
    });
    expect(result.reason).toBe(
      '2 of 3 tool failures were recovered (searchFlights retried, getPrices replaced by getPricesCached); getWeather failed and the answer says so.',
    );
  });

  it('says when all of several failures were recovered, collapsing repeats', async () => {
    const run = runWithCalls([thrown('searchFlights', 'c1'), thrown('searchFlights', 'c2'), ok('searchFlights', 'c3')], 'Found it.');
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.reason).toBe('All 2 tool failures were recovered (searchFlights retried ×2).');
  });

  it('reads the final answer, not an earlier message', async () => {
    const run = agentTurn('Weather in Rome?', [
      assistantMessage('Let me try, sorry for the wait.', [thrown('getWeather', 'c1')], 'assistant-1'),
      assistantMessage('Rome: sunny, 24°C.', [], 'assistant-2'),
    ]);
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.preprocessStepResult?.answerAdmitsFailure).toBe(false);
  });

  it('treats a missing answer as not admitting the failure', async () => {
    const run = agentTurn('Weather in Rome?', [assistantMessage('', [thrown('getWeather', 'c1')])]);
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.score).toBe(0);
    expect(result.preprocessStepResult?.answerAdmitsFailure).toBe(false);
  });

  it('is not scorable when no tool call failed', async () => {
    const result = await createToolErrorRecoveryScorer().run(runWithCalls([ok('getWeather', 'c1')], 'Sunny.'));
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'No tool call failed; nothing to recover from.' });
  });

  it('is not scorable when the agent called no tools', async () => {
    const result = await createToolErrorRecoveryScorer().run(agentTurn('Hi', [assistantMessage('Hello!')]));
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'The agent called no tools.' });
  });

  it('keeps the reason short and on one line for hostile tool names', async () => {
    const hostile = `get\nWeather\u001b[31m\u202e${'x'.repeat(10_000)}`;
    const run = runWithCalls([thrown(hostile, 'c1'), ok(`${hostile}Cached`, 'c2'), thrown('other\r\ntool', 'c3')], 'Done.');
    const result = await createToolErrorRecoveryScorer().run(run);
    expect(result.reason!.length).toBeLessThan(250);
    expect(result.reason).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect(result.reason).toMatch(/^1 of 2 tool failures was recovered \(get Weather \[31m x+… replaced by get Weather \[31m x+…\); other tool failed and the answer does not say so\.$/);
  });
});

describe('admitsFailure', () => {
  it.each([
    "I couldn't reach the weather service.",
    'I could not find any flights.',
    'I can’t check prices right now.',
    'I cannot confirm the booking.',
    'I was unable to load the seat map.',
    "I'm not able to see live prices.",
    'The search failed.',
    'There was an ERROR fetching prices.',
    'Live prices are not available.',
    'The forecast is unavailable.',
    'Sorry about that.',
    'Please try again later.',
    'Something went wrong.',
    'The request timed out.',
  ])('finds an admission in %j', (answer) => {
    expect(admitsFailure(answer)).toBe(true);
  });

  it.each(['It will be sunny in Rome.', 'Flight AZ611 is available for €89.', 'The terror of overbooking is over.', 'No failsafe needed.'])(
    'finds none in %j',
    (answer) => {
      expect(admitsFailure(answer)).toBe(false);
    },
  );

  it('finds none in no answer', () => {
    expect(admitsFailure(undefined)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ScorestreamError } from '../../../../../../../src/kit/errors.ts';
import {
  createToolCallAccuracyScorer,
  isOrderedSubsequence,
} from '../../../../../../../src/kit/scorers/code/tool-call-accuracy/index.ts';
import { createTestMessage } from '../../../../../../../src/kit/testing/agent-test-run.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

const bookingTurn = agentTurn('Book me a flight to Lisbon and a hotel near the airport.', [
  assistantMessage('', [toolCall('searchFlights'), toolCall('searchHotels')], 'assistant-1'),
  assistantMessage('', [toolCall('bookFlight')], 'assistant-2'),
  assistantMessage('Your flight is booked; here are three hotels near the airport.', [], 'assistant-3'),
]);

describe('createToolCallAccuracyScorer: options', () => {
  it.each([
    [{}, 'pass "expectedTool"'],
    [{ expectedTool: 'a', expectedTools: ['a'] }, 'not both'],
    [{ expectedTool: '' }, '"expectedTool" must be a non-empty tool name'],
    [{ expectedTools: [] }, '"expectedTools" must be a non-empty array'],
    [{ expectedTools: ['a', ''] }, 'every entry of "expectedTools"'],
  ])('rejects %j', (options, message) => {
    const create = () => createToolCallAccuracyScorer(options);
    expect(create).toThrow(ScorestreamError);
    expect(create).toThrow(message);
    try {
      create();
    } catch (error) {
      expect((error as ScorestreamError).code).toBe('INVALID_SCORER_OPTIONS');
      expect((error as ScorestreamError).canRetry).toBe(false);
    }
  });
});

describe('createToolCallAccuracyScorer: one expected tool', () => {
  it('scores 1 when the tool was called among others', async () => {
    const result = await createToolCallAccuracyScorer({ expectedTool: 'bookFlight' }).run(bookingTurn);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult).toEqual({
      expectedTools: ['bookFlight'],
      actualTools: ['searchFlights', 'searchHotels', 'bookFlight'],
      strictMode: false,
      matched: true,
    });
    expect(result.reason).toBe(
      'The agent called the tool "bookFlight" as expected (calls: [searchFlights, searchHotels, bookFlight]).',
    );
  });

  it('scores 0 when the tool was not called', async () => {
    const result = await createToolCallAccuracyScorer({ expectedTool: 'bookHotel' }).run(bookingTurn);
    expect(result.score).toBe(0);
    expect(result.reason).toBe(
      'Expected the tool "bookHotel", but the agent called [searchFlights, searchHotels, bookFlight].',
    );
  });

  it('in strict mode needs exactly one call of that tool', async () => {
    const strict = createToolCallAccuracyScorer({ expectedTool: 'getWeather', strictMode: true });
    const alone = agentTurn('Weather in Oslo?', [assistantMessage('It is 4°C in Oslo.', [toolCall('getWeather')])]);
    const twice = agentTurn('Weather in Oslo?', [
      assistantMessage('It is 4°C in Oslo.', [toolCall('getWeather', { id: 'a' }), toolCall('getWeather', { id: 'b' })]),
    ]);
    expect((await strict.run(alone)).score).toBe(1);
    expect((await strict.run(twice)).score).toBe(0);
    const withOthers = await strict.run(bookingTurn);
    expect(withOthers.score).toBe(0);
    expect(withOthers.reason).toContain('and nothing else');
  });

  it('scores 0 when the agent called no tools at all', async () => {
    const result = await createToolCallAccuracyScorer({ expectedTool: 'getWeather' }).run(
      agentTurn('Weather in Oslo?', [assistantMessage('I cannot check the weather.')]),
    );
    expect(result.score).toBe(0);
    expect(result.reason).toBe('Expected the tool "getWeather", but the agent called no tools.');
  });

  it('reads calls from the legacy toolInvocations mirror and ignores partial calls', async () => {
    const legacy = createTestMessage({
      role: 'assistant',
      content: 'Checking.',
      toolInvocations: [toolCall('getWeather', { state: 'partial-call' }), toolCall('getTime', { id: 'call-2' })],
    });
    const scorer = createToolCallAccuracyScorer({ expectedTool: 'getWeather' });
    const result = await scorer.run(agentTurn('Weather?', [legacy]));
    expect(result.preprocessStepResult?.actualTools).toEqual(['getTime']);
    expect(result.score).toBe(0);
  });
});

describe('createToolCallAccuracyScorer: expected sequence', () => {
  it('accepts the tools in order with other calls in between', async () => {
    const result = await createToolCallAccuracyScorer({ expectedTools: ['searchFlights', 'bookFlight'] }).run(bookingTurn);
    expect(result.score).toBe(1);
    expect(result.reason).toContain('the tools [searchFlights, bookFlight] in order as expected');
  });

  it('rejects the tools in the wrong order or with one missing', async () => {
    expect((await createToolCallAccuracyScorer({ expectedTools: ['bookFlight', 'searchFlights'] }).run(bookingTurn)).score).toBe(0);
    expect((await createToolCallAccuracyScorer({ expectedTools: ['searchFlights', 'bookHotel'] }).run(bookingTurn)).score).toBe(0);
  });

  it('in strict mode needs exactly that sequence', async () => {
    const exact = createToolCallAccuracyScorer({ expectedTools: ['searchFlights', 'searchHotels', 'bookFlight'], strictMode: true });
    const partial = createToolCallAccuracyScorer({ expectedTools: ['searchFlights', 'bookFlight'], strictMode: true });
    expect((await exact.run(bookingTurn)).score).toBe(1);
    expect((await partial.run(bookingTurn)).score).toBe(0);
  });
});

describe('createToolCallAccuracyScorer: not scorable', () => {
  it.each([[[]], ['a plain string answer']])('when the output holds no messages (%j)', async (output) => {
    const result = await createToolCallAccuracyScorer({ expectedTool: 'x' }).run({ input: 'hi' as never, output: output as never });
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({
      step: 'preprocess',
      reason: 'The run has no response messages to look for tool calls in.',
    });
  });
});

describe('isOrderedSubsequence', () => {
  it('matches in order, allows gaps, and treats repeats as needing repeats', () => {
    expect(isOrderedSubsequence(['a', 'c'], ['a', 'b', 'c'])).toBe(true);
    expect(isOrderedSubsequence(['c', 'a'], ['a', 'b', 'c'])).toBe(false);
    expect(isOrderedSubsequence(['a', 'a'], ['a', 'b'])).toBe(false);
    expect(isOrderedSubsequence(['a', 'a'], ['a', 'b', 'a'])).toBe(true);
    expect(isOrderedSubsequence([], ['a'])).toBe(true);
  });
});

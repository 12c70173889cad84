import { describe, expect, it } from 'vitest';
import { getJudgeContext, toolResultContext } from '../../../../../../src/kit/scorers/shared/judge-context.ts';
import { assistantMessage, toolCall } from '../agent-runs.ts';

describe('toolResultContext', () => {
  it('lists successful results in call order, strings as they are and values as JSON', () => {
    const output = [
      assistantMessage('', [
        toolCall('weather', { id: '1', result: { city: 'Oslo', celsius: 4 } }),
        toolCall('failing', { id: '2', state: 'output-error', errorText: 'boom' }),
        toolCall('flagged', { id: '3', result: 'quota exceeded', isError: true }),
        toolCall('pending', { id: '4', state: 'call' }),
      ]),
      assistantMessage('It is 4°C.', [toolCall('time', { id: '5', result: '10:42' })], 'a2'),
    ];
    expect(toolResultContext(output)).toEqual(['weather: {"city":"Oslo","celsius":4}', 'time: 10:42']);
  });

  it('describes results that JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const output = [
      assistantMessage('', [toolCall('cyclic', { id: '1', result: cyclic }), toolCall('big', { id: '2', result: 10n })]),
    ];
    expect(toolResultContext(output)).toEqual(['cyclic: [object Object]', 'big: 10']);
  });

  it('gives nothing for outputs without tool calls', () => {
    expect(toolResultContext('text')).toEqual([]);
    expect(toolResultContext([assistantMessage('Hi')])).toEqual([]);
  });
});

describe('getJudgeContext', () => {
  const output = [assistantMessage('x', [toolCall('weather', { result: 'sunny' })])];

  it('prefers the configured context, dropping blank items', () => {
    expect(getJudgeContext(['Fact one.', '', '  '], output)).toEqual({ items: ['Fact one.'], source: 'options' });
    expect(getJudgeContext([], output)).toEqual({ items: [], source: 'options' });
  });

  it('falls back to tool results', () => {
    expect(getJudgeContext(undefined, output)).toEqual({ items: ['weather: sunny'], source: 'tool-results' });
  });
});

// Plugin-qualified tool names (Semantic Kernel's `<Plugin>-<function>`): both parts kept, a tool
// found by either; and the trajectory scorer finds an expected step by the function's name alone.
import { describe, expect, it } from 'vitest';
import { matchesToolName, toolNameParts } from '../../../../../src/kit/utils/tool-name.ts';
import { createTrajectoryMatchScorer } from '../../../../../src/kit/scorers/code/trajectory-match/index.ts';

describe('plugin-qualified tool names', () => {
  it('keeps both parts and matches by either', () => {
    expect(toolNameParts('OrdersPlugin-get_order_status')).toEqual({ plugin: 'OrdersPlugin', tool: 'get_order_status' });
    expect(toolNameParts('get_order_status')).toEqual({ tool: 'get_order_status' });
    expect(toolNameParts('-x')).toEqual({ tool: '-x' });
    expect(matchesToolName('get_order_status', 'OrdersPlugin-get_order_status')).toBe(true);
    expect(matchesToolName('OrdersPlugin-get_order_status', 'OrdersPlugin-get_order_status')).toBe(true);
    expect(matchesToolName('OrdersPlugin', 'OrdersPlugin-get_order_status')).toBe(false);
    expect(matchesToolName('get_order', 'OrdersPlugin-get_order_status')).toBe(false);
  });

  it('the trajectory scorer finds an expected step by the function name of a qualified call', async () => {
    const call = { role: 'assistant', content: { format: 2, parts: [{ type: 'tool-invocation', toolInvocation: { toolCallId: 'c1', toolName: 'WeatherPlugin-get_weather', args: { city: 'Paris' }, state: 'result', result: 'sunny' } }] } };
    const run = { input: { inputMessages: [], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} }, output: [call] };
    const scorer = createTrajectoryMatchScorer({ mode: 'exact', compareArgs: true });
    expect(((await scorer.run({ ...run, expectedTrajectory: [{ toolName: 'get_weather', args: { city: 'Paris' } }] } as never)) as { score: number }).score).toBe(1);
    expect(((await scorer.run({ ...run, expectedTrajectory: [{ toolName: 'WeatherPlugin-get_weather' }] } as never)) as { score: number }).score).toBe(1);
    expect(((await scorer.run({ ...run, expectedTrajectory: [{ toolName: 'get_forecast' }] } as never)) as { score: number }).score).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { filterRun } from '../../../../../src/kit/filter-run/filter-run.ts';

const text = (id: string, value = id) => ({ id, role: 'assistant', content: { format: 2, parts: [{ type: 'text', text: value }] } });
const tool = (id: string, toolName: string, extraParts: unknown[] = []) => ({
  id,
  role: 'assistant',
  content: {
    format: 2,
    parts: [...extraParts, { type: 'tool-invocation', toolInvocation: { toolCallId: id, toolName, args: {}, state: 'result' } }],
  },
});
const data = (id: string, type: string) => ({ id, role: 'assistant', content: { format: 2, parts: [{ type, data: {} }] } });
const empty = (id: string) => ({ id, role: 'assistant', content: { format: 2, parts: [] } });
const stringContent = (id: string) => ({ id, role: 'user', content: 'plain string content' });
const ids = (messages: unknown) => (messages as { id: string }[]).map((message) => message.id);

const agentInput = (rememberedMessages: unknown) => ({
  inputMessages: [text('in-1'), tool('in-2', 'search')],
  rememberedMessages,
  systemMessages: [{ role: 'system', content: 'instructions' }],
  taggedSystemMessages: { memory: [{ role: 'system', content: 'm' }] },
});

describe('filterRun: copying and dropping', () => {
  it('returns a shallow copy and never mutates the run or its arrays', () => {
    const output = [text('a'), tool('b', 'search')];
    const remembered = [text('r1'), tool('r2', 'search')];
    const run = { runId: 'r', input: agentInput(remembered), output, extra: { kept: true } };
    const snapshot = structuredClone(run);
    const result = filterRun({ partTypes: ['text'], maxOutputMessages: 1, maxRememberedMessages: 1 })(run);
    expect(result).not.toBe(run);
    expect(run).toEqual(snapshot);
    expect(result.extra).toBe(run.extra);
    expect(result.runId).toBe('r');
  });

  it('keeps the same output array reference when no filter and no limit apply', () => {
    const output = [text('a'), text('b')];
    expect(filterRun({})({ output }).output).toBe(output);
    expect(filterRun({ maxOutputMessages: 5 })({ output }).output).toBe(output);
    expect(filterRun()({ output }).output).toBe(output);
    expect(filterRun({ maxOutputMessages: 0 })({ output }).output).toBe(output);
  });

  it('sets drop* fields to undefined but keeps the keys', () => {
    const run = { output: [], requestContext: { a: 1 }, expectedTrajectory: { steps: [] }, groundTruth: 'truth' };
    const result = filterRun({ dropRequestContext: true, dropExpectedTrajectory: true, dropGroundTruth: true })(run);
    expect(Object.hasOwn(result, 'requestContext') && result.requestContext === undefined).toBe(true);
    expect(Object.hasOwn(result, 'expectedTrajectory') && result.expectedTrajectory === undefined).toBe(true);
    expect(Object.hasOwn(result, 'groundTruth') && result.groundTruth === undefined).toBe(true);
    expect(run.requestContext).toEqual({ a: 1 });
  });

  it('leaves the fields alone when drop* is false or absent', () => {
    const run = { output: [], requestContext: { a: 1 }, groundTruth: 'truth' };
    expect(filterRun({ dropGroundTruth: false })(run)).toEqual(run);
  });
});

describe('filterRun: input', () => {
  it('filters only rememberedMessages: inputMessages, systemMessages and taggedSystemMessages are never touched', () => {
    const input = agentInput([text('r1'), tool('r2', 'search')]);
    const result = filterRun({ partTypes: ['tool-invocation'] })({ input, output: [] });
    const filtered = result.input as typeof input;
    expect(filtered).not.toBe(input);
    expect(ids(filtered.rememberedMessages)).toEqual(['r2']);
    expect(filtered.inputMessages).toBe(input.inputMessages);
    expect(filtered.systemMessages).toBe(input.systemMessages);
    expect(filtered.taggedSystemMessages).toBe(input.taggedSystemMessages);
  });

  it('turns rememberedMessages: undefined into []', () => {
    const result = filterRun({})({ input: agentInput(undefined), output: [] });
    expect((result.input as { rememberedMessages: unknown }).rememberedMessages).toEqual([]);
  });

  it('makes a new input object whenever the input has a rememberedMessages key', () => {
    const remembered = [text('r1')];
    const input = agentInput(remembered);
    const result = filterRun({})({ input, output: [] });
    expect(result.input).not.toBe(input);
    expect((result.input as { rememberedMessages: unknown }).rememberedMessages).toBe(remembered);
  });

  it('leaves inputs without a rememberedMessages key untouched (same reference)', () => {
    const input = { inputMessages: [text('a')] };
    expect(filterRun({ partTypes: ['tool-'] })({ input, output: [] }).input).toBe(input);
    expect(filterRun({ partTypes: ['tool-'] })({ input: 'a string', output: [] }).input).toBe('a string');
  });

  it('passes a non-array rememberedMessages through', () => {
    const result = filterRun({ partTypes: ['text'] })({ input: agentInput('odd'), output: [] });
    expect((result.input as { rememberedMessages: unknown }).rememberedMessages).toBe('odd');
  });

  it('keeps the last maxRememberedMessages after filtering', () => {
    const remembered = [text('r1'), tool('r2', 'search'), text('r3'), tool('r4', 'fetch'), tool('r5', 'search')];
    const result = filterRun({ partTypes: ['tool-invocation'], maxRememberedMessages: 2 })({ input: agentInput(remembered), output: [] });
    expect(ids((result.input as { rememberedMessages: unknown }).rememberedMessages)).toEqual(['r4', 'r5']);
  });
});

describe('filterRun: output', () => {
  it('passes non-array outputs through', () => {
    const trajectory = { steps: [] };
    expect(filterRun({ partTypes: ['text'] })({ output: 'text' }).output).toBe('text');
    expect(filterRun({ partTypes: ['text'] })({ output: trajectory }).output).toBe(trajectory);
  });

  it('keeps the last maxOutputMessages after filtering', () => {
    const output = [tool('a', 'search'), text('b'), tool('c', 'search'), tool('d', 'fetch')];
    expect(ids(filterRun({ toolNames: ['search'], maxOutputMessages: 1 })({ output }).output)).toEqual(['c']);
  });

  it('treats a limit of 0 as no limit (surprise), not as keep none', () => {
    const output = [text('a'), text('b')];
    expect(ids(filterRun({ maxOutputMessages: 0 })({ output }).output)).toEqual(['a', 'b']);
    const result = filterRun({ maxRememberedMessages: 0 })({ input: agentInput([text('r1'), text('r2')]), output: [] });
    expect(ids((result.input as { rememberedMessages: unknown }).rememberedMessages)).toEqual(['r1', 'r2']);
  });
});

describe('filterRun: the per-message rule', () => {
  const output = [
    text('plain'),
    tool('search-call', 'search_web'),
    tool('fetch-call', 'fetch_page', [{ type: 'step-start' }]),
    data('om', 'data-om-status'),
    data('sandbox', 'data-sandbox-stdout'),
    empty('empty'),
    stringContent('string'),
  ];
  const run = (options: Parameters<typeof filterRun>[0]) => ids(filterRun(options)({ output }).output);

  it('always keeps messages whose parts are not an array (e.g. string content)', () => {
    expect(run({ partTypes: ['tool-invocation'] })).toContain('string');
    expect(run({ toolNames: ['nothing'] })).toContain('string');
  });

  it('drops plain text messages with partTypes: [tool-invocation]', () => {
    expect(run({ partTypes: ['tool-invocation'] })).toEqual(['search-call', 'fetch-call', 'string']);
  });

  it('never drops a message without tool parts because of toolNames', () => {
    expect(run({ toolNames: ['search'] })).toEqual(['plain', 'search-call', 'om', 'sandbox', 'empty', 'string']);
  });

  it('prefix-matches part types (data- and data-om-)', () => {
    expect(run({ partTypes: ['data-'] })).toEqual(['om', 'sandbox', 'string']);
    expect(run({ partTypes: ['data-om-'] })).toEqual(['om', 'string']);
  });

  it('prefix-matches tool names', () => {
    expect(run({ toolNames: ['fetch'] })).toEqual(['plain', 'fetch-call', 'om', 'sandbox', 'empty', 'string']);
  });

  it('drops messages with empty parts whenever partTypes is set', () => {
    expect(run({ partTypes: ['text', 'data-', 'tool-'] })).not.toContain('empty');
    expect(run({})).toContain('empty');
  });

  it('matches partTypes against any part of a tool message, including step-start', () => {
    expect(run({ partTypes: ['step-start'] })).toEqual(['fetch-call', 'string']);
  });

  it('requires both filters to pass for a tool message', () => {
    expect(run({ toolNames: ['search'], partTypes: ['step-start'] })).toEqual(['string']);
    expect(run({ toolNames: ['fetch'], partTypes: ['step-start'] })).toEqual(['fetch-call', 'string']);
  });

  it('keeps a tool message when one of several tool parts matches', () => {
    const both = {
      id: 'both',
      content: {
        parts: [
          { type: 'tool-invocation', toolInvocation: { toolName: 'other' } },
          { type: 'tool-invocation', toolInvocation: { toolName: 'search' } },
        ],
      },
    };
    expect(ids(filterRun({ toolNames: ['search'] })({ output: [both] }).output)).toEqual(['both']);
  });

  it('treats an empty pattern list as set, matching nothing (as Mastra)', () => {
    expect(run({ partTypes: [] })).toEqual(['string']);
    expect(run({ toolNames: [] })).toEqual(['plain', 'om', 'sandbox', 'empty', 'string']);
  });

  it('makes a new array when a filter is set even if nothing is dropped', () => {
    const all = [text('a')];
    const result = filterRun({ partTypes: ['text'] })({ output: all }).output;
    expect(result).not.toBe(all);
    expect(result).toEqual(all);
  });

  it('tolerates odd messages and parts', () => {
    const odd = [null, 'str', { content: null }, { id: 'bad-parts', content: { parts: [null, 5, { type: 7 }] } }, { id: 'bad-tool', content: { parts: [{ type: 'tool-invocation' }] } }];
    const result = filterRun({ partTypes: ['text'], toolNames: ['x'] })({ output: odd }).output;
    expect(result).toEqual([null, 'str', { content: null }]);
  });
});

describe('filterRun: option validation', () => {
  it.each([
    [{ maxOutputMessages: -1 }, 'maxOutputMessages must be a non-negative integer (0 means no limit), got -1'],
    [{ maxRememberedMessages: 1.5 }, 'maxRememberedMessages must be a non-negative integer (0 means no limit), got 1.5'],
    [{ maxOutputMessages: Number.NaN }, 'maxOutputMessages must be a non-negative integer (0 means no limit), got NaN'],
    [{ maxOutputMessages: '3' }, 'maxOutputMessages must be a non-negative integer (0 means no limit), got "3"'],
    [{ partTypes: 'text' }, 'partTypes must be an array of prefix strings, got "text"'],
    [{ toolNames: ['ok', 3] }, 'toolNames[1] must be a string, got 3'],
    [{ partTypes: [null] }, 'partTypes[0] must be a string, got null'],
    [{ dropGroundTruth: 'yes' }, 'dropGroundTruth must be a boolean, got "yes"'],
    [{ maxOutputMessage: 3 }, "unknown option(s) 'maxOutputMessage'"],
  ])('throws a TypeError naming the bad option for %j', (options, message) => {
    expect(() => filterRun(options as never)).toThrow(TypeError);
    expect(() => filterRun(options as never)).toThrow(message);
  });

  it('rejects non-object options', () => {
    expect(() => filterRun(null as never)).toThrow('filterRun: options must be an object, got null.');
    expect(() => filterRun([] as never)).toThrow('filterRun: options must be an object, got an array.');
  });

  it('validates when filterRun is called, not when the run is prepared', () => {
    let prepare: unknown;
    expect(() => {
      prepare = filterRun({ maxOutputMessages: -2 });
    }).toThrow(TypeError);
    expect(prepare).toBeUndefined();
  });

  it('accepts every valid option', () => {
    expect(() =>
      filterRun({
        partTypes: ['text'],
        toolNames: [],
        maxRememberedMessages: 0,
        maxOutputMessages: 10,
        dropRequestContext: true,
        dropExpectedTrajectory: false,
        dropGroundTruth: undefined,
      }),
    ).not.toThrow();
  });
});

import { Ajv } from 'ajv/dist/ajv.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToolArgumentValidityScorer } from '../../../../../../../src/kit/scorers/code/tool-argument-validity/index.ts';
import { NO_OFFERED_TOOLS_REASON } from '../../../../../../../src/kit/scorers/shared/offered-tools.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';
import type { ToolDefinition } from '../../../../../../../src/kit/contracts/agent-run-event.ts';
import type { ToolInvocation } from '../../../../../../../src/kit/utils/message-types.ts';

const lookupOrder = {
  name: 'lookupOrder',
  description: 'Finds an order by its id',
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { orderId: { type: 'string' }, includeItems: { type: 'boolean' } },
    required: ['orderId'],
    additionalProperties: false,
  },
};

function runWith(tools: ToolDefinition[] | undefined, calls: ToolInvocation[]) {
  const run = agentTurn('Where is my order?', [assistantMessage('Here is what I found.', calls)]);
  return tools === undefined ? run : { ...run, tools };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createToolArgumentValidityScorer', () => {
  it('scores 1 − invalid/checked and records each refused call with its problems', async () => {
    const run = runWith(
      [lookupOrder],
      [
        toolCall('lookupOrder', { id: 'ok', args: { orderId: 'A-42', includeItems: true } }),
        toolCall('lookupOrder', { id: 'type', args: { orderId: 42 } }),
        toolCall('lookupOrder', { id: 'missing', args: { includeItems: false } }),
        toolCall('lookupOrder', { id: 'extra', args: { orderId: 'A-1', verbose: true } }),
      ],
    );
    const result = await createToolArgumentValidityScorer().run(run);
    expect(result.score).toBe(0.25);
    expect(result.preprocessStepResult).toEqual({
      totalCalls: 4,
      checkedCalls: 4,
      invalidCalls: [
        { toolName: 'lookupOrder', toolCallId: 'type', problems: ['/orderId must be string'] },
        { toolName: 'lookupOrder', toolCallId: 'missing', problems: ["must have required property 'orderId'"] },
        { toolName: 'lookupOrder', toolCallId: 'extra', problems: ['must NOT have additional properties (verbose)'] },
      ],
      uncheckedCalls: [],
    });
    expect(result.reason).toBe(
      '3 of 4 tool calls had arguments its schema refuses: lookupOrder (/orderId must be string), ' +
        "lookupOrder (must have required property 'orderId'), lookupOrder (must NOT have additional properties (verbose)).",
    );
  });

  it('says so when every call had valid arguments', async () => {
    const run = runWith([lookupOrder], [toolCall('lookupOrder', { id: 'a', args: { orderId: '1' } }), toolCall('lookupOrder', { id: 'b', args: { orderId: '2' } })]);
    const result = await createToolArgumentValidityScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.reason).toBe('All 2 tool calls had valid arguments.');
    const single = await createToolArgumentValidityScorer().run(runWith([lookupOrder], [toolCall('lookupOrder', { args: { orderId: '1' } })]));
    expect(single.reason).toBe('The one tool call had valid arguments.');
  });

  it('matches the example reason for one refused call of three', async () => {
    const run = runWith(
      [lookupOrder, { name: 'refund', parameters: { type: 'object', properties: { amount: { type: 'number' } } } }],
      [
        toolCall('lookupOrder', { id: 'c1', args: { orderId: 7 } }),
        toolCall('lookupOrder', { id: 'c2', args: { orderId: '7' } }),
        toolCall('refund', { id: 'c3', args: { amount: 12.5 } }),
      ],
    );
    const result = await createToolArgumentValidityScorer().run(run);
    expect(result.score).toBeCloseTo(2 / 3, 12);
    expect(result.reason).toBe('1 of 3 tool calls had arguments its schema refuses: lookupOrder (/orderId must be string).');
  });

  it('parses arguments carried as a JSON string, reads an empty string as no arguments, and refuses a string that is not JSON', async () => {
    const noArguments = { name: 'ping', parameters: { type: 'object', properties: {}, additionalProperties: false } };
    const run = runWith(
      [lookupOrder, noArguments],
      [
        toolCall('lookupOrder', { id: 'json-ok', args: '{"orderId":"A-42"}' }),
        toolCall('lookupOrder', { id: 'json-bad', args: '{"orderId":42}' }),
        toolCall('lookupOrder', { id: 'not-json', args: '{orderId: A-42' }),
        toolCall('ping', { id: 'empty', args: '  ' }),
      ],
    );
    const result = await createToolArgumentValidityScorer().run(run);
    expect(result.preprocessStepResult?.invalidCalls).toEqual([
      { toolName: 'lookupOrder', toolCallId: 'json-bad', problems: ['/orderId must be string'] },
      { toolName: 'lookupOrder', toolCallId: 'not-json', problems: ['arguments are a string that is not JSON'] },
    ]);
    expect(result.score).toBe(0.5);
  });

  it('validates a draft-07 tuple (`items` array) and a 2020-12 tuple (`prefixItems`) each by its own dialect', async () => {
    const draft07 = {
      name: 'setRange',
      parameters: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { range: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false } },
      },
    };
    const draft2020 = {
      name: 'setPoint',
      parameters: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
        $defs: { unused: { type: 'string' } },
      },
    };
    const run = runWith(
      [draft07, draft2020],
      [
        toolCall('setRange', { id: 'r-ok', args: { range: [1, 2] } }),
        toolCall('setRange', { id: 'r-bad', args: { range: [1, 'two'] } }),
        toolCall('setPoint', { id: 'p-ok', args: { point: [3, 4] } }),
        toolCall('setPoint', { id: 'p-bad', args: { point: ['three', 4, 5] } }),
      ],
    );
    const result = await createToolArgumentValidityScorer().run(run);
    expect(result.preprocessStepResult?.uncheckedCalls).toEqual([]);
    expect(result.preprocessStepResult?.invalidCalls).toEqual([
      { toolName: 'setRange', toolCallId: 'r-bad', problems: ['/range/1 must be number'] },
      { toolName: 'setPoint', toolCallId: 'p-bad', problems: ['/point/0 must be number', '/point must NOT have more than 2 items'] },
    ]);
    expect(result.score).toBe(0.5);
  });

  it('leaves calls unchecked, with why, when the schema cannot be used, and never fetches a remote $ref', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const tools = [
      { name: 'broken', parameters: { type: 'object', properties: { a: { type: 'nope' } } } },
      { name: 'remote', parameters: { $ref: 'https://schemas.example.com/evil.json' } },
      { name: 'draft4', parameters: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } },
      { name: 'async', parameters: { $async: true, type: 'object' } },
      { name: 'bare' },
      lookupOrder,
    ];
    const run = runWith(tools, [
      toolCall('broken', { id: 'b' }),
      toolCall('remote', { id: 'r' }),
      toolCall('draft4', { id: 'd' }),
      toolCall('async', { id: 'a' }),
      toolCall('bare', { id: 'n' }),
      toolCall('ghost', { id: 'g' }),
      toolCall('lookupOrder', { id: 'ok', args: { orderId: '1' } }),
    ]);
    const result = await createToolArgumentValidityScorer().run(run);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(result.score).toBe(1);
    const unchecked = result.preprocessStepResult!.uncheckedCalls;
    expect(unchecked.map(({ toolCallId, why }) => [toolCallId, why])).toEqual([
      ['b', 'schema-unusable'],
      ['r', 'schema-unusable'],
      ['d', 'schema-unusable'],
      ['a', 'schema-unusable'],
      ['n', 'no-parameters'],
      ['g', 'tool-not-offered'],
    ]);
    expect(unchecked[0]!.detail).toMatch(/schema is invalid/);
    expect(unchecked[1]!.detail).toMatch(/can't resolve reference https:\/\/schemas\.example\.com\/evil\.json/);
    expect(unchecked[2]!.detail).toBe('unsupported $schema "http://json-schema.org/draft-04/schema#" (supported: draft-07, 2020-12)');
    expect(unchecked[3]!.detail).toBe('asynchronous schemas ($async) are not supported');
    expect(unchecked.every((call) => call.detail === undefined || call.detail.length <= 160)).toBe(true);
    expect(result.reason).toBe(
      'The one tool call had valid arguments. 6 more calls could not be checked: broken (schema unusable), ' +
        'remote (schema unusable), draft4 (schema unusable), async (schema unusable), bare (offered without parameters) and 1 more.',
    );
  });

  it('keeps tools that share an `$id` with different contents apart', async () => {
    const first = { name: 'first', parameters: { $id: 'https://example.com/args', type: 'object', required: ['a'] } };
    const second = { name: 'second', parameters: { $id: 'https://example.com/args', type: 'object', required: ['b'] } };
    const run = runWith([first, second], [toolCall('first', { id: '1', args: { a: 1 } }), toolCall('second', { id: '2', args: { b: 1 } })]);
    const result = await createToolArgumentValidityScorer().run(run);
    expect(result.preprocessStepResult?.uncheckedCalls).toEqual([]);
    expect(result.score).toBe(1);
  });

  it('is not scorable when the run does not say which tools were offered', async () => {
    const result = await createToolArgumentValidityScorer().run(runWith(undefined, [toolCall('lookupOrder')]));
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: NO_OFFERED_TOOLS_REASON });
  });

  it('is not scorable when the agent called no tools', async () => {
    const result = await createToolArgumentValidityScorer().run(runWith([lookupOrder], []));
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'The agent called no tools.' });
  });

  it('is not scorable, saying why, when no call could be checked', async () => {
    const result = await createToolArgumentValidityScorer().run(runWith([], [toolCall('search', { id: 's' })]));
    expect(result.notScorable).toEqual({
      step: 'preprocess',
      reason: 'No tool call could be checked against a parameter schema: search (not offered).',
    });
    const bare = await createToolArgumentValidityScorer().run(runWith([{ name: 'search' }], [toolCall('search')]));
    expect(bare.notScorable?.reason).toBe('No tool call could be checked against a parameter schema: search (offered without parameters).');
  });

  it('compiles each distinct schema once, across calls, runs and key order', async () => {
    const compile = vi.spyOn(Object.getPrototypeOf(Ajv.prototype) as { compile: (schema: unknown) => unknown }, 'compile');
    const scorer = createToolArgumentValidityScorer();
    const reordered = { ...lookupOrder, parameters: { additionalProperties: false, required: ['orderId'], properties: lookupOrder.parameters.properties, type: 'object', $schema: lookupOrder.parameters.$schema } };
    const calls = [toolCall('lookupOrder', { id: '1', args: { orderId: '1' } }), toolCall('lookupOrder', { id: '2', args: { orderId: 2 } })];
    expect((await scorer.run(runWith([lookupOrder], calls))).score).toBe(0.5);
    // Another run decodes its own copy of the same definition: found by its text, not its object.
    expect((await scorer.run(runWith([structuredClone(lookupOrder)], calls))).score).toBe(0.5);
    expect((await scorer.run(runWith([reordered], calls))).score).toBe(0.5);
    expect(compile).toHaveBeenCalledTimes(1);
    // A schema that failed to compile is remembered too.
    const broken = [{ name: 'broken', parameters: { type: 'nope' } }];
    await scorer.run(runWith(broken, [toolCall('broken')]));
    await scorer.run(runWith(broken, [toolCall('broken')]));
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('drops the least recently used schema past maxCachedSchemas', async () => {
    const compile = vi.spyOn(Object.getPrototypeOf(Ajv.prototype) as { compile: (schema: unknown) => unknown }, 'compile');
    const scorer = createToolArgumentValidityScorer({ maxCachedSchemas: 2 });
    const schemaFor = (name: string) => [{ name, parameters: { type: 'object', title: name } }];
    for (const name of ['a', 'b', 'a', 'c', 'a', 'b']) await scorer.run(runWith(schemaFor(name), [toolCall(name)]));
    // a, b compiled; a hit (now newest); c evicts b; a hit; b compiled again.
    expect(compile).toHaveBeenCalledTimes(4);
  });

  it('records at most maxProblemsPerCall problems, each short and on one line', async () => {
    const wide = {
      name: 'wide',
      parameters: { type: 'object', properties: Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((key) => [key, { type: 'string' }])) },
    };
    const args = { a: 1, b: 2, c: 3, d: 4, e: 5 };
    const defaults = await createToolArgumentValidityScorer().run(runWith([wide], [toolCall('wide', { args })]));
    expect(defaults.preprocessStepResult?.invalidCalls[0]?.problems).toEqual(['/a must be string', '/b must be string', '/c must be string']);
    const one = await createToolArgumentValidityScorer({ maxProblemsPerCall: 1 }).run(runWith([wide], [toolCall('wide', { args })]));
    expect(one.preprocessStepResult?.invalidCalls[0]?.problems).toEqual(['/a must be string']);
  });

  it('refuses options that cannot work, saying what is expected', () => {
    expect(() => createToolArgumentValidityScorer({ maxCachedSchemas: 0 })).toThrow(/"maxCachedSchemas" must be a whole number >= 1; got 0\. Leave it out for the default \(1000\)/);
    expect(() => createToolArgumentValidityScorer({ maxProblemsPerCall: 1.5 })).toThrow(/"maxProblemsPerCall" must be a whole number >= 1; got 1\.5/);
  });

  it('shows hostile tool names and argument keys as data in the reason', async () => {
    const hostile = 'lookup\n\u001b[2J\u001b[31mORDER\u001b[0m';
    const tools = [{ name: hostile, parameters: { type: 'object', additionalProperties: false } }];
    const run = runWith(tools, [toolCall(hostile, { id: 'h', args: { 'evil\nkey\u001b[0m': 1 } })]);
    const result = await createToolArgumentValidityScorer().run(run);
    expect(result.score).toBe(0);
    expect(result.preprocessStepResult?.invalidCalls[0]?.toolName).toBe(hostile);
    expect(result.reason).toBe(
      '1 of 1 tool call had arguments its schema refuses: lookup [2J [31mORDER [0m (must NOT have additional properties (evil key [0m)).',
    );
    expect(result.reason).not.toMatch(/\p{Cc}/u);
  });
});

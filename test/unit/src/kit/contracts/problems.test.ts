import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatPath, formatProblems } from '../../../../../src/kit/contracts/problems.ts';
import { parseWith } from '../../../../../src/kit/contracts/parse.ts';

describe('formatPath', () => {
  it('joins keys with dots and indexes with brackets', () => {
    expect(formatPath(['output', 0, 'content', 'parts', 1, 'type'])).toBe('output[0].content.parts[1].type');
  });

  it('quotes keys that are not identifiers', () => {
    expect(formatPath(['headers', 'x-trace id', 0])).toBe('headers["x-trace id"][0]');
    expect(formatPath([])).toBe('');
  });
});

describe('formatProblems', () => {
  it('lists one problem a line and names the root', () => {
    expect(formatProblems([{ path: '', message: 'expected object' }, { path: 'a.b', message: 'required' }])).toBe('  - (root): expected object\n  - a.b: required');
  });
});

describe('union resolution', () => {
  const schema = z.union([z.object({ kind: z.literal('a'), x: z.number() }), z.object({ kind: z.literal('b'), y: z.string() })], { error: 'expected kind a or b' });

  it('reports the branch whose literal matched', () => {
    const result = parseWith(schema, { kind: 'b', y: 1 });
    expect(result.success ? [] : result.problems.map((problem) => problem.path)).toEqual(['y']);
  });

  it('reports the union message at the discriminator when no branch matched', () => {
    const result = parseWith(schema, { kind: 'c' });
    expect(result.success ? [] : result.problems).toEqual([{ path: 'kind', message: 'expected kind a or b' }]);
  });

  it('falls back to the union message when branches disagree about a wrong type', () => {
    const result = parseWith(z.union([z.string(), z.number()], { error: 'expected text or a number' }), true);
    expect(result.success ? [] : result.problems).toEqual([{ path: '', message: 'expected text or a number' }]);
  });
});

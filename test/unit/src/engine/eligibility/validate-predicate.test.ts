import { describe, expect, it } from 'vitest';
import { ScorestreamError } from '../../../../../src/kit/errors.ts';
import {
  findPredicateIssues,
  InvalidPredicateError,
  validatePredicate,
} from '../../../../../src/engine/eligibility/validate-predicate.ts';
import { PREDICATE_ROOTS } from '../../../../../src/engine/eligibility/predicate-context.ts';

const roots = PREDICATE_ROOTS.join(', ');

function thrownBy(predicate: unknown, options?: Parameters<typeof validatePredicate>[1]): InvalidPredicateError {
  try {
    validatePredicate(predicate, options);
  } catch (error) {
    return error as InvalidPredicateError;
  }
  throw new Error('expected validatePredicate to throw');
}

describe('validatePredicate: valid predicates', () => {
  it('accepts every operator and returns the same predicate', () => {
    const predicate = {
      op: 'and',
      args: [
        { op: 'eq', left: { path: 'requestContext.tier' }, right: { literal: 'gold' } },
        { op: 'ne', left: { path: '${entity.id}' }, right: { literal: null } },
        { op: 'lt', left: { path: 'metadata.priority' }, right: { literal: 3 } },
        { op: 'lte', left: { literal: 1 }, right: { literal: 2 } },
        { op: 'gt', left: { path: 'runId' }, right: { literal: 'a' } },
        { op: 'gte', left: { path: 'traceId' }, right: { path: 'threadId' } },
        { op: 'in', value: { path: 'metadata.environment' }, set: ['prod', 'staging', 1, true, null] },
        { op: 'notIn', value: { path: 'metadata.tenantId' }, set: ['internal'] },
        { op: 'exists', path: 'resourceId' },
        { op: 'notExists', path: '${projectId}' },
        { op: 'truthy', value: { path: 'requestContext.beta' } },
        { op: 'falsy', value: { path: 'source' } },
        { op: 'contains', value: { path: 'metadata.tags' }, item: 'beta' },
        { op: 'or', args: [{ op: 'not', arg: { op: 'exists', path: 'entityType' } }] },
      ],
    };
    expect(validatePredicate(predicate)).toBe(predicate);
    expect(findPredicateIssues(predicate)).toEqual([]);
  });

  it('allows every documented root', () => {
    for (const root of PREDICATE_ROOTS) expect(() => validatePredicate({ op: 'exists', path: root })).not.toThrow();
  });

  it('accepts custom roots', () => {
    expect(() => validatePredicate({ op: 'exists', path: 'tenant.id' }, { roots: ['tenant'] })).not.toThrow();
    expect(() => validatePredicate({ op: 'exists', path: 'entity.id' }, { roots: ['tenant'] })).toThrow('must start with one of: tenant');
  });
});

describe('validatePredicate: errors', () => {
  it('throws an InvalidPredicateError, a ScorestreamError with code INVALID_FILTER', () => {
    const error = thrownBy({ op: 'exists', path: 'input.text' });
    expect(error).toBeInstanceOf(InvalidPredicateError);
    expect(error).toBeInstanceOf(ScorestreamError);
    expect(error.code).toBe('INVALID_FILTER');
    expect(error.canRetry).toBe(false);
    expect(error.name).toBe('InvalidPredicateError');
  });

  it("states bad roots in Mastra's words, with the location of each", () => {
    const error = thrownBy({ op: 'exists', path: 'input.text' });
    expect(error.message).toBe(`Invalid scoring filter: path(s) "input.text" (at path) must start with one of: ${roots}.`);
  });

  it('lists every bad path and operator of a nested predicate in one error', () => {
    const error = thrownBy({
      op: 'and',
      args: [
        { op: 'eq', left: { path: 'requestContext.ok' }, right: { literal: 1 } },
        { op: 'eq', left: { path: 'output.text' }, right: { path: '' } },
        { op: 'equals', left: { path: 'entity.id' } },
        { op: 'not', arg: { op: 'in', value: { path: '${}' }, set: [] } },
      ],
    });
    expect(error.issues.map((issue) => issue.at)).toEqual([
      'args[1].left.path',
      'args[1].right.path',
      'args[3].arg.value.path',
      'args[2].op',
      'args[3].arg.set',
    ]);
    expect(error.message).toBe(
      `Invalid scoring filter: path(s) "output.text" (at args[1].left.path), "" (at args[1].right.path), "\${}" (at args[3].arg.value.path) must start with one of: ${roots}; ` +
        `args[2].op: unknown operator "equals"; use one of: eq, ne, lt, lte, gt, gte, in, notIn, exists, notExists, truthy, falsy, contains, and, or, not; ` +
        'args[3].arg.set: must be a non-empty array of literals, got an empty array.',
    );
  });

  it('names the owner when given', () => {
    expect(thrownBy({ op: 'exists', path: 'x' }, { name: "scorer 'toxicity'" }).message).toMatch(
      /^Invalid scoring filter for scorer 'toxicity': path\(s\) "x"/,
    );
  });

  it.each([
    ['a non-object predicate', 'eq', '', 'a predicate must be an object with an op, got "eq"'],
    ['null', null, '', 'a predicate must be an object with an op, got null'],
    ['an array', [], '', 'a predicate must be an object with an op, got an array'],
    ['a missing op', { path: 'threadId' }, 'op', 'unknown operator nothing'],
    ['a non-string op', { op: 3 }, 'op', 'unknown operator 3'],
    ['an inherited op name', { op: 'toString' }, 'op', 'unknown operator "toString"'],
    ['empty args', { op: 'or', args: [] }, 'args', 'must be a non-empty array of predicates, got an empty array'],
    ['missing args', { op: 'and' }, 'args', 'must be a non-empty array of predicates, got nothing'],
    ['a bad arg', { op: 'not', arg: 'x' }, 'arg', 'a predicate must be an object with an op, got "x"'],
    ['a missing set', { op: 'in', value: { literal: 1 } }, 'set', 'must be a non-empty array of literals, got nothing'],
    ['a bad set entry', { op: 'notIn', value: { literal: 1 }, set: ['a', { x: 1 }] }, 'set[1]', 'a literal must be a string, a finite number, a boolean or null, got an object'],
    ['a non-finite set entry', { op: 'in', value: { literal: 1 }, set: [Number.NaN] }, 'set[0]', 'got NaN'],
    ['a missing ref', { op: 'eq', left: { path: 'threadId' } }, 'right', 'a reference must be { path: "..." } or { literal: ... }, got nothing'],
    ['a ref with both keys', { op: 'truthy', value: { path: 'threadId', literal: 1 } }, 'value', 'a reference must have exactly one of path or literal, got both'],
    ['a ref with neither key', { op: 'truthy', value: {} }, 'value', 'got neither'],
    ['a ref with an extra key', { op: 'truthy', value: { path: 'threadId', default: 1 } }, 'value', 'unknown key(s) default in a reference'],
    ['a bad literal', { op: 'truthy', value: { literal: [1] } }, 'value.literal', 'a literal must be a string, a finite number, a boolean or null, got an array'],
    ['an undefined literal', { op: 'truthy', value: { literal: undefined } }, 'value.literal', 'got nothing'],
    ['a non-string path', { op: 'exists', path: 5 }, 'path', 'a path must be a string such as "requestContext.tier", got 5'],
    ['an empty segment', { op: 'exists', path: 'requestContext..tier' }, 'path', 'path "requestContext..tier" has an empty segment'],
    ['an unknown key', { op: 'eq', left: { literal: 1 }, rigth: { literal: 1 }, right: { literal: 1 } }, '', "unknown key(s) rigth for op 'eq' (it takes left, right)"],
    ['a bad contains item', { op: 'contains', value: { path: 'metadata.tags' }, item: {} }, 'item', 'a literal must be'],
  ])('reports %s', (_label, predicate, at, message) => {
    const issues = thrownBy(predicate).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]?.at).toBe(at);
    expect(issues[0]?.message).toContain(message);
  });

  it('reports a reference with both keys also when its path is wrong', () => {
    expect(thrownBy({ op: 'truthy', value: { path: 5, literal: 1 } }).issues).toEqual([
      { at: 'value.path', message: 'a path must be a string such as "requestContext.tier", got 5' },
      { at: 'value', message: 'a reference must have exactly one of path or literal, got both' },
    ]);
  });

  it("uses '(predicate)' as the location of the predicate itself", () => {
    expect(thrownBy(42).message).toBe('Invalid scoring filter: (predicate): a predicate must be an object with an op, got 42.');
  });

  it('refuses predicates nested too deep (and cycles)', () => {
    const cyclic: Record<string, unknown> = { op: 'not' };
    cyclic.arg = cyclic;
    expect(thrownBy(cyclic).message).toContain('predicates nest deeper than 64 levels');
  });
});

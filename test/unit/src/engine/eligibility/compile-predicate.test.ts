import { describe, expect, it } from 'vitest';
import { compilePredicate, evaluatePredicate } from '../../../../../src/engine/eligibility/compile-predicate.ts';
import { InvalidPredicateError } from '../../../../../src/engine/eligibility/validate-predicate.ts';
import type { PredicateContext } from '../../../../../src/engine/eligibility/predicate-context.ts';
import type { Predicate, Ref } from '../../../../../src/engine/eligibility/predicate-schema.ts';

const context: PredicateContext = {
  requestContext: { tier: 'gold', 'user.plan': 'pro', seats: 5, beta: true, off: false, zero: 0, empty: '', nested: { level: 2 } },
  entity: { id: 'support-agent', name: 'Support' },
  entityType: 'AGENT',
  source: 'LIVE',
  threadId: 'thread-1',
  metadata: { tenantId: 't1', environment: 'prod', tags: ['beta', 'eu'], owner: null },
  runId: 'run-1',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
};
const path = (value: string): Ref => ({ path: value });
const literal = (value: string | number | boolean | null): Ref => ({ literal: value });
const evaluate = (predicate: unknown, against: PredicateContext = context) => evaluatePredicate(predicate as Predicate, against);
const missing = path('requestContext.nothing');

describe('comparisons', () => {
  it('eq and ne use ===', () => {
    expect(evaluate({ op: 'eq', left: path('requestContext.tier'), right: literal('gold') })).toBe(true);
    expect(evaluate({ op: 'eq', left: path('requestContext.seats'), right: literal('5') })).toBe(false);
    expect(evaluate({ op: 'ne', left: path('requestContext.seats'), right: literal('5') })).toBe(true);
    expect(evaluate({ op: 'eq', left: path('metadata.owner'), right: literal(null) })).toBe(true);
    expect(evaluate({ op: 'eq', left: path('entity.id'), right: path('entity.id') })).toBe(true);
  });

  it('eq and ne are false when either side is MISSING', () => {
    expect(evaluate({ op: 'eq', left: missing, right: literal(null) })).toBe(false);
    expect(evaluate({ op: 'ne', left: missing, right: literal('x') })).toBe(false);
    expect(evaluate({ op: 'ne', left: literal('x'), right: missing })).toBe(false);
  });

  it('never equals an array-valued path to a literal (use contains)', () => {
    expect(evaluate({ op: 'eq', left: path('metadata.tags'), right: literal('beta') })).toBe(false);
    expect(evaluate({ op: 'in', value: path('metadata.tags'), set: ['beta'] })).toBe(false);
  });

  it('orders numbers with numbers and strings with strings', () => {
    expect(evaluate({ op: 'lt', left: path('requestContext.seats'), right: literal(10) })).toBe(true);
    expect(evaluate({ op: 'lte', left: path('requestContext.seats'), right: literal(5) })).toBe(true);
    expect(evaluate({ op: 'gt', left: path('requestContext.seats'), right: literal(5) })).toBe(false);
    expect(evaluate({ op: 'gte', left: path('requestContext.seats'), right: literal(5) })).toBe(true);
    expect(evaluate({ op: 'lt', left: path('runId'), right: literal('run-2') })).toBe(true);
    expect(evaluate({ op: 'gt', left: literal('b'), right: literal('a') })).toBe(true);
  });

  it('is false for mixed types, MISSING, null and booleans', () => {
    expect(evaluate({ op: 'lt', left: path('requestContext.seats'), right: literal('10') })).toBe(false);
    expect(evaluate({ op: 'gte', left: literal('10'), right: path('requestContext.seats') })).toBe(false);
    expect(evaluate({ op: 'lt', left: missing, right: literal(1) })).toBe(false);
    expect(evaluate({ op: 'lte', left: literal(null), right: literal(1) })).toBe(false);
    expect(evaluate({ op: 'gte', left: literal(true), right: literal(false) })).toBe(false);
  });
});

describe('in / notIn', () => {
  it('in is true when the value is in the set (===)', () => {
    expect(evaluate({ op: 'in', value: path('metadata.environment'), set: ['staging', 'prod'] })).toBe(true);
    expect(evaluate({ op: 'in', value: path('requestContext.seats'), set: ['5'] })).toBe(false);
    expect(evaluate({ op: 'in', value: path('metadata.owner'), set: [null] })).toBe(true);
  });

  it('in is false and notIn true for MISSING', () => {
    expect(evaluate({ op: 'in', value: missing, set: [null] })).toBe(false);
    expect(evaluate({ op: 'notIn', value: missing, set: [null] })).toBe(true);
  });

  it('notIn is the negation for present values', () => {
    expect(evaluate({ op: 'notIn', value: path('metadata.tenantId'), set: ['internal'] })).toBe(true);
    expect(evaluate({ op: 'notIn', value: path('metadata.tenantId'), set: ['t1'] })).toBe(false);
  });
});

describe('exists / notExists', () => {
  it('exists is true for present values, including falsy ones and null', () => {
    for (const present of ['requestContext.off', 'requestContext.zero', 'requestContext.empty', 'metadata.owner', 'entity']) {
      expect(evaluate({ op: 'exists', path: present })).toBe(true);
      expect(evaluate({ op: 'notExists', path: present })).toBe(false);
    }
  });

  it('exists is false and notExists true for MISSING', () => {
    expect(evaluate({ op: 'exists', path: 'resourceId' })).toBe(false);
    expect(evaluate({ op: 'notExists', path: 'resourceId' })).toBe(true);
    expect(evaluate({ op: 'exists', path: 'entityType.sub' })).toBe(false);
  });
});

describe('truthy / falsy', () => {
  it('follow JavaScript truthiness for present values', () => {
    expect(evaluate({ op: 'truthy', value: path('requestContext.beta') })).toBe(true);
    expect(evaluate({ op: 'truthy', value: path('requestContext.zero') })).toBe(false);
    expect(evaluate({ op: 'falsy', value: path('requestContext.empty') })).toBe(true);
    expect(evaluate({ op: 'falsy', value: path('metadata.tags') })).toBe(false);
  });

  it('truthy is false and falsy true for MISSING', () => {
    expect(evaluate({ op: 'truthy', value: missing })).toBe(false);
    expect(evaluate({ op: 'falsy', value: missing })).toBe(true);
  });
});

describe('contains', () => {
  it('is true when an array value holds the item', () => {
    expect(evaluate({ op: 'contains', value: path('metadata.tags'), item: 'beta' })).toBe(true);
    expect(evaluate({ op: 'contains', value: path('metadata.tags'), item: 'us' })).toBe(false);
  });

  it('is false for MISSING and non-arrays (no substring matching)', () => {
    expect(evaluate({ op: 'contains', value: missing, item: 'beta' })).toBe(false);
    expect(evaluate({ op: 'contains', value: path('requestContext.tier'), item: 'gol' })).toBe(false);
  });
});

describe('and / or / not', () => {
  const yes = { op: 'exists', path: 'threadId' };
  const no = { op: 'exists', path: 'resourceId' };

  it('combine', () => {
    expect(evaluate({ op: 'and', args: [yes, yes] })).toBe(true);
    expect(evaluate({ op: 'and', args: [yes, no] })).toBe(false);
    expect(evaluate({ op: 'or', args: [no, yes] })).toBe(true);
    expect(evaluate({ op: 'or', args: [no] })).toBe(false);
    expect(evaluate({ op: 'not', arg: no })).toBe(true);
  });
});

describe('path resolution inside predicates', () => {
  it('reads the flat dotted requestContext key first, then nested objects', () => {
    expect(evaluate({ op: 'eq', left: path('requestContext.user.plan'), right: literal('pro') })).toBe(true);
    expect(evaluate({ op: 'eq', left: path('${requestContext.nested.level}'), right: literal(2) })).toBe(true);
  });

  it('treats inherited properties as MISSING', () => {
    expect(evaluate({ op: 'exists', path: 'entity.toString' })).toBe(false);
  });

  it('never throws on odd contexts', () => {
    const predicate = { op: 'and', args: [{ op: 'notExists', path: 'requestContext.a.b' }, { op: 'falsy', value: path('entity.id') }] };
    for (const odd of [{}, { requestContext: 'x' }, { entity: null }, { requestContext: [] }]) {
      expect(evaluate(predicate, odd as PredicateContext)).toBe(true);
    }
  });
});

describe('compilePredicate / evaluatePredicate', () => {
  it('compiles once into a reusable function', () => {
    const compiled = compilePredicate({ op: 'eq', left: path('metadata.environment'), right: literal('prod') });
    expect(compiled(context)).toBe(true);
    expect(compiled({ metadata: { environment: 'dev' } })).toBe(false);
  });

  it('throws InvalidPredicateError for an invalid predicate', () => {
    expect(() => compilePredicate({ op: 'exists', path: 'output' })).toThrow(InvalidPredicateError);
    expect(() => evaluate({ op: 'nope' })).toThrow(InvalidPredicateError);
    expect(() => evaluate(null)).toThrow(InvalidPredicateError);
  });

  it('honours custom roots in evaluatePredicate', () => {
    const predicate = { op: 'exists', path: 'tenant' } as Predicate;
    expect(evaluatePredicate(predicate, { tenant: 'a' } as PredicateContext, { roots: ['tenant'] })).toBe(true);
    expect(() => evaluatePredicate(predicate, context)).toThrow(InvalidPredicateError);
  });

  it('gives the same answer on repeated (cached) evaluation', () => {
    const predicate = { op: 'eq', left: path('runId'), right: literal('run-1') } as Predicate;
    expect(evaluatePredicate(predicate, context)).toBe(true);
    expect(evaluatePredicate(predicate, { runId: 'run-2' })).toBe(false);
    expect(evaluatePredicate(predicate, context)).toBe(true);
  });
});

// Evaluating predicates (docs/scorers.md, eligibility filters). A predicate is parsed and compiled
// once into a closure tree, so the per-event cost is a few property reads: paths are pre-split,
// sets are Sets, literals are constants.
//
// MISSING semantics: comparisons, `in` and `contains` are false; `notIn` and `notExists` are
// true; `exists` is false; `truthy` is false and `falsy` true. `eq`/`ne` use ===. lt/lte/gt/gte
// need both sides numbers or both strings, otherwise false.
import type { PredicateContext } from './predicate-context.ts';
import { compilePath, MISSING, parsePath } from './predicate-paths.ts';
import type { Literal, Predicate, Ref } from './predicate-schema.ts';
import { parsePredicate } from './validate-predicate.ts';
import type { PredicateOptions } from './validate-predicate.ts';

export type CompiledPredicate = (context: PredicateContext) => boolean;
type Resolver = (context: unknown) => unknown;

function compileRef(ref: Ref): Resolver {
  if (ref.path === undefined) {
    const literal: Literal = ref.literal;
    return () => literal;
  }
  // The predicate schema has accepted the path, so it parses.
  return compilePath(parsePath(ref.path)!);
}

function bothOrderable(left: unknown, right: unknown): boolean {
  return (
    (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string')
  );
}

function compileComparison(
  left: Resolver,
  right: Resolver,
  compare: (left: number | string, right: number | string) => boolean,
): CompiledPredicate {
  return (context) => {
    const leftValue = left(context);
    const rightValue = right(context);
    return bothOrderable(leftValue, rightValue) && compare(leftValue as number | string, rightValue as number | string);
  };
}

/**
 * Compiles a predicate the schema has parsed (parsePredicate, or a config's `filter`) into
 * `(context) => boolean`. The compiled function never throws on odd context shapes: anything it
 * cannot reach is MISSING.
 */
export function compileParsedPredicate(predicate: Predicate): CompiledPredicate {
  switch (predicate.op) {
    case 'eq':
    case 'ne': {
      const left = compileRef(predicate.left);
      const right = compileRef(predicate.right);
      const equal = predicate.op === 'eq';
      return (context) => {
        const leftValue = left(context);
        const rightValue = right(context);
        if (leftValue === MISSING || rightValue === MISSING) return false;
        return (leftValue === rightValue) === equal;
      };
    }
    case 'lt':
      return compileComparison(compileRef(predicate.left), compileRef(predicate.right), (a, b) => a < b);
    case 'lte':
      return compileComparison(compileRef(predicate.left), compileRef(predicate.right), (a, b) => a <= b);
    case 'gt':
      return compileComparison(compileRef(predicate.left), compileRef(predicate.right), (a, b) => a > b);
    case 'gte':
      return compileComparison(compileRef(predicate.left), compileRef(predicate.right), (a, b) => a >= b);
    case 'in': {
      const value = compileRef(predicate.value);
      const set = new Set<unknown>(predicate.set);
      return (context) => {
        const resolved = value(context);
        return resolved !== MISSING && set.has(resolved);
      };
    }
    case 'notIn': {
      const value = compileRef(predicate.value);
      const set = new Set<unknown>(predicate.set);
      return (context) => {
        const resolved = value(context);
        return resolved === MISSING || !set.has(resolved);
      };
    }
    case 'exists': {
      const path = compilePath(parsePath(predicate.path)!);
      return (context) => path(context) !== MISSING;
    }
    case 'notExists': {
      const path = compilePath(parsePath(predicate.path)!);
      return (context) => path(context) === MISSING;
    }
    case 'truthy': {
      const value = compileRef(predicate.value);
      return (context) => {
        const resolved = value(context);
        return resolved !== MISSING && Boolean(resolved);
      };
    }
    case 'falsy': {
      const value = compileRef(predicate.value);
      return (context) => {
        const resolved = value(context);
        return resolved === MISSING || !resolved;
      };
    }
    case 'contains': {
      const value = compileRef(predicate.value);
      const item = predicate.item;
      return (context) => {
        const resolved = value(context);
        return Array.isArray(resolved) && resolved.includes(item);
      };
    }
    case 'and': {
      const args = predicate.args.map(compileParsedPredicate);
      return (context) => args.every((arg) => arg(context));
    }
    case 'or': {
      const args = predicate.args.map(compileParsedPredicate);
      return (context) => args.some((arg) => arg(context));
    }
    case 'not': {
      const arg = compileParsedPredicate(predicate.arg);
      return (context) => !arg(context);
    }
  }
}

/**
 * Parses (throwing InvalidPredicateError like validatePredicate) and compiles a predicate into
 * `(context) => boolean`. Compile once per scorer, call per event.
 */
export function compilePredicate(predicate: unknown, options: PredicateOptions = {}): CompiledPredicate {
  return compileParsedPredicate(parsePredicate(predicate, options));
}

// Compiled forms of predicates already seen (default roots only), keyed by the object itself.
const compiledByPredicate = new WeakMap<object, CompiledPredicate>();

/**
 * Evaluates a predicate against a context. Throws InvalidPredicateError for an invalid predicate
 * (callers fail closed: skip the scorer and log). The compiled form is cached per predicate
 * object, so calling this per event costs one WeakMap lookup more than compilePredicate.
 */
export function evaluatePredicate(predicate: Predicate, context: PredicateContext, options?: PredicateOptions): boolean {
  if (options?.roots !== undefined || typeof predicate !== 'object' || predicate === null) {
    return compilePredicate(predicate, options)(context);
  }
  let compiled = compiledByPredicate.get(predicate);
  if (compiled === undefined) {
    compiled = compilePredicate(predicate, options);
    compiledByPredicate.set(predicate, compiled);
  }
  return compiled(context);
}

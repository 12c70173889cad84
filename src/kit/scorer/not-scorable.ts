// The not-scorable sentinel (docs/scorers.md, notScorable): a function step returns it to say "this
// run cannot be scored" without failing. Branded through the global symbol registry so sentinels
// made by another copy of this library (or by Mastra itself) are recognised.

const brand = Symbol.for('mastra.evals.notScorable');

export type NotScorable = { readonly [brand]: true; reason?: string };

export function notScorable(reason?: string): NotScorable {
  return reason === undefined ? { [brand]: true } : { [brand]: true, reason };
}

export function isNotScorable(value: unknown): value is NotScorable {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

// The public API of Scorestream: named exports only, each area through its own barrel.
export { ScorestreamError } from './errors.ts';
export type { ScorestreamErrorOptions } from './errors.ts';
export * from './contracts/index.ts';
export * from './scorer/index.ts';
export * from './judge/index.ts';
export * from './filter-run/index.ts';
export * from './utils/index.ts';
export * from './eligibility/index.ts';
export * from './classifier/index.ts';
export * from './scorers/index.ts';
export * from './config/index.ts';

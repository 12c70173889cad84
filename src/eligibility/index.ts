// Barrel of src/eligibility: deciding, from context only and before anything runs, whether a
// scorer scores a run (docs/scorers.md, eligibility filters and deterministic sampling):
// deterministic sampling, the JSON predicate DSL for filters, and the request-context snapshot
// both are evaluated against.
export { samplingBucket, saltedSamplingKey, decideSampling, isSampled } from './sampling.ts';
export type { SamplingDecision } from './sampling.ts';
export { validateSampling } from './sampling-schema.ts';
export type { SamplingConfig, ValidateSamplingOptions } from './sampling-schema.ts';
export { PREDICATE_ROOTS } from './predicate-context.ts';
export type { PredicateContext } from './predicate-context.ts';
export { PREDICATE_OPERATORS } from './predicate-schema.ts';
export type { ComparisonOperator, Literal as PredicateLiteral, Predicate, PredicateOperator, Ref } from './predicate-schema.ts';
export { validatePredicate, findPredicateIssues, InvalidPredicateError } from './validate-predicate.ts';
export type { PredicateIssue, PredicateOptions } from './validate-predicate.ts';
export { compilePredicate, evaluatePredicate } from './compile-predicate.ts';
export type { CompiledPredicate } from './compile-predicate.ts';
export {
  snapshotRequestContext,
  REQUEST_CONTEXT_AUTH_TOKEN_KEY,
  REQUEST_CONTEXT_MAX_DEPTH,
} from './request-context-snapshot.ts';
export type { RequestContextSnapshot } from './request-context-snapshot.ts';

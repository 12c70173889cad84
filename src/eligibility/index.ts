// Barrel of src/eligibility, for the rest of the repository: deciding, from context only and
// before anything runs, whether a scorer scores a run (docs/scorers.md, eligibility):
// deterministic sampling, the JSON predicate language of filters, and the request-context
// snapshot both are evaluated against.
export { samplingBucket, saltedSamplingKey, decideSampling, isSampled, validateSampling } from './sampling.ts';
export type { SamplingConfig, SamplingDecision, ValidateSamplingOptions } from './sampling.ts';
export { PREDICATE_ROOTS, PREDICATE_OPERATORS } from './predicate-types.ts';
export type {
  Predicate,
  PredicateOperator,
  ComparisonOperator,
  PredicateRoot,
  Literal as PredicateLiteral,
  Ref,
  PredicateContext,
  PredicateOptions,
} from './predicate-types.ts';
export { validatePredicate, findPredicateIssues, InvalidPredicateError } from './validate-predicate.ts';
export type { PredicateIssue } from './validate-predicate.ts';
export { compilePredicate, evaluatePredicate } from './compile-predicate.ts';
export type { CompiledPredicate } from './compile-predicate.ts';
export {
  snapshotRequestContext,
  REQUEST_CONTEXT_AUTH_TOKEN_KEY,
  REQUEST_CONTEXT_MAX_DEPTH,
} from './request-context-snapshot.ts';
export type { RequestContextSnapshot } from './request-context-snapshot.ts';

// Definition-time validation of predicates: every bad path, operator and shape the predicate schema
// finds is reported in one error with where it is (e.g. `args[1].left.path`), so a filter with three
// mistakes is fixed in one go rather than three restarts.
import type { z } from 'zod';
import { formatPath } from '../../kit/contracts/problems.ts';
import { hasErrorMarker, ScorestreamError } from '../../kit/errors.ts';
import { PREDICATE_ROOTS } from './predicate-context.ts';
import { predicateSchemaFor } from './predicate-schema.ts';
import type { Predicate } from './predicate-schema.ts';

export type PredicateOptions = {
  /** Allowed path roots (default PREDICATE_ROOTS). */
  roots?: readonly string[];
  /** Who the filter belongs to, for error messages, e.g. "scorer 'toxicity'". */
  name?: string;
};

export type PredicateIssue = {
  /** Where in the predicate, e.g. `args[1].left.path`; '' for the predicate itself. */
  at: string;
  message: string;
  /** Set for a path whose root is not allowed (or that is empty): the path as written. */
  path?: string;
};

/** A predicate that failed validation; `issues` lists every problem found. */
const marker = Symbol.for('scorestream.error.InvalidPredicateError');

export class InvalidPredicateError extends ScorestreamError {
  readonly [marker] = true;
  readonly issues: readonly PredicateIssue[];

  constructor(message: string, issues: readonly PredicateIssue[]) {
    super(message, { code: 'INVALID_FILTER' });
    this.name = 'InvalidPredicateError';
    this.issues = issues;
  }

  /** True for an InvalidPredicateError from any copy of this library. */
  static override isInstance(value: unknown): value is InvalidPredicateError {
    return hasErrorMarker(value, marker);
  }
}

function issueOf(issue: z.core.$ZodIssue): PredicateIssue {
  const badRootPath = issue.code === 'custom' ? (issue.params as { badRootPath?: string } | undefined)?.badRootPath : undefined;
  return { at: formatPath(issue.path), message: issue.message, ...(badRootPath === undefined ? {} : { path: badRootPath }) };
}

/** Bad-root paths first, then the rest in document order. */
function issuesOf(error: z.ZodError): PredicateIssue[] {
  const issues = error.issues.map(issueOf);
  return [...issues.filter((issue) => issue.path !== undefined), ...issues.filter((issue) => issue.path === undefined)];
}

/** Every problem of a predicate, bad-root paths first, then the rest in document order; [] when valid. */
export function findPredicateIssues(predicate: unknown, options: PredicateOptions = {}): PredicateIssue[] {
  const parsed = predicateSchemaFor(options.roots).safeParse(predicate);
  return parsed.success ? [] : issuesOf(parsed.error);
}

// One sentence for all bad-root paths (Mastra's wording), then one clause per other problem.
function formatMessage(options: PredicateOptions, issues: readonly PredicateIssue[]): string {
  const roots = options.roots ?? PREDICATE_ROOTS;
  const owner = options.name === undefined ? '' : ` for ${options.name}`;
  const rootIssues = issues.filter((issue) => issue.path !== undefined);
  const clauses: string[] = [];
  if (rootIssues.length > 0) {
    const listed = rootIssues.map((issue) => `${JSON.stringify(issue.path)} (at ${issue.at})`).join(', ');
    clauses.push(`path(s) ${listed} must start with one of: ${roots.join(', ')}`);
  }
  for (const issue of issues) {
    if (issue.path === undefined) clauses.push(`${issue.at === '' ? '(predicate)' : issue.at}: ${issue.message}`);
  }
  return `Invalid scoring filter${owner}: ${clauses.join('; ')}.`;
}

/**
 * The predicate as the schema parsed it (a deep copy of a valid input). Throws an
 * InvalidPredicateError (a ScorestreamError, code INVALID_FILTER) listing every bad path with its
 * location (unknown root, empty path, empty segment), every unknown operator, empty `args`/`set`,
 * malformed references and literals, and unknown keys.
 */
export function parsePredicate(predicate: unknown, options: PredicateOptions = {}): Predicate {
  const parsed = predicateSchemaFor(options.roots).safeParse(predicate);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error);
  throw new InvalidPredicateError(formatMessage(options, issues), issues);
}

/**
 * Checks a predicate where it is defined (scorer registration, config load); throws like
 * parsePredicate. Returns the predicate itself, typed: the schema only checks, so the parsed copy
 * would be equal to it.
 */
export function validatePredicate(predicate: unknown, options: PredicateOptions = {}): Predicate {
  parsePredicate(predicate, options);
  return predicate as Predicate;
}

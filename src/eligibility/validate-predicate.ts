// Definition-time validation of predicates (SCORER_SPEC.md §5.4): every bad path, operator and
// shape is collected with where it is (e.g. `args[1].left.path`) and reported in one error, so a
// filter with three mistakes is fixed in one go rather than three restarts.
import { hasErrorMarker, ScorestreamError } from '../errors.ts';
import { parsePath } from './predicate-paths.ts';
import { PREDICATE_OPERATORS, PREDICATE_ROOTS } from './predicate-types.ts';
import type { Predicate, PredicateOptions } from './predicate-types.ts';

export type PredicateIssue = {
  /** Where in the predicate, e.g. `args[1].left.path`; '' for the predicate itself. */
  at: string;
  message: string;
  /** Set for a path whose root is not allowed (or that is empty): the path as written. */
  path?: string;
};

const marker = Symbol.for('scorestream.error.InvalidPredicateError');

/** A predicate that failed validation; `issues` lists every problem found. */
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

// Predicates nested deeper than this are refused (it also stops cycles in hand-built objects).
const maxDepth = 64;

const keysByOperator: Record<string, readonly string[]> = {
  eq: ['left', 'right'],
  ne: ['left', 'right'],
  lt: ['left', 'right'],
  lte: ['left', 'right'],
  gt: ['left', 'right'],
  gte: ['left', 'right'],
  in: ['value', 'set'],
  notIn: ['value', 'set'],
  exists: ['path'],
  notExists: ['path'],
  truthy: ['value'],
  falsy: ['value'],
  contains: ['value', 'item'],
  and: ['args'],
  or: ['args'],
  not: ['arg'],
};

type BadPath = { path: string; at: string };

class Collector {
  readonly issues: PredicateIssue[] = [];
  readonly badRootPaths: BadPath[] = [];
  readonly roots: ReadonlySet<string>;

  constructor(roots: readonly string[]) {
    this.roots = new Set(roots);
  }

  add(at: string, message: string): void {
    this.issues.push({ at, message });
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

function isLiteral(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function checkPath(path: unknown, at: string, collector: Collector): void {
  if (typeof path !== 'string') {
    collector.add(at, `a path must be a string such as "requestContext.tier", got ${describe(path)}`);
    return;
  }
  const parsed = parsePath(path);
  if (parsed === undefined && path !== '' && !/^\$\{\s*\}$/.test(path)) {
    collector.add(at, `path ${JSON.stringify(path)} has an empty segment; write segments separated by single dots`);
    return;
  }
  if (parsed === undefined || !collector.roots.has(parsed.root)) collector.badRootPaths.push({ path, at });
}

function checkLiteral(value: unknown, at: string, collector: Collector): void {
  if (!isLiteral(value)) {
    collector.add(at, `a literal must be a string, a finite number, a boolean or null, got ${describe(value)}`);
  }
}

function checkRef(ref: unknown, at: string, collector: Collector): void {
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) {
    collector.add(at, `a reference must be { path: "..." } or { literal: ... }, got ${describe(ref)}`);
    return;
  }
  const record = ref as Record<string, unknown>;
  const hasPath = Object.hasOwn(record, 'path');
  const hasLiteral = Object.hasOwn(record, 'literal');
  const extra = Object.keys(record).filter((key) => key !== 'path' && key !== 'literal');
  if (hasPath === hasLiteral) {
    collector.add(at, `a reference must have exactly one of path or literal, got ${hasPath ? 'both' : 'neither'}`);
  } else if (hasPath) {
    checkPath(record.path, join(at, 'path'), collector);
  } else {
    checkLiteral(record.literal, join(at, 'literal'), collector);
  }
  if (extra.length > 0) collector.add(at, `unknown key(s) ${extra.join(', ')} in a reference`);
}

function checkNode(node: unknown, at: string, depth: number, collector: Collector): void {
  if (depth > maxDepth) {
    collector.add(at, `predicates nest deeper than ${maxDepth} levels`);
    return;
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    collector.add(at, `a predicate must be an object with an op, got ${describe(node)}`);
    return;
  }
  const record = node as Record<string, unknown>;
  const op = record.op;
  const expectedKeys = typeof op === 'string' && Object.hasOwn(keysByOperator, op) ? keysByOperator[op] : undefined;
  if (expectedKeys === undefined) {
    collector.add(join(at, 'op'), `unknown operator ${describe(op)}; use one of: ${PREDICATE_OPERATORS.join(', ')}`);
    return;
  }
  const extra = Object.keys(record).filter((key) => key !== 'op' && !expectedKeys.includes(key));
  if (extra.length > 0) {
    collector.add(at, `unknown key(s) ${extra.join(', ')} for op '${String(op)}' (it takes ${expectedKeys.join(', ')})`);
  }

  switch (op) {
    case 'eq':
    case 'ne':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      checkRef(record.left, join(at, 'left'), collector);
      checkRef(record.right, join(at, 'right'), collector);
      return;
    case 'in':
    case 'notIn': {
      checkRef(record.value, join(at, 'value'), collector);
      const set = record.set;
      if (!Array.isArray(set) || set.length === 0) {
        collector.add(join(at, 'set'), `must be a non-empty array of literals, got ${Array.isArray(set) ? 'an empty array' : describe(set)}`);
        return;
      }
      set.forEach((value: unknown, index) => checkLiteral(value, `${join(at, 'set')}[${index}]`, collector));
      return;
    }
    case 'exists':
    case 'notExists':
      checkPath(record.path, join(at, 'path'), collector);
      return;
    case 'truthy':
    case 'falsy':
      checkRef(record.value, join(at, 'value'), collector);
      return;
    case 'contains':
      checkRef(record.value, join(at, 'value'), collector);
      checkLiteral(record.item, join(at, 'item'), collector);
      return;
    case 'and':
    case 'or': {
      const args = record.args;
      if (!Array.isArray(args) || args.length === 0) {
        collector.add(join(at, 'args'), `must be a non-empty array of predicates, got ${Array.isArray(args) ? 'an empty array' : describe(args)}`);
        return;
      }
      args.forEach((arg: unknown, index) => checkNode(arg, `${join(at, 'args')}[${index}]`, depth + 1, collector));
      return;
    }
    case 'not':
      checkNode(record.arg, join(at, 'arg'), depth + 1, collector);
      return;
  }
}

/** Every problem of a predicate, bad-root paths first, then the rest in document order; [] when valid. */
export function findPredicateIssues(predicate: unknown, options: PredicateOptions = {}): PredicateIssue[] {
  const roots = options.roots ?? PREDICATE_ROOTS;
  const collector = new Collector(roots);
  checkNode(predicate, '', 0, collector);
  const rootIssues = collector.badRootPaths.map(({ path, at }) => ({
    at,
    message: `path ${JSON.stringify(path)} must start with one of: ${roots.join(', ')}`,
    path,
  }));
  return [...rootIssues, ...collector.issues];
}

// One sentence for all bad-root paths (Mastra's wording), then one clause per other problem.
function formatMessage(options: PredicateOptions, issues: PredicateIssue[]): string {
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
 * Checks a predicate where it is defined (scorer registration, config load). Throws an
 * InvalidPredicateError (a ScorestreamError, code INVALID_FILTER) listing every bad path with its
 * location (unknown root, empty path, empty segment), every unknown operator, empty `args`/`set`,
 * malformed references and literals, and unknown keys. Returns the predicate typed.
 */
export function validatePredicate(predicate: unknown, options: PredicateOptions = {}): Predicate {
  const issues = findPredicateIssues(predicate, options);
  if (issues.length > 0) throw new InvalidPredicateError(formatMessage(options, issues), issues);
  return predicate as Predicate;
}

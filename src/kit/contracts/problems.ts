// Turns zod issues into contract problems: every problem, each with a readable path such as
// `output[0].content.parts[1].type`. Unions are resolved to the branch the value was meant for
// (the one whose discriminator matched, or whose type matched), so a bad tool call inside a part
// reports the tool call's fields rather than "invalid input" for the whole part.
import type { z } from 'zod';

export type Problem = { path: string; message: string };

type Issue = z.core.$ZodIssue;
type PathSegment = PropertyKey;

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['output', 0, 'content', 'parts', 1, 'type']` → `output[0].content.parts[1].type`. */
export function formatPath(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && identifier.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/** Every problem in the issues, in order, unions resolved to the intended branch. */
export function problemsFromIssues(issues: readonly Issue[]): Problem[] {
  const problems: Problem[] = [];
  collect(issues, [], problems);
  return problems;
}

/** One line per problem, for error messages: `  - output[0].role: Invalid option ...`. */
export function formatProblems(problems: readonly Problem[], indent = '  - '): string {
  return problems.map((problem) => `${indent}${problem.path === '' ? '(root)' : problem.path}: ${problem.message}`).join('\n');
}

function collect(issues: readonly Issue[], prefix: readonly PathSegment[], problems: Problem[]): void {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      collectUnion(issue, path, problems);
    } else {
      problems.push({ path: formatPath(path), message: messageOf(issue) });
    }
  }
}

// zod words a missing `z.unknown()` key as "expected nonoptional"; say what is meant.
function messageOf(issue: Issue): string {
  if (issue.code === 'invalid_type' && issue.expected === 'nonoptional') return 'required: expected a value (any JSON), received nothing';
  return issue.message;
}

function collectUnion(issue: Extract<Issue, { code: 'invalid_union' }>, path: PathSegment[], problems: Problem[]): void {
  const branches = issue.errors as Issue[][];
  const discriminators = discriminatorKeys(branches);
  const atDiscriminator = (candidate: Issue) =>
    candidate.path.length === 1 && discriminators.has(candidate.path[0] as PathSegment);
  let candidates = branches.filter((branch) => !branch.some(atDiscriminator));

  // A branch that failed only because the value has another type entirely was not the one meant.
  const wrongType = (branch: Issue[]) => branch.every((entry) => entry.path.length === 0 && entry.code === 'invalid_type');
  if (candidates.some((branch) => !wrongType(branch))) candidates = candidates.filter((branch) => !wrongType(branch));

  if (candidates.length === 1 || (candidates.length > 1 && sameMessages(candidates))) {
    collect(candidates[0]!, path, problems);
    return;
  }
  const [onlyKey] = discriminators;
  const at = candidates.length === 0 && discriminators.size === 1 && onlyKey !== undefined ? [...path, onlyKey] : path;
  problems.push({ path: formatPath(at), message: issue.message });
}

/** Keys at which some branch rejected the value's discriminator (literal, template or no match). */
function discriminatorKeys(branches: readonly Issue[][]): Set<PathSegment> {
  const keys = new Set<PathSegment>();
  for (const branch of branches) {
    for (const entry of branch) {
      if (entry.path.length !== 1) continue;
      const noMatch = entry.code === 'invalid_union' && 'discriminator' in entry && entry.discriminator !== undefined;
      const literal = entry.code === 'invalid_value';
      const template = entry.code === 'invalid_format' && entry.format === 'template_literal';
      if (noMatch || literal || template) keys.add(entry.path[0] as PathSegment);
    }
  }
  return keys;
}

function sameMessages(branches: readonly Issue[][]): boolean {
  const signature = (branch: Issue[]) => branch.map((entry) => `${entry.path.join('.')}:${entry.message}`).join('|');
  const first = signature(branches[0]!);
  return branches.every((branch) => signature(branch) === first);
}

/** A value checked against a contract: the value it is, or every problem found. */
export type ParseResult<T> = { success: true; data: T } | { success: false; problems: Problem[] };

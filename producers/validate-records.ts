// Validates records exactly as their reader will see them: each is serialised to JSON (Dates
// become ISO strings) and that JSON is parsed against its contract. A batch is all-or-nothing:
// every problem of every record is collected and reported in one message. Runs (run-validation.ts)
// and feedback (feedback-validation.ts) go through here.
import type { ParseResult } from '../src/kit/contracts/problems.ts';
import type { Problem } from '../src/kit/contracts/problems.ts';
import { formatProblems } from '../src/kit/contracts/problems.ts';

export type RecordContract<T> = {
  /** `AgentRunEvent v1` */
  name: string;
  /** How one is called in a message, and a batch of them: `run`, `runs`. */
  noun: string;
  plural: string;
  /** The field that identifies one, named next to its problems: `runId`. */
  idField: string;
  parse: (value: unknown) => ParseResult<T>;
};

export type ValidatedRecord<T> = { index: number; value: string; record: T };
export type RecordProblem = Problem & { index: number; id?: string };
export type Validation<T> = { validated: ValidatedRecord<T>[]; problems: RecordProblem[]; message: string };

function serialize(item: unknown, noun: string): { value: string } | { problem: string } {
  try {
    const value = JSON.stringify(item);
    return value === undefined ? { problem: `expected ${noun === 'run' ? 'an agent run' : `a ${noun}`} object, received nothing serialisable` } : { value };
  } catch (error) {
    return { problem: `cannot be serialised to JSON: ${(error as Error).message}` };
  }
}

function idOf(item: unknown, field: string): string | undefined {
  const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Every record validated, or every problem with the message to throw (empty when there are none). */
export function validateRecords<T>(items: readonly unknown[], contract: RecordContract<T>, options: { batch: boolean }): Validation<T> {
  const validated: ValidatedRecord<T>[] = [];
  const problems: RecordProblem[] = [];
  items.forEach((item, index) => {
    const id = idOf(item, contract.idField);
    const identity = id === undefined ? { index } : { index, id };
    const serialized = serialize(item, contract.noun);
    if ('problem' in serialized) {
      problems.push({ ...identity, path: '', message: serialized.problem });
      return;
    }
    const parsed = contract.parse(JSON.parse(serialized.value));
    if (parsed.success) validated.push({ index, value: serialized.value, record: parsed.data });
    else for (const problem of parsed.problems) problems.push({ ...identity, ...problem });
  });
  return { validated, problems, message: problems.length === 0 ? '' : describe(problems, items.length, contract, options.batch) };
}

function describe<T>(problems: RecordProblem[], total: number, contract: RecordContract<T>, batch: boolean): string {
  if (!batch) {
    return `the ${contract.noun} is not a valid ${contract.name}; nothing was sent. Fix these problems:\n${formatProblems(problems)}`;
  }
  const invalid = new Set(problems.map((problem) => problem.index)).size;
  const lines = problems.map((problem) => {
    const who = `${contract.plural}[${problem.index}]${problem.id === undefined ? '' : ` (${contract.idField} ${JSON.stringify(problem.id)})`}`;
    return `  - ${who} ${problem.path === '' ? '(root)' : problem.path}: ${problem.message}`;
  });
  return `${invalid} of ${total} ${contract.plural} are not valid ${contract.name}s; nothing was sent. Fix these problems:\n${lines.join('\n')}`;
}

// Validates agent runs exactly as the consumer will read them: each run is serialised to JSON
// (Dates become ISO strings) and that JSON is parsed against AgentRunEvent v1. A batch is
// all-or-nothing: every problem of every run is collected and reported in one error.
import type { AgentRunEvent, AgentRunEventInput } from '../src/contracts/agent-run-event.ts';
import type { Problem } from '../src/contracts/problems.ts';
import { AGENT_RUN_EVENT_SCHEMA_VERSION } from '../src/contracts/agent-run-event.ts';
import { formatProblems } from '../src/contracts/problems.ts';
import { parseAgentRunEvent } from '../src/contracts/parse.ts';
import { hasErrorMarker, ScorestreamError } from '../src/errors.ts';

/** What producers may hand in: the wire form (ISO strings) or the parsed form (Dates). */
export type PublishableRun = AgentRunEventInput | AgentRunEvent;

export type ValidatedRun = { index: number; runId: string; value: string; event: AgentRunEvent };

export type RunProblem = Problem & { index: number; runId?: string };

const marker = Symbol.for('scorestream.error.InvalidRunError');

/** A run (or runs of a batch) that breaks the contract; `problems` lists every one with its path. */
export class InvalidRunError extends ScorestreamError {
  readonly [marker] = true;
  readonly problems: RunProblem[];

  constructor(message: string, problems: RunProblem[]) {
    super(message, { code: 'invalid_run', canRetry: false });
    this.name = 'InvalidRunError';
    this.problems = problems;
  }

  /** True for an InvalidRunError from any copy of this library. */
  static override isInstance(value: unknown): value is InvalidRunError {
    return hasErrorMarker(value, marker);
  }
}

function serialize(run: unknown): { value: string } | { problem: string } {
  try {
    const value = JSON.stringify(run);
    return value === undefined ? { problem: 'expected an agent run object, received nothing serialisable' } : { value };
  } catch (error) {
    return { problem: `cannot be serialised to JSON: ${(error as Error).message}` };
  }
}

function runIdOf(run: unknown): string | undefined {
  const runId = typeof run === 'object' && run !== null ? (run as { runId?: unknown }).runId : undefined;
  return typeof runId === 'string' && runId !== '' ? runId : undefined;
}

/** Validates every run; throws InvalidRunError listing all problems when any run is invalid. */
export function validateRuns(runs: readonly unknown[], options: { batch: boolean }): ValidatedRun[] {
  const validated: ValidatedRun[] = [];
  const problems: RunProblem[] = [];
  runs.forEach((run, index) => {
    const runId = runIdOf(run);
    const identity = runId === undefined ? { index } : { index, runId };
    const serialized = serialize(run);
    if ('problem' in serialized) {
      problems.push({ ...identity, path: '', message: serialized.problem });
      return;
    }
    const parsed = parseAgentRunEvent(JSON.parse(serialized.value));
    if (parsed.success) validated.push({ index, runId: parsed.data.runId, value: serialized.value, event: parsed.data });
    else for (const problem of parsed.problems) problems.push({ ...identity, ...problem });
  });
  if (problems.length > 0) throw new InvalidRunError(describe(problems, runs.length, options.batch), problems);
  return validated;
}

function describe(problems: RunProblem[], total: number, batch: boolean): string {
  const contract = `AgentRunEvent v${AGENT_RUN_EVENT_SCHEMA_VERSION}`;
  if (!batch) {
    return `the run is not a valid ${contract}; nothing was sent. Fix these problems:\n${formatProblems(problems)}`;
  }
  const invalid = new Set(problems.map((problem) => problem.index)).size;
  const lines = problems.map((problem) => {
    const who = `runs[${problem.index}]${problem.runId === undefined ? '' : ` (runId ${JSON.stringify(problem.runId)})`}`;
    return `  - ${who} ${problem.path === '' ? '(root)' : problem.path}: ${problem.message}`;
  });
  return `${invalid} of ${total} runs are not valid ${contract}s; nothing was sent. Fix these problems:\n${lines.join('\n')}`;
}

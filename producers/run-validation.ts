// Validates agent runs exactly as the consumer will read them (validate-records.ts): against
// AgentRunEvent v1, a batch all-or-nothing, every problem of every run reported in one error.
import type { AgentRunEvent, AgentRunEventInput } from '../src/kit/contracts/agent-run-event.ts';
import type { Problem } from '../src/kit/contracts/problems.ts';
import { AGENT_RUN_EVENT_SCHEMA_VERSION } from '../src/kit/contracts/agent-run-event.ts';
import { parseAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { hasErrorMarker, ScorestreamError } from '../src/kit/errors.ts';
import { validateRecords } from './validate-records.ts';

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

const runContract = {
  name: `AgentRunEvent v${AGENT_RUN_EVENT_SCHEMA_VERSION}`,
  noun: 'run',
  plural: 'runs',
  idField: 'runId',
  parse: parseAgentRunEvent,
};

/** Validates every run; throws InvalidRunError listing all problems when any run is invalid. */
export function validateRuns(runs: readonly unknown[], options: { batch: boolean }): ValidatedRun[] {
  const { validated, problems, message } = validateRecords(runs, runContract, options);
  if (problems.length > 0) {
    throw new InvalidRunError(message, problems.map(({ id, ...problem }) => (id === undefined ? problem : { ...problem, runId: id })));
  }
  return validated.map(({ index, value, record }) => ({ index, runId: record.runId, value, event: record }));
}

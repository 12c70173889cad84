// The mutable state of one scorer run: step results, recorded prompts, judge evidence and the
// steps completed so far. One per `run()` call, never shared, so concurrent runs stay isolated.
import type { StepName } from '../contracts/scorer-steps.ts';
import type { JudgeExecution, JudgeResults } from '../judge/types.ts';
import type { PreparedScorerRun, StepResults } from './types.ts';

export type RunState = {
  run: PreparedScorerRun;
  results: StepResults;
  prompts: Partial<Record<StepName, string>>;
  judge: JudgeResults | undefined;
  completed: StepName[];
};

export function newRunState(run: PreparedScorerRun): RunState {
  return { run, results: {}, prompts: {}, judge: undefined, completed: [] };
}

export function addJudgeExecution(state: RunState, step: StepName, execution: JudgeExecution): void {
  state.judge ??= {};
  const record = state.judge[step];
  if (record === undefined) state.judge[step] = { executions: [execution] };
  else record.executions.push(execution);
}

// Types for typed scorers. The agent message shapes are the scorer utils' own
// (src/kit/utils/message-types.ts); trajectories are declared here. Typing only: nothing is validated.
export type { ScorerRunInputForAgent, ScorerRunOutputForAgent } from '../utils/message-types.ts';

export type TrajectoryStep = Record<string, unknown> & { stepType?: string; name?: string };

export type Trajectory = {
  steps: TrajectoryStep[];
  totalDurationMs?: number;
  rawOutput?: unknown;
  rawWorkflowResult?: unknown;
};

/**
 * What a run expects of the agent's trajectory: Mastra's object form, or the list of steps the
 * trajectory scorers read (each a tool name or `{ toolName, args? }`; docs/scorers.md).
 */
export type TrajectoryExpectation = Record<string, unknown> | readonly unknown[];

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

export type TrajectoryExpectation = Record<string, unknown>;

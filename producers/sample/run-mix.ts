// The mix of the sample traffic (weights, relative to each other): how often tools succeed or fail
// (and how often the trajectory goes wrong: unoffered tools, loops, bad arguments) and how good the answers are, as usual and for a degraded agent (degradation.ts), and the errors
// a run may end with. Tuned so code scorers see a spread of scores: most answers complete, some
// partial or off topic, some tools failing.
import type { AnswerQuality, ToolOutcome } from './build-messages.ts';

export const toolOutcomes: ReadonlyArray<readonly [ToolOutcome, number]> = [
  ['ok', 52],
  ['reported_error', 12],
  ['thrown_error', 10],
  ['wrong_tool', 10],
  ['no_tools', 8],
  ['unoffered_tool', 3],
  ['repeated_call', 3],
  ['bad_arguments', 2],
];

export const qualities: ReadonlyArray<readonly [AnswerQuality, number]> = [
  ['complete', 40],
  ['mostly', 18],
  ['partial', 22],
  ['offTopic', 14],
  ['empty', 6],
];

/** A degraded agent (Degradation): answers mostly off topic or empty, tools failing more often. */
export const degradedToolOutcomes: ReadonlyArray<readonly [ToolOutcome, number]> = [
  ['ok', 24],
  ['reported_error', 22],
  ['thrown_error', 22],
  ['wrong_tool', 12],
  ['no_tools', 5],
  ['unoffered_tool', 5],
  ['repeated_call', 6],
  ['bad_arguments', 4],
];
export const degradedQualities: ReadonlyArray<readonly [AnswerQuality, number]> = [
  ['complete', 4],
  ['mostly', 4],
  ['partial', 12],
  ['offTopic', 50],
  ['empty', 30],
];

export const runErrors = [
  { name: 'AgentTimeoutError', message: 'the agent did not finish within 30000 ms' },
  { name: 'APICallError', message: 'model provider returned 529: overloaded' },
  { name: 'ToolExecutionError', message: 'tool loop exceeded maxSteps (8)' },
] as const;

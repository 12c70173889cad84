// Trajectory match (code, no judge): did the agent's tool calls follow the expected trajectory?
// Three matchers, as AWS AgentCore names them: exact (the same steps, same order, nothing else),
// in_order (the expected steps in order, others allowed between) and any_order (every expected
// step, order ignored). 1 when the mode's match holds; otherwise partial credit, the F1 of step
// precision and recall, so a run one step off scores above a run that did something else entirely.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { invalidScorerOptions } from '../../shared/invalid-options.ts';
import { listToolCalls } from '../../shared/tool-invocations.ts';
import { parseExpectedSteps, requestContextValue } from './expected-steps.ts';
import type { ExpectedStep, NormalizedStep } from './expected-steps.ts';
import { pairAnyOrder, pairAnyOrderByName, pairInOrder, parsedArgs, stepMatches } from './match-steps.ts';
import type { ActualStep } from './match-steps.ts';
import { printableWithin } from '../../shared/reason-text.ts';

export type { ExpectedStep } from './expected-steps.ts';

export const trajectoryMatchScorerId = 'trajectory-match';

const trajectoryModes = ['exact', 'in_order', 'any_order'] as const;
export type TrajectoryMode = (typeof trajectoryModes)[number];

export type TrajectoryMatchOptions = {
  /** Default 'in_order'. */
  mode?: TrajectoryMode;
  /** Also require the args each expected step names to equal the call's (a subset match). Default false. */
  compareArgs?: boolean;
  /** Expected trajectories by intent, for runs that carry no `expectedTrajectory` of their own. */
  expected?: Record<string, ExpectedStep[]>;
  /** The request-context key whose value picks the `expected` entry. Default 'intent'. */
  intentKey?: string;
};

export type MissingStep = { toolName: string; expectedIndex: number; after?: string };
export type UnexpectedStep = { toolName: string; toolCallId: string; actualIndex: number };

export type TrajectoryMatchResult = {
  mode: TrajectoryMode;
  compareArgs: boolean;
  /** Where the expectation came from: the run's `expectedTrajectory`, or the intent table entry. */
  expectedFrom: 'run' | { intent: string };
  expectedSteps: NormalizedStep[];
  actualSteps: string[];
  matchHolds: boolean;
  matched: number;
  precision: number;
  recall: number;
  /** The first missing expected steps and unexpected calls (capped); the counts say how many in all. */
  missing: MissingStep[];
  unexpected: UnexpectedStep[];
  missingCount: number;
  unexpectedCount: number;
};

// Results travel in score records: tool names and lists are capped so hostile runs stay small.
const maxRecordedName = 200;
const maxRecordedSteps = 50;
const maxReasonName = 40;
const maxReasonItems = 3;
// The in-order pairing fills an expected × actual table; past this a run is not compared at all.
const maxComparedCells = 1_000_000;

const modeLabels: Record<TrajectoryMode, string> = { exact: 'Exact', in_order: 'In-order', any_order: 'Any-order' };

function validateOptions(options: TrajectoryMatchOptions): Required<Omit<TrajectoryMatchOptions, 'expected'>> & { expected: Map<string, NormalizedStep[]> } {
  if (typeof options !== 'object' || options === null) throw invalidScorerOptions(trajectoryMatchScorerId, 'options must be an object, e.g. { mode: "in_order" }.');
  const { mode = 'in_order', compareArgs = false, intentKey = 'intent' } = options;
  if (!trajectoryModes.includes(mode)) {
    throw invalidScorerOptions(trajectoryMatchScorerId, `option "mode" must be one of ${trajectoryModes.map((name) => `"${name}"`).join(', ')}; got ${JSON.stringify(mode)}.`);
  }
  if (typeof compareArgs !== 'boolean') throw invalidScorerOptions(trajectoryMatchScorerId, 'option "compareArgs" must be true or false.');
  if (typeof intentKey !== 'string' || intentKey === '') throw invalidScorerOptions(trajectoryMatchScorerId, 'option "intentKey" must be a non-empty request-context key.');
  const expected = new Map<string, NormalizedStep[]>();
  if (options.expected !== undefined) {
    if (typeof options.expected !== 'object' || options.expected === null || Array.isArray(options.expected)) {
      throw invalidScorerOptions(trajectoryMatchScorerId, 'option "expected" must be an object mapping each intent to its list of steps.');
    }
    for (const [intent, steps] of Object.entries(options.expected)) {
      const parsed = parseExpectedSteps(steps);
      if ('problem' in parsed) throw invalidScorerOptions(trajectoryMatchScorerId, `option "expected", intent "${intent}": ${parsed.problem}.`);
      expected.set(intent, parsed.steps);
    }
  }
  return { mode, compareArgs, intentKey, expected };
}

function actualStepsOf(output: unknown): ActualStep[] {
  return listToolCalls(output).map(({ toolName, toolCallId, invocation }) => ({ toolName, toolCallId, args: parsedArgs(invocation.args) }));
}

/** F1 of precision and recall; 0 when both are 0. */
function f1(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** The first few items (each already shortened) and how many more there are out of `total`. */
function listForReason(items: string[], total = items.length): string {
  const shown = items.slice(0, maxReasonItems);
  const more = total - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

export function createTrajectoryMatchScorer(options: TrajectoryMatchOptions = {}) {
  const { mode, compareArgs, intentKey, expected } = validateOptions(options);

  return createScorer({
    id: trajectoryMatchScorerId,
    name: 'Trajectory Match',
    description: `Checks the agent's tool calls against the expected trajectory (${modeLabels[mode].toLowerCase()} match${compareArgs ? ', args compared' : ''}).`,
    type: 'agent',
  })
    .preprocess(({ run }) => {
      let source: TrajectoryMatchResult['expectedFrom'];
      let rawSteps: unknown;
      if (run.expectedTrajectory !== undefined && run.expectedTrajectory !== null) {
        source = 'run';
        rawSteps = run.expectedTrajectory;
      } else {
        const where = 'The run carries no expectedTrajectory';
        if (expected.size === 0) return notScorable(`${where} and the scorer has no "expected" table to look one up in.`);
        const intent = requestContextValue(run.requestContext, intentKey);
        if (typeof intent !== 'string' || intent === '') {
          return notScorable(`${where} and its request context has no "${printableWithin(intentKey, maxRecordedName)}" string to pick an entry of "expected" with.`);
        }
        const steps = expected.get(intent);
        if (steps === undefined) {
          return notScorable(`${where} and "expected" has no entry for intent "${printableWithin(intent, maxReasonName)}" (known: ${listForReason([...expected.keys()].map((key) => printableWithin(key, maxReasonName)))}).`);
        }
        source = { intent: printableWithin(intent, maxRecordedName) };
        rawSteps = steps;
      }
      const parsed = source === 'run' ? parseExpectedSteps(rawSteps) : { steps: rawSteps as NormalizedStep[] };
      if ('problem' in parsed) return notScorable(`The run's expectedTrajectory is malformed: ${parsed.problem}.`);
      if (!Array.isArray(run.output) || run.output.length === 0) return notScorable('The run has no response messages to read tool calls from.');

      const expectedSteps = parsed.steps;
      const actual = actualStepsOf(run.output);
      if (expectedSteps.length * actual.length > maxComparedCells) {
        return notScorable(`The trajectories are too long to compare: ${expectedSteps.length} expected steps × ${actual.length} tool calls exceeds ${maxComparedCells.toLocaleString('en-US')}.`);
      }
      const matches = (e: number, a: number) => stepMatches(expectedSteps[e]!, actual[a]!, compareArgs);
      const pairing =
        mode !== 'any_order'
          ? pairInOrder(expectedSteps.length, actual.length, matches)
          : compareArgs
            ? pairAnyOrder(expectedSteps.length, actual.length, matches)
            : pairAnyOrderByName(expectedSteps.map((step) => step.toolName), actual.map((step) => step.toolName));
      const matched = pairing.expectedMatched.filter(Boolean).length;
      const allExpectedFound = matched === expectedSteps.length;
      const matchHolds = mode === 'exact' ? allExpectedFound && actual.length === expectedSteps.length : allExpectedFound;

      const missing: MissingStep[] = [];
      pairing.expectedMatched.forEach((found, index) => {
        if (found) return;
        const previous = index > 0 && mode !== 'any_order' ? expectedSteps[index - 1]!.toolName : undefined;
        missing.push({ toolName: printableWithin(expectedSteps[index]!.toolName, maxRecordedName), expectedIndex: index, ...(previous === undefined ? {} : { after: printableWithin(previous, maxRecordedName) }) });
      });
      const unexpected: UnexpectedStep[] = [];
      pairing.actualMatched.forEach((used, index) => {
        if (!used) unexpected.push({ toolName: printableWithin(actual[index]!.toolName, maxRecordedName), toolCallId: printableWithin(actual[index]!.toolCallId, maxRecordedName), actualIndex: index });
      });

      const result: TrajectoryMatchResult = {
        mode,
        compareArgs,
        expectedFrom: source,
        expectedSteps: expectedSteps.slice(0, maxRecordedSteps).map((step) => ({ ...step, toolName: printableWithin(step.toolName, maxRecordedName) })),
        actualSteps: actual.slice(0, maxRecordedSteps).map((step) => printableWithin(step.toolName, maxRecordedName)),
        matchHolds,
        matched,
        // An empty side has nothing wrong in it: no calls means none unexpected, no steps means none missed.
        precision: actual.length === 0 ? 1 : matched / actual.length,
        recall: expectedSteps.length === 0 ? 1 : matched / expectedSteps.length,
        missing: missing.slice(0, maxRecordedSteps),
        unexpected: unexpected.slice(0, maxRecordedSteps),
        missingCount: missing.length,
        unexpectedCount: unexpected.length,
      };
      return result;
    })
    .generateScore(({ results }) => {
      const { matchHolds, precision, recall } = results.preprocessStepResult;
      return matchHolds ? 1 : f1(precision, recall);
    })
    .generateReason(({ results }) => {
      const { matchHolds, precision, recall, missing, unexpected, missingCount, unexpectedCount, matched } = results.preprocessStepResult;
      const label = modeLabels[mode];
      if (matchHolds) {
        if (mode === 'exact') return `Exact match holds: the ${matched} tool calls are exactly the expected steps.`;
        const others = unexpectedCount === 0 ? '' : ` (${unexpectedCount} other ${unexpectedCount === 1 ? 'call' : 'calls'} allowed)`;
        return `${label} match holds: all ${matched} expected steps appear${mode === 'in_order' ? ' in order' : ''}${others}.`;
      }
      // Exact fails only with something missing or unexpected: all expected found and nothing else means equal sequences.
      const problems: string[] = [];
      if (missingCount > 0) {
        const described = missing.map((step) => (step.after === undefined ? printableWithin(step.toolName, maxReasonName) : `${printableWithin(step.toolName, maxReasonName)} after ${printableWithin(step.after, maxReasonName)}`));
        problems.push(`missing ${listForReason(described, missingCount)}`);
      }
      if (unexpectedCount > 0) {
        const names = listForReason(unexpected.map((step) => printableWithin(step.toolName, maxReasonName)), unexpectedCount);
        problems.push(`${unexpectedCount} unexpected ${unexpectedCount === 1 ? 'step' : 'steps'} (${names})`);
      }
      return `${label} match failed: ${problems.join('; ')}. Precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)}.`;
    });
}

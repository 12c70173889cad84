// Tool call accuracy (code, no judge): did the agent call the tool it was expected to call, or
// the expected tools in the expected order? 1 when it did, 0 when it did not.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { extractToolCalls } from '../../../utils/tool-calls.ts';
import { invalidScorerOptions } from '../../shared/invalid-options.ts';

export const toolCallAccuracyScorerId = 'tool-call-accuracy';

export type ToolCallAccuracyOptions = {
  /** The one tool the agent should call. Give this or `expectedTools`. */
  expectedTool?: string;
  /** The tools the agent should call, in this order. Give this or `expectedTool`. */
  expectedTools?: string[];
  /**
   * With `expectedTool`: the agent must call that tool once and nothing else.
   * With `expectedTools`: the calls must be exactly that sequence.
   * Off (default): other calls may come before, between and after the expected ones.
   */
  strictMode?: boolean;
};

/** Whether `expected` occurs in `actual` in order, other items allowed in between. */
export function isOrderedSubsequence(expected: readonly string[], actual: readonly string[]): boolean {
  let next = 0;
  for (const tool of actual) {
    if (next < expected.length && tool === expected[next]) next++;
  }
  return next === expected.length;
}

function sameSequence(first: readonly string[], second: readonly string[]): boolean {
  return first.length === second.length && first.every((tool, index) => tool === second[index]);
}

function expectedSequence(options: ToolCallAccuracyOptions): string[] {
  const { expectedTool, expectedTools } = options;
  if (expectedTool !== undefined && expectedTools !== undefined) {
    throw invalidScorerOptions(toolCallAccuracyScorerId, 'give either "expectedTool" or "expectedTools", not both.');
  }
  if (expectedTool !== undefined) {
    if (typeof expectedTool !== 'string' || expectedTool === '') {
      throw invalidScorerOptions(toolCallAccuracyScorerId, 'option "expectedTool" must be a non-empty tool name.');
    }
    return [expectedTool];
  }
  if (expectedTools !== undefined) {
    if (!Array.isArray(expectedTools) || expectedTools.length === 0) {
      throw invalidScorerOptions(toolCallAccuracyScorerId, 'option "expectedTools" must be a non-empty array of tool names.');
    }
    if (expectedTools.some((tool) => typeof tool !== 'string' || tool === '')) {
      throw invalidScorerOptions(toolCallAccuracyScorerId, 'every entry of "expectedTools" must be a non-empty tool name.');
    }
    return [...expectedTools];
  }
  throw invalidScorerOptions(
    toolCallAccuracyScorerId,
    'say which tool the agent should call: pass "expectedTool" (one tool) or "expectedTools" (an ordered list).',
  );
}

export function createToolCallAccuracyScorer(options: ToolCallAccuracyOptions) {
  const expected = expectedSequence(options);
  const strictMode = options.strictMode ?? false;
  const single = options.expectedTool !== undefined;
  const expectation = single ? `the tool "${expected[0]}"` : `the tools [${expected.join(', ')}] in order`;

  return createScorer({
    id: toolCallAccuracyScorerId,
    name: 'Tool Call Accuracy',
    description: `Checks that the agent called ${expectation}${strictMode ? ' and nothing else' : ''}.`,
    type: 'agent',
  })
    .preprocess(({ run }) => {
      if (!Array.isArray(run.output) || run.output.length === 0) {
        return notScorable('The run has no response messages to look for tool calls in.');
      }
      const actualTools = extractToolCalls(run.output).tools;
      let matched: boolean;
      if (single) {
        matched = strictMode ? sameSequence(expected, actualTools) : actualTools.includes(expected[0]!);
      } else {
        matched = strictMode ? sameSequence(expected, actualTools) : isOrderedSubsequence(expected, actualTools);
      }
      return { expectedTools: expected, actualTools, strictMode, matched };
    })
    .generateScore(({ results }) => (results.preprocessStepResult.matched ? 1 : 0))
    .generateReason(({ results }) => {
      const { actualTools, matched } = results.preprocessStepResult;
      const called = actualTools.length === 0 ? 'no tools' : `[${actualTools.join(', ')}]`;
      return matched
        ? `The agent called ${expectation} as expected (calls: ${called}).`
        : `Expected ${expectation}${strictMode ? ' and nothing else' : ''}, but the agent called ${called}.`;
    });
}

// Tool selection (LLM judge): for each tool call the agent made, was it the right tool for the
// step, given the user's request and the tools it was offered? The judge labels each listed call
// appropriate / inappropriate / unnecessary; the score is appropriate / judged calls, times `scale`.
// The judge's verdicts are matched to the listed calls in code (matchToolSelectionVerdicts), so a
// verdict for a call that was not listed cannot move the score.
import { z } from 'zod';
import { ScorestreamError } from '../../../errors.ts';
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { scaleOption } from '../../shared/invalid-options.ts';
import { judgeConfig } from '../../shared/llm-scorer-config.ts';
import type { LlmScorerConfig } from '../../shared/llm-scorer-config.ts';
import { NO_OFFERED_TOOLS_REASON, offeredToolsOf } from '../../shared/offered-tools.ts';
import { getQuestionText, partAbsent } from '../../shared/run-text.ts';
import { cutForJudge, judgedToolCalls, maxRunTextChars } from '../../shared/tool-calls-text.ts';
import type { JudgedToolCall } from '../../shared/tool-calls-text.ts';
import { scaleScore, weightedShare } from '../../shared/verdict-score.ts';
import { createToolSelectionAnalyzePrompt, createToolSelectionReasonPrompt, offeredToolForJudge, toolSelectionInstructions } from './prompts.ts';
import { NO_TOOL_CALLS_REASON } from '../../shared/tool-invocations.ts';

export const toolSelectionScorerId = 'tool-selection';

export type ToolSelectionOptions = {
  /** The score when every judged call was appropriate (default 1). */
  scale?: number;
};

export const toolSelectionVerdicts = ['appropriate', 'inappropriate', 'unnecessary'] as const;
export type ToolSelectionVerdict = (typeof toolSelectionVerdicts)[number];

export const toolSelectionAnalyzeSchema = z.object({
  verdicts: z.array(
    z.object({
      /** 1-based number of the call in the prompt's listing; checked against it in code. */
      call: z.number(),
      verdict: z.enum(toolSelectionVerdicts),
      reason: z.string(),
    }),
  ),
  // Models often answer `null` for "none"; that is no missing tool, not a malformed answer.
  missingTool: z.string().nullish(),
});
export type ToolSelectionAnalysis = z.infer<typeof toolSelectionAnalyzeSchema>;

// A prompt lists at most this many offered tools; an agent with hundreds of tools (an MCP server
// or two) would otherwise make every prompt as long as its tool catalogue.
const maxOfferedToolsForJudge = 50;

export type JudgedToolSelection = { call: number; toolName: string; toolCallId: string; verdict: ToolSelectionVerdict; reason: string };
export type MatchedToolSelection = { judged: JudgedToolSelection[]; unjudgedCalls: number[] };

/**
 * The judge's verdicts matched to the listed calls: a verdict whose `call` is not a listed call's
 * number is ignored; a call with no verdict, or with verdicts that disagree, is unjudged (left
 * out of the score); repeated identical verdicts count once.
 */
export function matchToolSelectionVerdicts(calls: readonly JudgedToolCall[], verdicts: ToolSelectionAnalysis['verdicts']): MatchedToolSelection {
  const judged: JudgedToolSelection[] = [];
  const unjudgedCalls: number[] = [];
  for (const call of calls) {
    const given = verdicts.filter((entry) => entry.call === call.call);
    const first = given[0];
    if (first === undefined || given.some((entry) => entry.verdict !== first.verdict)) {
      unjudgedCalls.push(call.call);
      continue;
    }
    judged.push({ call: call.call, toolName: call.toolName, toolCallId: call.toolCallId, verdict: first.verdict, reason: first.reason });
  }
  return { judged, unjudgedCalls };
}

/** Appropriate / judged calls, times `scale`; undefined when no call was judged. */
export function computeToolSelectionScore(verdicts: readonly ToolSelectionVerdict[], { scale }: { scale: number }): number | undefined {
  const share = weightedShare(verdicts, { appropriate: 1 });
  return share === undefined ? undefined : scaleScore(share, scale);
}

function noVerdictMatched(listedCalls: number, verdicts: ToolSelectionAnalysis['verdicts']): ScorestreamError {
  const answered = verdicts.length === 0 ? 'it gave no verdicts' : `its verdicts named calls ${[...new Set(verdicts.map((entry) => entry.call))].slice(0, 10).join(', ')}`;
  return new ScorestreamError(
    `Scorer "${toolSelectionScorerId}": the judge gave no usable verdict for any of the ${listedCalls} tool call(s) listed (${answered}). ` +
      'Its answer is in the analyze step evidence; a judge model that follows structured-output instructions more closely avoids this.',
    { code: 'JUDGE_ANSWER_UNUSABLE', canRetry: false },
  );
}

export function createToolSelectionScorer(config: LlmScorerConfig<ToolSelectionOptions>) {
  const options = config.options ?? {};
  const scale = scaleOption(toolSelectionScorerId, options.scale);

  return createScorer({
    id: toolSelectionScorerId,
    name: 'Tool Selection',
    description: "The share of the agent's tool calls that used the right tool for their step, judged against the tools it was offered.",
    type: 'agent',
    judge: judgeConfig(config, toolSelectionInstructions),
  })
    .preprocess(({ run }) => {
      const offered = offeredToolsOf(run);
      if (offered === undefined) return notScorable(NO_OFFERED_TOOLS_REASON);
      const toolCalls = judgedToolCalls(run.output);
      if (toolCalls.totalCalls === 0) return notScorable(NO_TOOL_CALLS_REASON);
      const question = getQuestionText(run.input);
      if (question === undefined) return partAbsent(run, 'question', 'The run input has no user message to judge the tool choices against.');
      return {
        question: cutForJudge(question, maxRunTextChars),
        offeredTools: offered.slice(0, maxOfferedToolsForJudge).map(offeredToolForJudge),
        totalOfferedTools: offered.length,
        toolCalls,
      };
    })
    .analyze({
      description: 'Judge, call by call, whether the agent chose the right tool.',
      outputSchema: toolSelectionAnalyzeSchema,
      createPrompt: ({ results }) => createToolSelectionAnalyzePrompt(results.preprocessStepResult),
    })
    .generateScore(({ results }) => {
      const { calls } = results.preprocessStepResult.toolCalls;
      const { verdicts } = results.analyzeStepResult;
      const { judged } = matchToolSelectionVerdicts(calls, verdicts);
      const score = computeToolSelectionScore(
        judged.map((entry) => entry.verdict),
        { scale },
      );
      if (score === undefined) throw noVerdictMatched(calls.length, verdicts);
      return score;
    })
    .generateReason({
      description: 'Explain the tool selection score from the verdicts.',
      createPrompt: ({ results, score }) => {
        const { verdicts, missingTool } = results.analyzeStepResult;
        const matched = matchToolSelectionVerdicts(results.preprocessStepResult.toolCalls.calls, verdicts);
        return createToolSelectionReasonPrompt({ score, scale, ...matched, ...(missingTool == null || missingTool.trim() === '' ? {} : { missingTool }) });
      },
    });
}

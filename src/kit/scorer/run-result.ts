// Builds what `run()` resolves with (docs/scorers.md, the run result) and the snapshot a
// ScorerRunError carries. The success result has every step-derived key, `undefined` when absent; the snapshot has
// only defined fields; a not-scorable result has no `score` key at all.
import type { RunState } from './run-state.ts';
import type { NotScorableOutcome } from '../contracts/score-record.ts';
import type { ScorerRunResult, ScorerRunResultSnapshot } from './types.ts';

export function scoredResult(state: RunState): ScorerRunResult {
  const { results, prompts } = state;
  const result: Record<string, unknown> = {
    ...state.run,
    score: results.generateScoreStepResult,
    generateScorePrompt: prompts.generateScore,
    reason: results.generateReasonStepResult,
    generateReasonPrompt: prompts.generateReason,
    preprocessStepResult: results.preprocessStepResult,
    preprocessPrompt: prompts.preprocess,
    analyzeStepResult: results.analyzeStepResult,
    analyzePrompt: prompts.analyze,
  };
  if (state.judge !== undefined) result.judge = state.judge;
  return result as ScorerRunResult;
}

/** A sentinel from generateReason drops the score already computed, as Mastra does. */
export function notScorableResult(state: RunState, outcome: NotScorableOutcome): ScorerRunResult {
  const { results, prompts } = state;
  const result: Record<string, unknown> = {
    ...state.run,
    generateScorePrompt: prompts.generateScore,
    reason: undefined,
    generateReasonPrompt: prompts.generateReason,
    preprocessStepResult: results.preprocessStepResult,
    preprocessPrompt: prompts.preprocess,
    analyzeStepResult: results.analyzeStepResult,
    analyzePrompt: prompts.analyze,
    notScorable: outcome,
  };
  if (state.judge !== undefined) result.judge = state.judge;
  return result as ScorerRunResult;
}

/** Undefined when nothing completed and no judge was called: there is nothing to report. */
export function failureSnapshot(state: RunState): ScorerRunResultSnapshot | undefined {
  if (state.completed.length === 0 && state.judge === undefined) return undefined;
  const { results, prompts } = state;
  const snapshot: Record<string, unknown> = { ...state.run };
  const fields: [string, unknown][] = [
    ['score', results.generateScoreStepResult],
    ['generateScorePrompt', prompts.generateScore],
    ['reason', results.generateReasonStepResult],
    ['generateReasonPrompt', prompts.generateReason],
    ['preprocessStepResult', results.preprocessStepResult],
    ['preprocessPrompt', prompts.preprocess],
    ['analyzeStepResult', results.analyzeStepResult],
    ['analyzePrompt', prompts.analyze],
    ['judge', state.judge],
  ];
  for (const [key, value] of fields) if (value !== undefined) snapshot[key] = value;
  return snapshot as ScorerRunResultSnapshot;
}

// Turns a scorer outcome into the ScoreRecord published on the results topic (docs/contracts.md, the score record).
// Pure: the caller brings the clock readings and the span ids.
import type { RecordTrace, Sampling } from '../../kit/contracts/common.ts';
import type { JudgeResults } from '../../kit/contracts/judge-execution.ts';
import { scoreIdFor } from '../../kit/contracts/score-id.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import { verdictFor } from '../../kit/verdict/pass-criterion.ts';
import type { PassCriterion } from '../../kit/verdict/pass-criterion.ts';
import { threadScoreIdFor } from '../../kit/contracts/thread-ids.ts';
import type { ThreadVersion } from '../../kit/contracts/thread-ref.ts';
import type { RunFacts } from './run-facts.ts';
import type { ScorerOutcome } from './scorer-outcome.ts';

export type ScoreRecordContext = {
  scorerId: string;
  scorerName?: string;
  scorerVersion?: string;
  /** The binding's `pass` criterion: a scored record gets its verdict. */
  pass?: PassCriterion;
  facts: RunFacts;
  outcome: ScorerOutcome;
  trace?: RecordTrace;
  sampling?: Sampling;
  scoredAt: string;
  durationMs: number;
  /** A thread scorer's close (src/engine/threads/): the record gets the thread block and a thread score id. */
  thread?: ThreadVersion;
};

/** The steps' raw results a record carries: those the run produced. */
function stepsOf(result: ScorerOutcomeResult): Record<string, unknown> {
  const steps: Record<string, unknown> = {};
  if (result.preprocessStepResult !== undefined) steps.preprocess = result.preprocessStepResult;
  if (result.analyzeStepResult !== undefined) steps.analyze = result.analyzeStepResult;
  return steps;
}

/** The judge prompts a record carries: those of its prompt steps. */
function promptsOf(result: ScorerOutcomeResult): Record<string, unknown> {
  const prompts: Record<string, unknown> = {};
  if (result.preprocessPrompt !== undefined) prompts.preprocess = result.preprocessPrompt;
  if (result.analyzePrompt !== undefined) prompts.analyze = result.analyzePrompt;
  if (result.generateScorePrompt !== undefined) prompts.generateScore = result.generateScorePrompt;
  if (result.generateReasonPrompt !== undefined) prompts.generateReason = result.generateReasonPrompt;
  return prompts;
}

/** What a record reads of a run's result (a failed run's snapshot is the same shape, or empty). */
type ScorerOutcomeResult = Record<string, unknown>;

function hasKeys(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/**
 * One object, built in the contract's field order (the order its JSON shows), with each optional
 * field set only when it has a value: a record per scorer per run, so no intermediate objects or
 * copies of them. The contract's schema checks the result in the tests.
 */
export function buildScoreRecord(context: ScoreRecordContext): ScoreRecord {
  const { facts, outcome } = context;
  const event = facts.event;
  const result = outcome.status === 'failed' ? (outcome.snapshot ?? {}) : outcome.result;
  const judge = result.judge as JudgeResults | undefined;
  const record: Record<string, unknown> = {
    schemaVersion: 1,
    scoreId:
      context.thread === undefined
        ? scoreIdFor({ runId: event.runId, scorerId: context.scorerId, scorerVersion: context.scorerVersion })
        : threadScoreIdFor({ threadKey: context.thread.key, scorerId: context.scorerId, scorerVersion: context.scorerVersion, versionId: context.thread.versionId }),
    runId: event.runId,
    scorerId: context.scorerId,
  };
  if (context.scorerName !== undefined) record.scorerName = context.scorerName;
  if (context.scorerVersion !== undefined) record.scorerVersion = context.scorerVersion;
  record.entity = event.entity;
  if (event.metadata !== undefined) record.metadata = event.metadata;
  if (event.missing !== undefined) record.missing = event.missing;
  record.steps = stepsOf(result);
  record.prompts = promptsOf(result);
  if (judge !== undefined && hasKeys(judge)) record.judge = judge;
  if (context.trace !== undefined) record.trace = context.trace;
  record.source = facts.source;
  if (context.sampling !== undefined) record.sampling = context.sampling;
  record.scoredAt = context.scoredAt;
  record.durationMs = context.durationMs;
  if (context.thread !== undefined) record.thread = context.thread;
  record.status = outcome.status;
  switch (outcome.status) {
    case 'scored': {
      record.score = outcome.score;
      const verdict = context.pass === undefined ? undefined : verdictFor(context.pass, outcome.score, result.analyzeStepResult);
      if (verdict !== undefined) record.verdict = verdict;
      if (result.reason !== undefined) record.reason = result.reason;
      break;
    }
    case 'not_scorable':
      record.notScorable = outcome.notScorable;
      break;
    case 'failed':
      record.error = outcome.error;
      break;
  }
  return record as ScoreRecord;
}

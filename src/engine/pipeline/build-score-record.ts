// Turns a scorer outcome into the ScoreRecord published on the results topic (docs/contracts.md, the score record).
// Pure: the caller brings the clock readings and the span ids.
import type { RecordTrace, Sampling } from '../../kit/contracts/common.ts';
import { scoreIdFor } from '../../kit/contracts/score-id.ts';
import { SCORE_RECORD_SCHEMA_VERSION } from '../../kit/contracts/score-record.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { JudgeResults } from '../../kit/contracts/judge-execution.ts';
import { sumLatency } from '../../kit/contracts/record-latency.ts';
import type { LatencyBefore, RecordLatency } from '../../kit/contracts/record-latency.ts';
import type { ScorerRunResultSnapshot } from '../../kit/scorer/types.ts';
import { verdictFor } from '../../kit/verdict/pass-criterion.ts';
import type { PassCriterion } from '../../kit/verdict/pass-criterion.ts';
import { threadScoreIdFor } from '../../kit/contracts/thread-ids.ts';
import type { ThreadVersion } from '../../kit/contracts/thread-ref.ts';
import type { Escalation } from '../../kit/contracts/escalation.ts';
import { addSpend, judgeExecutions } from '../../kit/contracts/record-spend.ts';
import type { RecordSpend } from '../../kit/contracts/record-spend.ts';
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
  /** A binding with `escalate`: the tier that sent the run to it. */
  escalation?: Escalation | undefined;
  scoredAt: string;
  durationMs: number;
  /** A thread scorer's close (src/engine/threads/): the record gets the thread block and a thread score id. */
  thread?: ThreadVersion;
  /** Where the pair's time went before this attempt's scorer ran (the transport's stages, a retry's earlier attempts); the record adds its own scoring and judge time. */
  latencyBefore?: LatencyBefore | undefined;
};

/** What a record reads of a run's result: a scored or not-scorable result, or a failed run's snapshot (or nothing). */
type RunEvidence = Pick<
  ScorerRunResultSnapshot,
  'reason' | 'preprocessStepResult' | 'analyzeStepResult' | 'preprocessPrompt' | 'analyzePrompt' | 'generateScorePrompt' | 'generateReasonPrompt' | 'judge'
>;

/** The steps' raw results a record carries: those the run produced. */
function stepsOf(result: RunEvidence): ScoreRecord['steps'] {
  return {
    ...(result.preprocessStepResult === undefined ? {} : { preprocess: result.preprocessStepResult }),
    ...(result.analyzeStepResult === undefined ? {} : { analyze: result.analyzeStepResult }),
  };
}

/** The judge prompts a record carries: those of its prompt steps. */
function promptsOf(result: RunEvidence): ScoreRecord['prompts'] {
  return {
    ...(result.preprocessPrompt === undefined ? {} : { preprocess: result.preprocessPrompt }),
    ...(result.analyzePrompt === undefined ? {} : { analyze: result.analyzePrompt }),
    ...(result.generateScorePrompt === undefined ? {} : { generateScore: result.generateScorePrompt }),
    ...(result.generateReasonPrompt === undefined ? {} : { generateReason: result.generateReasonPrompt }),
  };
}

/** The judge calls' time: each prompt step's whole time, summed. */
function judgeTimeMs(judge: JudgeResults | undefined): number {
  let total = 0;
  if (judge === undefined) return total;
  for (const step of Object.values(judge)) for (const execution of step?.executions ?? []) total += execution.durationMs;
  return total;
}

/** This attempt's scorer run split into its judge calls and the rest, added to what came before. */
function latencyOf(context: ScoreRecordContext, judge: JudgeResults | undefined): RecordLatency {
  const judgeMs = judgeTimeMs(judge);
  const scoringMs = Math.max(0, Math.round(context.durationMs - judgeMs));
  const own: RecordLatency = judgeMs > 0 ? { scoringMs, judgeMs } : { scoringMs };
  if (context.latencyBefore === undefined) return own;
  const summed = sumLatency(context.latencyBefore, own);
  return { ...summed, scoringMs: summed.scoringMs ?? own.scoringMs };
}

function hasKeys(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/** The fields every record has, whatever its status, in the contract's field order (the order its JSON shows). */
function commonFields(context: ScoreRecordContext, result: RunEvidence) {
  const { facts, thread } = context;
  const event = facts.event;
  const judge = result.judge;
  return {
    schemaVersion: SCORE_RECORD_SCHEMA_VERSION,
    scoreId:
      thread === undefined
        ? scoreIdFor({ runId: event.runId, scorerId: context.scorerId, scorerVersion: context.scorerVersion })
        : threadScoreIdFor({ threadKey: thread.key, scorerId: context.scorerId, scorerVersion: context.scorerVersion, versionId: thread.versionId }),
    runId: event.runId,
    scorerId: context.scorerId,
    ...(context.scorerName === undefined ? {} : { scorerName: context.scorerName }),
    ...(context.scorerVersion === undefined ? {} : { scorerVersion: context.scorerVersion }),
    entity: event.entity,
    ...(event.metadata === undefined ? {} : { metadata: event.metadata }),
    ...(event.missing === undefined ? {} : { missing: event.missing }),
    steps: stepsOf(result),
    prompts: promptsOf(result),
    ...(judge !== undefined && hasKeys(judge) ? { judge } : {}),
    ...(context.trace === undefined ? {} : { trace: context.trace }),
    source: facts.source,
    ...(context.sampling === undefined ? {} : { sampling: context.sampling }),
    ...(context.escalation === undefined ? {} : { escalation: context.escalation }),
    scoredAt: context.scoredAt,
    durationMs: context.durationMs,
    latency: latencyOf(context, judge),
    // A code scorer's record (most of them) has no judge: no generator, no sums.
    ...(judge === undefined ? {} : spendField(addSpend(undefined, judgeExecutions(judge)))),
    ...(thread === undefined ? {} : { thread }),
  } satisfies Omit<ScoreRecord, 'status'>;
}

const spendField = (spend: RecordSpend | undefined) => (spend === undefined ? {} : { spend });

/**
 * The record of one outcome, a typed literal per status: the compiler checks each against the
 * contract's own type, and the contract's schema checks the result in the tests. Optional fields
 * are present only when they have a value.
 */
export function buildScoreRecord(context: ScoreRecordContext): ScoreRecord {
  const { outcome } = context;
  switch (outcome.status) {
    case 'scored': {
      const result = outcome.result;
      const verdict = context.pass === undefined ? undefined : verdictFor(context.pass, outcome.score, result.analyzeStepResult);
      return {
        ...commonFields(context, result),
        status: 'scored',
        score: outcome.score,
        ...(verdict === undefined ? {} : { verdict }),
        ...(result.reason === undefined ? {} : { reason: result.reason }),
      };
    }
    case 'not_scorable':
      return { ...commonFields(context, outcome.result), status: 'not_scorable', notScorable: outcome.notScorable };
    case 'failed':
      return { ...commonFields(context, outcome.snapshot ?? {}), status: 'failed', error: outcome.error };
  }
}

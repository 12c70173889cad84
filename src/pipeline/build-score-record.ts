// Turns a scorer outcome into the ScoreRecord published on the results topic (docs/contracts.md, the score record).
// Pure: the caller brings the clock readings and the span ids.
import type { RecordTrace, Sampling } from '../contracts/common.ts';
import type { JudgeResults } from '../contracts/judge-execution.ts';
import { scoreIdFor } from '../contracts/score-id.ts';
import type { ScoreRecord } from '../contracts/score-record.ts';
import { verdictFor } from '../verdict/pass-criterion.ts';
import type { PassCriterion } from '../verdict/pass-criterion.ts';
import { threadScoreIdFor } from '../contracts/thread-ids.ts';
import type { ThreadVersion } from '../contracts/thread-ref.ts';
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
  /** A thread scorer's close (src/threads/): the record gets the thread block and a thread score id. */
  thread?: ThreadVersion;
};

function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  const result: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) result[key] = value[key];
  return result as Partial<T>;
}

function hasKeys(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

export function buildScoreRecord(context: ScoreRecordContext): ScoreRecord {
  const { facts, outcome } = context;
  const result = outcome.status === 'failed' ? (outcome.snapshot ?? {}) : outcome.result;
  const judge = result.judge as JudgeResults | undefined;
  const base = {
    schemaVersion: 1 as const,
    scoreId:
      context.thread === undefined
        ? scoreIdFor({ runId: facts.event.runId, scorerId: context.scorerId, scorerVersion: context.scorerVersion })
        : threadScoreIdFor({ threadKey: context.thread.key, scorerId: context.scorerId, scorerVersion: context.scorerVersion, versionId: context.thread.versionId }),
    runId: facts.event.runId,
    scorerId: context.scorerId,
    ...defined({ scorerName: context.scorerName, scorerVersion: context.scorerVersion }),
    entity: facts.event.entity,
    ...(facts.event.metadata === undefined ? {} : { metadata: facts.event.metadata }),
    ...(facts.event.missing === undefined ? {} : { missing: facts.event.missing }),
    steps: defined({ preprocess: result.preprocessStepResult, analyze: result.analyzeStepResult }),
    prompts: defined({
      preprocess: result.preprocessPrompt as string | undefined,
      analyze: result.analyzePrompt as string | undefined,
      generateScore: result.generateScorePrompt as string | undefined,
      generateReason: result.generateReasonPrompt as string | undefined,
    }),
    ...(judge !== undefined && hasKeys(judge) ? { judge } : {}),
    ...(context.trace === undefined ? {} : { trace: context.trace }),
    source: facts.source,
    ...(context.sampling === undefined ? {} : { sampling: context.sampling }),
    scoredAt: context.scoredAt,
    durationMs: context.durationMs,
    ...(context.thread === undefined ? {} : { thread: context.thread }),
  };
  switch (outcome.status) {
    case 'scored': {
      const verdict = context.pass === undefined ? undefined : verdictFor(context.pass, outcome.score, result.analyzeStepResult);
      return { ...base, status: 'scored', score: outcome.score, ...(verdict === undefined ? {} : { verdict }), ...(result.reason === undefined ? {} : { reason: result.reason }) };
    }
    case 'not_scorable':
      return { ...base, status: 'not_scorable', notScorable: outcome.notScorable };
    case 'failed':
      return { ...base, status: 'failed', error: outcome.error };
  }
}

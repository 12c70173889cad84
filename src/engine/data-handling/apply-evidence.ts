// How much evidence a score record keeps (docs/data-handling.md): `full` as scored; `no-content`
// without what quotes the run — prompts, step results, the judge's outputs and the reason — but
// with models, tokens, durations, costs, statuses and the score; `none` without the judge's
// executions too. Errors and not-scorable reasons stay (redacted): they say why there is no score.
// Pure: returns a new record, marked with the level, or the same record at `full`.
import type { JudgeExecution, JudgeResults } from '../../kit/contracts/judge-execution.ts';
import type { RetryAttempt, ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { EvidenceLevel } from './redaction-schema.ts';

function withoutContent(execution: JudgeExecution): JudgeExecution {
  const { prompt: _prompt, output: _output, ...kept } = execution;
  if (kept.status === 'failed') {
    const { rawOutput: _rawOutput, ...failed } = kept;
    return failed as JudgeExecution;
  }
  return kept as JudgeExecution;
}

function judgeWithoutContent(judge: JudgeResults): JudgeResults {
  const result: JudgeResults = {};
  for (const [step, evidence] of Object.entries(judge) as [keyof JudgeResults, JudgeResults[keyof JudgeResults]][]) {
    if (evidence !== undefined) result[step] = { executions: evidence.executions.map(withoutContent) };
  }
  return result;
}

function attemptAt(attempt: RetryAttempt, level: Exclude<EvidenceLevel, 'full'>): RetryAttempt {
  const { judge, ...rest } = attempt;
  return level === 'none' || judge === undefined ? rest : { ...rest, judge: judgeWithoutContent(judge) };
}

/** Earlier attempts' evidence at `level` (a retry message's, as the record they become will carry them). */
export function attemptsAt(attempts: RetryAttempt[], level: EvidenceLevel): RetryAttempt[] {
  return level === 'full' ? attempts : attempts.map((attempt) => attemptAt(attempt, level));
}

export function applyEvidence(record: ScoreRecord, level: EvidenceLevel): ScoreRecord {
  if (level === 'full') return record;
  const { reason: _reason, judge, retries, ...rest } = record;
  return {
    ...rest,
    steps: {},
    prompts: {},
    ...(level === 'no-content' && judge !== undefined ? { judge: judgeWithoutContent(judge) } : {}),
    ...(retries === undefined ? {} : { retries: { ...retries, attempts: retries.attempts.map((attempt) => attemptAt(attempt, level)) } }),
    evidence: level,
  };
}

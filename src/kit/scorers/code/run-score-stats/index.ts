// The mean or the minimum of a run scorer's scores over a conversation (code, thread scorers): what
// the run path scored each turn with (the turn carries its run scores; docs/threads.md), folded
// into one number per thread — the mean for the usual quality, the minimum for the worst moment.
// Turns the run scorer did not score (skipped, not scorable, failed, deferred) do not count; the
// reason says how many there were. Bind with level: 'thread'.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable, notScorable } from '../../../scorer/not-scorable.ts';
import { roundToTwoDecimals } from '../../../utils/numbers.ts';
import { invalidScorerOptions } from '../../shared/invalid-options.ts';
import { threadOrNotScorable } from '../../shared/thread-run.ts';

export const runScoreMeanScorerId = 'run-score-mean';
export const runScoreMinScorerId = 'run-score-min';

export type RunScoreStatsOptions = {
  /** The run scorer whose scores are folded, e.g. 'answer-relevancy'. */
  scorerId: string;
  /** Only the scores of this version of its binding; default every version. */
  scorerVersion?: string;
  /** The thread scorer's own id; set it to bind several (default run-score-mean / run-score-min). */
  id?: string;
};

type Statistic = 'mean' | 'min';

export type UnscoredTurn = { turn: number; runId: string; status: string; reason?: string };

function createRunScoreStatScorer(statistic: Statistic, defaultId: string, options: RunScoreStatsOptions) {
  if (typeof options?.scorerId !== 'string' || options.scorerId === '') throw invalidScorerOptions(defaultId, 'option "scorerId" must name the run scorer whose scores to fold, e.g. { scorerId: \'answer-relevancy\' }.');
  const { scorerId, scorerVersion } = options;
  const id = options.id ?? defaultId;
  const named = `'${scorerId}'${scorerVersion === undefined ? '' : ` version '${scorerVersion}'`}`;
  return createScorer({
    id,
    name: statistic === 'mean' ? `Mean of ${scorerId}` : `Minimum of ${scorerId}`,
    description: `The ${statistic === 'mean' ? 'mean' : 'minimum'} of the run scorer ${named}'s scores over the conversation's turns.`,
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const thread = threadOrNotScorable(run, id);
      if (isNotScorable(thread)) return thread;
      const scores: { turn: number; runId: string; score: number }[] = [];
      const unscored: UnscoredTurn[] = [];
      thread.turns.forEach((turn, index) => {
        const own = turn.runScores.filter((summary) => summary.scorerId === scorerId && (scorerVersion === undefined || summary.scorerVersion === scorerVersion));
        const scored = own.find((summary) => summary.status === 'scored' && summary.score !== undefined);
        if (scored !== undefined) scores.push({ turn: index + 1, runId: turn.runId, score: scored.score! });
        else if (own[0] !== undefined) unscored.push({ turn: index + 1, runId: turn.runId, status: own[0].status, ...(own[0].reason === undefined ? {} : { reason: own[0].reason }) });
      });
      if (scores.length === 0) return notScorable(`No turn of the conversation has a score of ${named}.`);
      return { scores, unscored, turns: thread.turns.length };
    })
    .generateScore(({ results }) => {
      const values = results.preprocessStepResult.scores.map((entry) => entry.score);
      return statistic === 'mean' ? roundToTwoDecimals(values.reduce((sum, value) => sum + value, 0) / values.length) : Math.min(...values);
    })
    .generateReason(({ results, score }) => {
      const { scores, unscored, turns } = results.preprocessStepResult;
      const worst = scores.reduce((lowest, entry) => (entry.score < lowest.score ? entry : lowest));
      const head = statistic === 'mean' ? `The mean of ${scores.length} score${scores.length === 1 ? '' : 's'} of ${named} over ${turns} turns is ${score}` : `The lowest of ${scores.length} score${scores.length === 1 ? '' : 's'} of ${named} over ${turns} turns is ${score}, in turn ${worst.turn}`;
      return unscored.length === 0 ? `${head}.` : `${head}; ${unscored.length} turn${unscored.length === 1 ? ' was' : 's were'} not scored (${unscored.map((entry) => entry.reason ?? entry.status).join(', ')}).`;
    });
}

export function createRunScoreMeanScorer(options: RunScoreStatsOptions) {
  return createRunScoreStatScorer('mean', runScoreMeanScorerId, options);
}

export function createRunScoreMinScorer(options: RunScoreStatsOptions) {
  return createRunScoreStatScorer('min', runScoreMinScorerId, options);
}

// A deferred pair, due again (the retry tiers, docs/delivery.md): the binding decided on the first
// attempt, found by scorer id and version, is run once more on the stored run event — its
// eligibility, sampling, escalation and `runs` budget are not decided again — and the attempt's outcome is
// planned like a first attempt's (pairOutcome), with the earlier attempts as its history. Its
// judge calls go through the budgets like any (priced, counted, refused when a budget is full):
// a refused retry is not skipped — its budget was decided when it was first admitted — but waits
// for its next attempt like any transient failure, and only a pair still refused at
// `retries.maxAgeMs` becomes a `budget_exhausted` decision. A binding no longer configured ends
// the pair with a `failed` record (`binding_removed`) carrying every attempt. Pure but for the
// scorer and the clock, like scoreRunEvent. A re-score for feedback that failed transiently
// (docs/feedback.md, re-scoring) keeps its mark and id through every attempt (markRescore).
import type { RetryMessage } from '../../kit/contracts/retry-message.ts';
import { sumSpend } from '../../kit/contracts/record-spend.ts';
import type { RecordSpend } from '../../kit/contracts/record-spend.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import { buildScoreRecord } from './build-score-record.ts';
import { batchOutcome, pairOutcome } from './pair-outcome.ts';
import { markRescore } from './score-rescore.ts';
import type { PairHistory } from './pair-outcome.ts';
import type { RunFacts } from './run-facts.ts';
import { scoreWithBinding, skippedOutcome } from './score-run-event.ts';
import type { ScoreRunEventOptions } from './score-run-event.ts';
import type { ScoringOutcome } from './scoring-outcome.ts';
import { isoTime } from '../../kit/contracts/iso-time.ts';
import type { LatencyBefore } from '../../kit/contracts/record-latency.ts';

export async function scoreRetry<Event>(facts: RunFacts, retry: RetryMessage, options: ScoreRunEventOptions<Event>): Promise<ScoringOutcome> {
  const outcome = withEarlierSpend(await attemptAgain(facts, retry, options), retry.spend);
  return retry.rescore === undefined ? outcome : markRescore(outcome, retry.rescore);
}

/** The earlier attempts' judge spend added to the outcome's record (and to a deferral's final record; its retry message is made from that record). */
function withEarlierSpend(outcome: ScoringOutcome, earlier: RecordSpend | undefined): ScoringOutcome {
  if (earlier === undefined) return outcome;
  const add = <Record extends ScoreRecord>(record: Record): Record => ({ ...record, spend: sumSpend(earlier, record.spend) });
  if (outcome.kind === 'record') return { kind: 'record', record: add(outcome.record) };
  if (outcome.kind === 'deferred') return { ...outcome, final: add(outcome.final), retry: { ...outcome.retry, spend: sumSpend(earlier, outcome.retry.spend) } };
  return outcome;
}

async function attemptAgain<Event>(facts: RunFacts, retry: RetryMessage, options: ScoreRunEventOptions<Event>): Promise<ScoringOutcome> {
  const now = options.now ?? Date.now;
  const history: PairHistory = { firstFailedAt: retry.firstFailedAt, attempts: retry.attempts };
  const binding = options.bindings.find((candidate) => candidate.scorerId === retry.scorerId && candidate.version === retry.scorerVersion);
  if (binding === undefined) return pairOutcome(bindingRemoved(facts, retry, now(), options.wayIn?.stages), facts, history, undefined, now());
  const eligibility = { eligible: true as const, ...(retry.sampling === undefined ? {} : { sampling: retry.sampling }), ...(retry.escalation === undefined ? {} : { escalation: retry.escalation }) };
  // Back from the batch tier (or a retry of a batch-mode pair): its attempt is answered from what its batches gave.
  const answered = retry.batch === undefined ? undefined : { deferredAt: retry.batch.deferredAt, answers: retry.batch.answers, counted: retry.batch.counted ?? [] };
  const batchAnswers = answered === undefined ? undefined : { answers: answered.answers, counted: new Set(answered.counted) };
  const result = await scoreWithBinding(facts, binding, eligibility, batchAnswers === undefined ? options : { ...options, batchAnswers });
  if (result.kind === 'scored') return pairOutcome(result.record, facts, history, options.retries, now(), answered);
  if (result.kind === 'batch_deferred') return batchOutcome(result, facts, history, answered, now());
  // A budget refused a judge call: the attempt failed transiently (BudgetExhaustedError can retry).
  const refused = buildScoreRecord({
    scorerId: binding.scorerId,
    scorerVersion: binding.version,
    facts,
    outcome: { status: 'failed', error: { name: 'BudgetExhaustedError', code: 'budget_exhausted', message: result.skip.detail ?? 'a judge budget is exhausted', failedStep: 'generateScore', completedSteps: [], retryable: true } },
    sampling: retry.sampling,
    escalation: retry.escalation,
    scoredAt: isoTime(now()),
    durationMs: 0,
    latencyBefore: options.wayIn?.stages,
  });
  const outcome = pairOutcome(refused, facts, history, options.retries, now());
  return outcome.kind === 'deferred' ? outcome : skippedOutcome(facts, binding, result.skip, isoTime(now()));
}

function bindingRemoved(facts: RunFacts, retry: RetryMessage, nowMs: number, latencyBefore: LatencyBefore | undefined) {
  const last = retry.attempts[retry.attempts.length - 1];
  const version = retry.scorerVersion === undefined ? '' : ` version '${retry.scorerVersion}'`;
  return buildScoreRecord({
    scorerId: retry.scorerId,
    scorerVersion: retry.scorerVersion,
    facts,
    outcome: {
      status: 'failed',
      error: {
        name: 'ScorestreamError',
        code: 'binding_removed',
        message: `scorer '${retry.scorerId}'${version} is no longer configured, so its pair waiting for a retry cannot be scored; the earlier attempts' errors are under retries`,
        failedStep: last?.error.failedStep ?? 'preprocess',
        completedSteps: last?.error.completedSteps ?? [],
        retryable: false,
      },
    },
    sampling: retry.sampling,
    escalation: retry.escalation,
    scoredAt: isoTime(nowMs),
    durationMs: 0,
    latencyBefore,
  });
}

// A close effect → the thread score (docs/threads.md, thread scorers): the binding's scorer runs on
// the whole conversation through the run path's own scoreWithBinding — timeouts, judges, evidence,
// budgets, the score record — inside a `score {scorerId}` span whose parent is the last turn's
// agent span and which links every turn's agent span. Its budget refusals are decisions.
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { Context, Link } from '@opentelemetry/api';
import { describeRefusal } from '../budget/budget-exhausted-error.ts';
import type { ResolvedThreadBinding } from '../config/config-types.ts';
import { THREAD_RUN_IDS_KEPT } from '../../kit/contracts/thread-ref.ts';
import type { ThreadVersion } from '../../kit/contracts/thread-ref.ts';
import { threadTurnSchema } from '../../kit/contracts/thread-turn.ts';
import type { ThreadTurn, TurnTrace } from '../../kit/contracts/thread-turn.ts';
import { ScorestreamError } from '../../kit/errors.ts';
import { scoreWithBinding } from '../pipeline/score-run-event.ts';
import type { ScoreRunEventOptions } from '../pipeline/score-run-event.ts';
import type { ScoringOutcome } from '../pipeline/scoring-outcome.ts';
import type { ThreadClose } from './thread-effects.ts';
import type { ThreadCloseWork } from './thread-stage.ts';
import { buildThreadDecisionRecord } from './thread-decision-record.ts';
import { buildThreadScorerInput, threadFacts } from './thread-scorer-input.ts';
import { bindingKeyOf } from './thread-part.ts';
import { threadWayIn } from '../pipeline/arrival-latency.ts';

export type ScoreThreadCloseOptions<Event> = Omit<ScoreRunEventOptions<Event>, 'bindings' | 'parentContext' | 'links' | 'retries' | 'thread'> & {
  bindings: readonly ResolvedThreadBinding<Event>[];
  /** Reads a held turn's text (default parseHeldTurn); the stage shares one per step, so that bindings closing the same version parse its turns once. */
  parseTurn?: (json: string) => ThreadTurn;
};

/** A held turn's text back to the turn (it was validated when it arrived). */
export function parseHeldTurn(json: string): ThreadTurn {
  const parsed = threadTurnSchema.safeParse(JSON.parse(json));
  if (!parsed.success) throw new ScorestreamError(`a held thread turn no longer parses: ${parsed.error.message}`, { code: 'thread_turn_corrupt' });
  return parsed.data;
}

function remoteSpan(turnTrace: TurnTrace): { traceId: string; spanId: string; traceFlags: number; isRemote: true } | undefined {
  if (turnTrace.traceId === undefined || turnTrace.spanId === undefined) return undefined;
  return { traceId: turnTrace.traceId, spanId: turnTrace.spanId, traceFlags: turnTrace.sampled === false ? TraceFlags.NONE : TraceFlags.SAMPLED, isRemote: true };
}

/** The last turn's agent span as the parent; every turn's agent span as a link. */
export function threadTraceContext(turns: readonly ThreadTurn[]): { parentContext: Context; links: Link[] } {
  const last = remoteSpan(turns.at(-1)!.trace);
  const links = turns.flatMap((turn) => {
    const span = remoteSpan(turn.trace);
    return span === undefined ? [] : [{ context: span }];
  });
  return { parentContext: last === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, last), links };
}

export function threadVersionOf(close: ThreadClose): ThreadVersion {
  return {
    id: close.threadId,
    key: close.key,
    turns: close.turns.length,
    firstRunId: close.turns[0]!.runId,
    lastRunId: close.turns.at(-1)!.runId,
    closedBy: close.closedBy,
    version: close.version,
    versionId: close.versionId,
    scope: close.scope,
    ...(close.supersedes === undefined ? {} : { supersedes: close.supersedes }),
    runIds: close.turns.slice(-THREAD_RUN_IDS_KEPT).map((turn) => turn.runId),
  };
}

/**
 * The close's outcome: its score record (scored, not_scorable, or failed — a thread score is not
 * deferred to the retry tiers: the close is the thread state's, and a later resume re-scores), or
 * the budget's skip.
 */
export async function scoreThreadClose<Event>(close: ThreadClose, options: ScoreThreadCloseOptions<Event>): Promise<ScoringOutcome> {
  const binding = options.bindings.find((candidate) => bindingKeyOf(candidate.scorerId, candidate.version) === bindingKeyOf(close.scorerId, close.scorerVersion));
  if (binding === undefined) throw new ScorestreamError(`no thread binding for scorer '${close.scorerId}'${close.scorerVersion === undefined ? '' : ` version '${close.scorerVersion}'`}: build the thread state's policies from the same bindings`, { code: 'thread_binding_missing' });
  const parseTurn = options.parseTurn ?? parseHeldTurn;
  const turns = close.turns.map((turn) => parseTurn(turn.json));
  const version = threadVersionOf(close);
  const last = turns.at(-1)!;
  const decision = (skip: { reason: 'budget_exhausted'; detail: string; budget?: Parameters<typeof describeRefusal>[0] }) =>
    buildThreadDecisionRecord({
      thread: version,
      ...(close.tenantId === undefined ? {} : { tenantId: close.tenantId }),
      scorerId: close.scorerId,
      ...(close.scorerVersion === undefined ? {} : { scorerVersion: close.scorerVersion }),
      ...skip,
      ...(close.sampling === undefined ? {} : { sampling: close.sampling }),
      last: { runId: last.run.runId, timestampMs: Date.parse(last.run.timestamp), source: last.source, trace: last.trace, entity: last.run.entity },
      decidedAt: new Date((options.now ?? Date.now)()).toISOString(),
    });
  // A budget exhausted for this scorer (and tenant) skips the close, as it skips a run.
  const refusal = options.spend?.admitRun(binding.scorerId, close.tenantId);
  if (refusal !== undefined) return { kind: 'skipped', decision: decision({ reason: 'budget_exhausted', detail: describeRefusal(refusal), budget: refusal }) };
  const result = await scoreWithBinding(threadFacts(turns), binding, { eligible: true, ...(close.sampling === undefined ? {} : { sampling: close.sampling }) }, {
    ...options,
    // A thread binding judges live (the config refuses judge mode 'batch' on one).
    batchJudge: undefined,
    ...threadTraceContext(turns),
    thread: { input: buildThreadScorerInput(version, turns), version },
    wayIn: threadWayIn(Date.parse(last.run.timestamp), close.lastJoinedAt, close.closedAt),
  });
  if (result.kind === 'scored' || result.kind === 'batch_deferred') return { kind: 'record', record: result.record };
  const { skip } = result;
  return { kind: 'skipped', decision: decision({ reason: 'budget_exhausted', detail: skip.detail ?? 'a budget refused a judge call', ...(skip.budget === undefined ? {} : { budget: skip.budget }) }) };
}

/**
 * A close's work (ThreadStage's data) as its outcome: a decision at once, or the version scored —
 * what the job runner does with every thread close (consumers/perform-job.ts). Rejects only on a
 * bug: a missing binding, a held turn that no longer parses.
 */
export function threadCloseOutcome<Event>(work: ThreadCloseWork, options: Omit<ScoreThreadCloseOptions<Event>, 'parseTurn'>): Promise<ScoringOutcome> {
  if (work.kind === 'decide') return Promise.resolve({ kind: 'skipped', decision: work.decision });
  const parseTurn = (json: string) => {
    let turn = work.parsed.get(json);
    if (turn === undefined) work.parsed.set(json, (turn = parseHeldTurn(json)));
    return turn;
  };
  return scoreThreadClose(work.close, { ...options, parseTurn });
}

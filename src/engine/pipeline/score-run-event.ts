// Event → outcomes: for one validated run event, decides every scorer binding's eligibility, runs
// the eligible scorers concurrently — a binding with `escalate` after the scorers it reads, and
// only where their outcomes or its sample send the run to it — and returns one promise per binding that settles with its
// outcome as soon as that binding is done (src/engine/pipeline/scoring-outcome.ts): a record, a skip
// with its decision, or a deferral to the retry tiers. Transport-free: the consumer publishes what
// comes back, and nothing here calls back up.
// The span contract (docs/observability.md): a scorer whose run starts a span — a judge call, a
// prompt step, its own tracing — gets its `score {scorerId}` span under the agent run's span, the
// parent of those; the scores of the others (code scorers) share the run's one `score run` span
// (run-scores-span.ts), or leave only as evaluation log records when so configured.
import { context as otelContext, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { Context, Link, Span, Tracer } from '@opentelemetry/api';
import type { BudgetRefusal } from '../budget/budget-ledger.ts';
import { gateDecisionCalls } from '../budget/judge-spend.ts';
import type { RunJudgeGate } from '../budget/judge-spend.ts';
import type { JudgeSpend } from '../budget/judge-spend.ts';
import type { RecordTrace } from '../../kit/contracts/common.ts';
import { latencyBeforeScoring } from './arrival-latency.ts';
import type { WayIn } from './arrival-latency.ts';
import type { FailedScoreRecord, ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { ThreadVersion } from '../../kit/contracts/thread-ref.ts';
import type { TraceSamplingPolicy } from '../config/config-types.ts';
import type { ResolvedBinding } from '../config/resolve-config.ts';
import type { ScorerServices } from '../../kit/scorer-services.ts';
import { describeRefusal } from '../budget/budget-exhausted-error.ts';
import { buildDecisionRecord } from './build-decision-record.ts';
import { buildScoreRecord } from './build-score-record.ts';
import { decideEligibility } from './decide-eligibility.ts';
import type { RunScoresSpan } from './run-scores-span.ts';
import { endSpan, runScoresSpanFor, scoreSpanAttributes, scoreSpansRecord, spanClock } from './score-spans.ts';
import type { ScoreSpanPlace } from './score-spans.ts';
import { DeferredSpan } from '../../kit/scorer/deferred-span.ts';
import type { Eligibility } from './decide-eligibility.ts';
import { batchOutcome, noHistory, pairOutcome } from './pair-outcome.ts';
import type { BatchJudge, KeyedBatchAnswer } from '../judge-batch/batch-judge.ts';
import type { BatchRequest } from '../judge-batch/batch-request.ts';
import type { RetryPolicy } from './retry-plan.ts';
import type { RunFacts } from './run-facts.ts';
import { buildScorerInput } from './scorer-input.ts';
import { runScorerToOutcome } from './scorer-outcome.ts';
import type { ScoringOutcome } from './scoring-outcome.ts';
import { isoTime } from '../../kit/contracts/iso-time.ts';
import type { Escalation } from '../../kit/contracts/escalation.ts';
import { decideEscalation } from '../escalation/decide-escalation.ts';
import { escalationDependencies } from '../escalation/escalation-order.ts';

export type ScoreRunEventOptions<Event> = {
  bindings: readonly ResolvedBinding<Event>[];
  /** The OTel context holding the agent run's (remote) span; ROOT_CONTEXT when none came along. */
  parentContext?: Context;
  /** Links every score span to the consumer's process span. */
  links?: Link[];
  tracer?: Tracer;
  /** Wall clock in ms (injected in tests). */
  now?: () => number;
  /** Aborted when the service shuts down hard. */
  signal?: AbortSignal;
  /** What every scorer run gets for its steps (judge models, caps; src/kit/scorer-services.ts). */
  services?: ScorerServices;
  /** Retries after transient failures (config `retries`): without, a failure is always final. */
  retries?: RetryPolicy;
  /**
   * Judge budgets and cost (src/engine/budget/judge-spend.ts): a binding whose `runs` budget is exhausted
   * is not run, and one whose judge call a budget refused is recorded as skipped, not failed; both
   * become `budget_exhausted` decisions.
   */
  spend?: JudgeSpend;
  /**
   * Scoring a thread version (src/engine/threads/score-thread-close.ts) rather than the run of `facts` (its
   * last turn): the scorer gets `input`, the whole conversation, and the record the thread block.
   */
  thread?: { input: Record<string, unknown>; version: ThreadVersion };
  /** Whether a run whose propagated trace is not sampled is scored (`ignore`, default) or skipped (`follow`). */
  traceSampling?: TraceSamplingPolicy;
  /**
   * Where the score of a scorer that started no span of its own shows on the trace: on the run's
   * shared `score run` span (`run-span`, the default), or only as its evaluation log record
   * (`log-records`: SCORESTREAM_EVALUATION_LOGS=instead-of-spans; its record has no `trace.spanId`).
   */
  codeScores?: CodeScoresTelemetry;
  /** The run's way in, as the transport measured it (arrival-latency.ts); each record adds its scorer's wait to start, and its own run. */
  wayIn?: WayIn;
  /** The batch tier (`judge.batch`): a binding whose judge mode is 'batch' runs with its services, and a judge call without an answer defers the pair to it. */
  batchJudge?: BatchJudge;
  /** A pair back from the batch tier (score-retry.ts): what its batches answered, and which of those an earlier round counted. */
  batchAnswers?: { readonly answers: readonly KeyedBatchAnswer[]; readonly counted: ReadonlySet<string> };
};

export type CodeScoresTelemetry = 'run-span' | 'log-records';

/** Why a binding was not scored: what its eligibility said, the budget that refused it, or the escalation that did not call for it. */
export type Skip = Pick<Extract<Eligibility, { eligible: false }>, 'reason' | 'detail' | 'sampling'> & { budget?: BudgetRefusal; escalation?: Escalation };

/** An eligible binding, run: its score record, or the budget skip when a budget refused one of its judge calls. */
export type BindingResult =
  | { kind: 'scored'; record: ScoreRecord }
  | { kind: 'budget_skipped'; skip: Skip }
  /** A batch-mode binding's judge call had no answer yet: the pair waits on the batch tier for `requests` (`record`: the attempt's failed record, its final should the wait not be writable). */
  | { kind: 'batch_deferred'; record: FailedScoreRecord; requests: readonly BatchRequest[]; liveAnswers: readonly KeyedBatchAnswer[] };

const defaultTracer = () => trace.getTracer('scorestream');

function recordTrace(facts: RunFacts, span: Span | undefined): RecordTrace | undefined {
  const spanContext = span?.spanContext();
  const own = span?.isRecording() === true && spanContext !== undefined ? spanContext : undefined;
  const traceId = facts.trace.traceId ?? own?.traceId;
  if (traceId === undefined) return undefined;
  return {
    traceId,
    ...(facts.trace.spanId === undefined ? {} : { parentSpanId: facts.trace.spanId }),
    ...(own === undefined ? {} : { spanId: own.spanId }),
    // The trace was not sampled: a dashboard's link leads to a trace without this run's spans.
    ...(facts.trace.sampled === false ? { sampled: false } : {}),
  };
}

export function budgetSkip(refusal: BudgetRefusal): Skip {
  return { reason: 'budget_exhausted', detail: describeRefusal(refusal), budget: refusal };
}

/** A skipped binding's outcome: its decision record. */
export function skippedOutcome(facts: RunFacts, binding: Pick<ResolvedBinding<unknown>, 'scorerId' | 'version'>, skip: Skip, decidedAt: string): ScoringOutcome {
  const pair = { runId: facts.event.runId, event: facts.event, scorerId: binding.scorerId, scorerVersion: binding.version, trace: recordTrace(facts, undefined), source: facts.source };
  const decision = buildDecisionRecord(
    pair,
    {
      decision: 'skipped',
      reason: skip.reason,
      ...(skip.detail === undefined ? {} : { detail: skip.detail }),
      ...(skip.sampling === undefined ? {} : { sampling: skip.sampling }),
      ...(skip.budget === undefined ? {} : { budget: { name: skip.budget.name, window: skip.budget.window } }),
      ...(skip.escalation === undefined ? {} : { escalation: skip.escalation }),
    },
    decidedAt,
  );
  return { kind: 'skipped', decision };
}

/**
 * One eligible binding scored: its record, or the budget skip when a budget refused one of its
 * judge calls (`spend`; the gate's refusal). The scorer runs under a deferred `score {scorerId}`
 * span that starts only if something in its run needs it (a judge call, a prompt step, its own
 * spans or logs); otherwise its score goes on `shared`, the run's `score run` span, or (option
 * `codeScores: 'log-records'`) on no span. Also the retry of a deferred pair
 * (src/engine/pipeline/score-retry.ts), a re-score and a thread close, each a run of one binding.
 */
export async function scoreWithBinding<Event>(facts: RunFacts, binding: ResolvedBinding<Event>, eligibility: Extract<Eligibility, { eligible: true }>, options: ScoreRunEventOptions<Event>, shared?: RunScoresSpan): Promise<BindingResult> {
  // A binding scored on its own (a retry, a re-score, a thread close) has a shared span of its own.
  const own = shared === undefined && scoreSpansRecord(options.tracer) ? runScoresSpanFor(facts, spanPlace(options), 1) : undefined;
  try {
    return await scoreInDeferredSpan(facts, binding, eligibility, options, shared ?? own);
  } finally {
    own?.settle();
  }
}

function spanPlace<Event>(options: ScoreRunEventOptions<Event>): ScoreSpanPlace {
  return { tracer: options.tracer ?? defaultTracer(), parent: options.parentContext ?? ROOT_CONTEXT, links: options.links, thread: options.thread?.version };
}

/** The scorer's own `score {scorerId}` span, started only if its run needs one (DeferredSpan). */
function deferredScoreSpan(facts: RunFacts, binding: Pick<ResolvedBinding<unknown>, 'scorerId' | 'version'>, eligibility: Extract<Eligibility, { eligible: true }>, place: ScoreSpanPlace, startTime: number): DeferredSpan {
  return new DeferredSpan(() => {
    const spanOptions = { kind: SpanKind.INTERNAL, attributes: scoreSpanAttributes(facts, binding, eligibility, place.thread), startTime, ...(place.links === undefined ? {} : { links: place.links }) };
    return place.tracer.startSpan(`score ${binding.scorerId}`, spanOptions, place.parent);
  }, trace.getSpanContext(place.parent));
}

const servicesOfGate = new WeakMap<RunJudgeGate, { base: ScorerServices | undefined; services: ScorerServices }>();

/** The run's services with its gate: judge calls and — a classifier's — decision-model calls through it (the service's cap inside); made once per gate, as a gate without budgets serves every run. */
function gatedServices(gate: RunJudgeGate, base: ScorerServices | undefined, shared: boolean): ScorerServices {
  const known = shared ? servicesOfGate.get(gate) : undefined;
  if (known !== undefined && known.base === base) return known.services;
  const services = { ...base, judgeCalls: gate, limitDecisionCall: gateDecisionCalls(gate, base?.limitDecisionCall) };
  if (shared) servicesOfGate.set(gate, { base, services });
  return services;
}

/** `shared` undefined: no tracer records (no SDK), and no span of any kind is built for the binding. */
async function scoreInDeferredSpan<Event>(facts: RunFacts, binding: ResolvedBinding<Event>, eligibility: Extract<Eligibility, { eligible: true }>, options: ScoreRunEventOptions<Event>, shared: RunScoresSpan | undefined): Promise<BindingResult> {
  const now = options.now ?? Date.now;
  const started = now();
  // Span times on the SDK's own clock: the injected clock is the records'.
  const spanStarted = spanClock();
  const parent = options.parentContext ?? ROOT_CONTEXT;
  const span = shared === undefined ? undefined : deferredScoreSpan(facts, binding, eligibility, spanPlace(options), spanStarted);
  const input = options.thread?.input ?? buildScorerInput(facts);
  // Every binding's judge calls are priced and counted under its scope (the spend metrics), and held to the budgets.
  const gate = options.spend?.runGate(binding.scorerId, binding.version, facts.event.metadata?.tenantId);
  const gated = gate === undefined ? options.services : gatedServices(gate, options.services, options.spend?.ledger === undefined);
  const batch = binding.judge?.mode === 'batch' ? options.batchJudge?.attempt(options.batchAnswers?.answers ?? [], options.batchAnswers?.counted ?? new Set(), gated?.judgeCalls, binding.judge) : undefined;
  const services = batch === undefined ? gated : { ...gated, ...batch.services };
  const scorerContext = span === undefined ? parent : trace.setSpan(parent, span);
  const outcome = await otelContext.with(scorerContext, () => runScorerToOutcome(binding.scorer, input, { timeoutMs: binding.timeoutMs, signal: options.signal, services }));
  const finished = now();
  span?.seal();
  const own = span?.started;
  // A judge call refused by a budget: the pair is skipped for budget (a replay can score it later), not failed.
  if (gate?.refusal !== undefined && outcome.status === 'failed') {
    if (own?.isRecording() === true) own.setAttribute('scorestream.skip.reason', 'budget_exhausted');
    own?.end();
    return { kind: 'budget_skipped', skip: budgetSkip(gate.refusal) };
  }
  const deferredRequests = batch?.deferred() ?? [];
  if (deferredRequests.length > 0 && outcome.status === 'failed') own?.setAttribute('scorestream.deferred.reason', 'deferred_batch');
  const withExplanation = options.services?.recordInputs === true;
  const onShared = own === undefined && options.codeScores !== 'log-records' ? shared : undefined;
  // Read before end(): an ended span reports isRecording() false, and its id would be lost.
  const traceFields = recordTrace(facts, own ?? onShared?.open(spanStarted));
  if (own !== undefined) endSpan(own, outcome, binding.scorerId, withExplanation);
  const scorerName = binding.scorer.name;
  const record = buildScoreRecord({
    scorerId: binding.scorerId,
    scorerName: scorerName === binding.scorerId ? undefined : scorerName,
    scorerVersion: binding.version,
    pass: binding.pass,
    facts,
    outcome,
    trace: traceFields,
    sampling: eligibility.sampling,
    escalation: eligibility.escalation,
    scoredAt: isoTime(finished),
    durationMs: Math.max(0, Math.round(finished - started)),
    thread: options.thread?.version,
    latencyBefore: latencyBeforeScoring(options.wayIn, started),
  });
  if (deferredRequests.length > 0 && record.status === 'failed') return { kind: 'batch_deferred', record, requests: deferredRequests, liveAnswers: (await batch?.liveAnswers()) ?? [] };
  onShared?.add({ scorerId: binding.scorerId, scorerVersion: binding.version, scoreId: record.scoreId, outcome, finishedMs: spanClock(), withExplanation, sampling: eligibility.sampling });
  return { kind: 'scored', record };
}

/**
 * One promise per binding, in binding order; each settles with that binding's outcome as soon as it
 * is done, and never rejects. A binding with `escalate` waits for the outcomes of the scorers it
 * reads (src/engine/escalation/); the others start at once.
 */
export function scoreRunEvent<Event>(facts: RunFacts, options: ScoreRunEventOptions<Event>): Promise<ScoringOutcome>[] {
  const now = options.now ?? Date.now;
  const decidedAt = () => isoTime(now());
  const { bindings } = options;
  const shared = scoreSpansRecord(options.tracer) ? runScoresSpanFor(facts, spanPlace(options), bindings.length) : undefined;
  const dependencies = escalationDependencies(bindings);
  const outcomes: Promise<ScoringOutcome>[] = new Array(bindings.length);
  // Made in dependency order (the config refused cycles), so a binding's dependencies' promises exist when it needs them.
  const outcomeOf = (index: number): Promise<ScoringOutcome> => (outcomes[index] ??= scoreOneBinding(index));
  const scoreOneBinding = async (index: number): Promise<ScoringOutcome> => {
    const binding = bindings[index]!;
    const earlier = dependencies[index]!.map(outcomeOf);
    try {
      let eligibility = await decideEligibility(binding, facts, options.traceSampling);
      if (!eligibility.eligible) return skippedOutcome(facts, binding, eligibility, decidedAt());
      if (binding.escalate !== undefined) {
        const read = new Map((await Promise.all(earlier)).map((outcome, at) => [bindings[dependencies[index]![at]!]!.scorerId, outcome]));
        const decided = decideEscalation(binding.scorerId, binding.escalate, read, facts);
        if (!decided.run) return skippedOutcome(facts, binding, { reason: 'not_escalated', detail: decided.detail, escalation: decided.escalation }, decidedAt());
        eligibility = { ...eligibility, escalation: decided.escalation };
      }
      // An escalated pair a budget refuses still says which tier sent it (and is counted by it).
      const tier = eligibility.escalation === undefined ? {} : { escalation: eligibility.escalation };
      const refusal = options.spend?.admitRun(binding.scorerId, facts.event.metadata?.tenantId);
      if (refusal !== undefined) return skippedOutcome(facts, binding, { ...budgetSkip(refusal), ...tier }, decidedAt());
      const result = await scoreInDeferredSpan(facts, binding, eligibility, options, shared);
      if (result.kind === 'budget_skipped') return skippedOutcome(facts, binding, { ...result.skip, ...tier }, decidedAt());
      if (result.kind === 'batch_deferred') return batchOutcome(result, facts, noHistory, undefined, now());
      return pairOutcome(result.record, facts, noHistory, options.retries, now());
    } finally {
      shared?.settle();
    }
  };
  return bindings.map((_, index) => outcomeOf(index));
}

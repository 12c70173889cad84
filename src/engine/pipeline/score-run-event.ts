// Event → outcomes: for one validated run event, decides every scorer binding's eligibility, runs
// the eligible scorers concurrently and returns one promise per binding that settles with its
// outcome as soon as that binding is done (src/engine/pipeline/scoring-outcome.ts): a record, a skip
// with its decision, or a deferral to the retry tiers. Transport-free: the consumer publishes what
// comes back, and nothing here calls back up.
// The span contract (docs/observability.md): a scorer whose run starts a span — a judge call, a
// prompt step, its own tracing — gets its `score {scorerId}` span under the agent run's span, the
// parent of those; the scores of the others (code scorers) share the run's one `score run` span
// (run-scores-span.ts), or leave only as evaluation log records when so configured.
import { context as otelContext, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Link, Span, Tracer } from '@opentelemetry/api';
import type { BudgetRefusal } from '../budget/budget-ledger.ts';
import { gateDecisionCalls } from '../budget/judge-spend.ts';
import type { JudgeSpend } from '../budget/judge-spend.ts';
import type { RecordTrace } from '../../kit/contracts/common.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { ThreadVersion } from '../../kit/contracts/thread-ref.ts';
import type { TraceSamplingPolicy } from '../config/config-types.ts';
import type { ResolvedBinding } from '../config/resolve-config.ts';
import type { ScorerServices } from '../../kit/scorer-services.ts';
import { describeRefusal } from '../budget/budget-exhausted-error.ts';
import { buildDecisionRecord } from './build-decision-record.ts';
import { buildScoreRecord } from './build-score-record.ts';
import { decideEligibility } from './decide-eligibility.ts';
import { addEvaluationEvent } from './evaluation-event.ts';
import { RunScoresSpan } from './run-scores-span.ts';
import { DeferredSpan } from '../../kit/scorer/deferred-span.ts';
import type { Eligibility } from './decide-eligibility.ts';
import { noHistory, pairOutcome } from './pair-outcome.ts';
import type { RetryPolicy } from './retry-plan.ts';
import type { RunFacts } from './run-facts.ts';
import { buildScorerInput } from './scorer-input.ts';
import { runScorerToOutcome } from './scorer-outcome.ts';
import type { ScorerOutcome } from './scorer-outcome.ts';
import type { ScoringOutcome } from './scoring-outcome.ts';
import { isoTime } from '../../kit/contracts/iso-time.ts';

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
};

export type CodeScoresTelemetry = 'run-span' | 'log-records';

/** Why a binding was not scored: what its eligibility said, or the budget that refused it. */
export type Skip = Pick<Extract<Eligibility, { eligible: false }>, 'reason' | 'detail' | 'sampling'> & { budget?: BudgetRefusal };

/** An eligible binding, run: its score record, or the budget skip when a budget refused one of its judge calls. */
export type BindingResult = { kind: 'scored'; record: ScoreRecord } | { kind: 'budget_skipped'; skip: Skip };

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
    },
    decidedAt,
  );
  return { kind: 'skipped', decision };
}

/** Judge models and token totals over every prompt step; never prompts or answers. Undefined: no judge was called. */
function judgeAttributes(outcome: ScorerOutcome): Attributes | undefined {
  const result = outcome.status === 'failed' ? outcome.snapshot : outcome.result;
  const judge = result?.judge;
  if (judge === undefined) return undefined;
  const models = new Set<string>();
  let calls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const step of Object.values(judge)) {
    for (const execution of step?.executions ?? []) {
      models.add(execution.judgeModelId);
      calls += execution.modelCallCount;
      inputTokens += execution.usage?.inputTokens ?? 0;
      outputTokens += execution.usage?.outputTokens ?? 0;
    }
  }
  if (models.size === 0) return undefined;
  return {
    'scorestream.judge.model_id': [...models].join(','),
    'scorestream.judge.calls': calls,
    'scorestream.judge.input_tokens': inputTokens,
    'scorestream.judge.output_tokens': outputTokens,
  };
}

function endSpan(span: Span, outcome: ScorerOutcome, scorerId: string, withExplanation: boolean): void {
  if (!span.isRecording()) {
    span.end();
    return;
  }
  span.setAttribute('scorestream.status', outcome.status);
  // A code scorer calls no judge: no empty attribute object to build, redact and walk per span.
  const judge = judgeAttributes(outcome);
  if (judge !== undefined) span.setAttributes(judge);
  if (outcome.status === 'scored') span.setAttribute('scorestream.score', outcome.score);
  if (outcome.status === 'not_scorable') span.setAttribute('scorestream.not_scorable.step', outcome.notScorable.step);
  if (outcome.status === 'failed') {
    span.setAttribute('scorestream.failed_step', outcome.error.failedStep);
    span.recordException({ name: outcome.error.name, message: outcome.error.message, ...(outcome.error.code === undefined ? {} : { code: outcome.error.code }) });
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.message });
  }
  addEvaluationEvent(span, scorerId, outcome, withExplanation);
  span.end();
}

/** What every score span says of the run it scores: the run id, and a thread score's conversation. */
function runAttributes(facts: RunFacts, thread: ThreadVersion | undefined): Attributes {
  const attributes: Attributes = { 'scorestream.run.id': facts.event.runId };
  if (thread !== undefined) {
    attributes['scorestream.thread.id'] = thread.id;
    attributes['scorestream.thread.version'] = thread.version;
    attributes['scorestream.thread.turns'] = thread.turns;
  }
  return attributes;
}

/** What a scorer's own span carries from its start (attributes, so samplers see them too). */
function scoreSpanAttributes(facts: RunFacts, binding: Pick<ResolvedBinding<unknown>, 'scorerId' | 'version'>, eligibility: Extract<Eligibility, { eligible: true }>, thread: ThreadVersion | undefined): Attributes {
  const attributes = runAttributes(facts, thread);
  attributes['scorestream.scorer.id'] = binding.scorerId;
  if (binding.version !== undefined) attributes['scorestream.scorer.version'] = binding.version;
  if (eligibility.sampling !== undefined) {
    attributes['scorestream.sampling.bucket'] = eligibility.sampling.bucket;
    attributes['scorestream.sampling.rate'] = eligibility.sampling.rate;
  }
  return attributes;
}

/** Epoch milliseconds as the OpenTelemetry SDK reads them (Date.now: its spans given a start time end on it too); the injected clock is the records'. */
const spanClock = Date.now;

/** The run's shared span for the scores of scorers that started none (run-scores-span.ts). */
export function runScoresSpanFor<Event>(facts: RunFacts, options: ScoreRunEventOptions<Event>, bindings: number): RunScoresSpan {
  const tracer = options.tracer ?? defaultTracer();
  const thread = options.thread?.version;
  return new RunScoresSpan((startMs) => {
    const spanOptions = { kind: SpanKind.INTERNAL, attributes: runAttributes(facts, thread), startTime: startMs, ...(options.links === undefined ? {} : { links: options.links }) };
    return tracer.startSpan(thread === undefined ? 'score run' : 'score thread', spanOptions, options.parentContext ?? ROOT_CONTEXT);
  }, bindings);
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
  const runShared = shared ?? runScoresSpanFor(facts, options, 1);
  try {
    return await scoreInDeferredSpan(facts, binding, eligibility, options, runShared);
  } finally {
    if (shared === undefined) runShared.settle();
  }
}

async function scoreInDeferredSpan<Event>(facts: RunFacts, binding: ResolvedBinding<Event>, eligibility: Extract<Eligibility, { eligible: true }>, options: ScoreRunEventOptions<Event>, shared: RunScoresSpan): Promise<BindingResult> {
  const now = options.now ?? Date.now;
  const started = now();
  // Span times on the SDK's own clock: the injected clock is the records'.
  const spanStarted = spanClock();
  const tracer = options.tracer ?? defaultTracer();
  const parent = options.parentContext ?? ROOT_CONTEXT;
  const span = new DeferredSpan(() => {
    const spanOptions = { kind: SpanKind.INTERNAL, attributes: scoreSpanAttributes(facts, binding, eligibility, options.thread?.version), startTime: spanStarted, ...(options.links === undefined ? {} : { links: options.links }) };
    return tracer.startSpan(`score ${binding.scorerId}`, spanOptions, parent);
  }, trace.getSpanContext(parent));
  const input = options.thread?.input ?? buildScorerInput(facts);
  const gate = options.spend?.ledger === undefined ? undefined : options.spend.runGate(binding.scorerId, facts.event.metadata?.tenantId);
  // Classifier scorers' decision-model calls go through the run's gate too (the service's cap inside).
  const services = gate === undefined ? options.services : { ...options.services, judgeCalls: gate, limitDecisionCall: gateDecisionCalls(gate, options.services?.limitDecisionCall) };
  const outcome = await otelContext.with(trace.setSpan(parent, span), () => runScorerToOutcome(binding.scorer, input, { timeoutMs: binding.timeoutMs, signal: options.signal, services }));
  const finished = now();
  span.seal();
  const own = span.started;
  // A judge call refused by a budget: the pair is skipped for budget (a replay can score it later), not failed.
  if (gate?.refusal !== undefined && outcome.status === 'failed') {
    if (own?.isRecording() === true) own.setAttribute('scorestream.skip.reason', 'budget_exhausted');
    own?.end();
    return { kind: 'budget_skipped', skip: budgetSkip(gate.refusal) };
  }
  const withExplanation = options.services?.recordInputs === true;
  const onShared = own === undefined && options.codeScores !== 'log-records';
  // Read before end(): an ended span reports isRecording() false, and its id would be lost.
  const traceFields = recordTrace(facts, own ?? (onShared ? shared.open(spanStarted) : undefined));
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
    scoredAt: isoTime(finished),
    durationMs: Math.max(0, Math.round(finished - started)),
    thread: options.thread?.version,
  });
  if (onShared) shared.add({ scorerId: binding.scorerId, scorerVersion: binding.version, scoreId: record.scoreId, outcome, finishedMs: spanClock(), withExplanation, sampling: eligibility.sampling });
  return { kind: 'scored', record };
}

/** One promise per binding, in binding order; each settles with that binding's outcome as soon as it is done, and never rejects. */
export function scoreRunEvent<Event>(facts: RunFacts, options: ScoreRunEventOptions<Event>): Promise<ScoringOutcome>[] {
  const now = options.now ?? Date.now;
  const decidedAt = () => isoTime(now());
  const shared = runScoresSpanFor(facts, options, options.bindings.length);
  const outcomeOf = async (binding: ResolvedBinding<Event>): Promise<ScoringOutcome> => {
    const eligibility = await decideEligibility(binding, facts, options.traceSampling);
    if (!eligibility.eligible) return skippedOutcome(facts, binding, eligibility, decidedAt());
    const refusal = options.spend?.admitRun(binding.scorerId, facts.event.metadata?.tenantId);
    if (refusal !== undefined) return skippedOutcome(facts, binding, budgetSkip(refusal), decidedAt());
    const result = await scoreWithBinding(facts, binding, eligibility, options, shared);
    if (result.kind === 'budget_skipped') return skippedOutcome(facts, binding, result.skip, decidedAt());
    return pairOutcome(result.record, facts, noHistory, options.retries, now());
  };
  return options.bindings.map(async (binding) => {
    try {
      return await outcomeOf(binding);
    } finally {
      shared.settle();
    }
  });
}

// Event → records: for one validated run event, decides every scorer binding's eligibility,
// runs the eligible scorers concurrently, each inside its own `score {scorerId}` span whose
// parent is the agent run's span, and returns one ScoreRecord per eligible binding plus one
// DecisionRecord per skipped binding. Transport-free: the consumer publishes what it returns.
import { context as otelContext, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Link, Span, Tracer } from '@opentelemetry/api';
import type { BudgetRefusal } from '../budget/budget-ledger.ts';
import { gateDecisionCalls } from '../budget/judge-spend.ts';
import type { JudgeSpend } from '../budget/judge-spend.ts';
import type { RecordTrace } from '../contracts/common.ts';
import type { DecisionRecord } from '../contracts/decision-record.ts';
import type { JudgeResults } from '../contracts/judge-execution.ts';
import type { ScoreRecord } from '../contracts/score-record.ts';
import type { ThreadVersion } from '../contracts/thread-ref.ts';
import type { ResolvedBinding } from '../config/resolve-config.ts';
import type { ScorerServices } from '../scorer-services.ts';
import { describeRefusal } from '../budget/budget-exhausted-error.ts';
import { buildScoreRecord } from './build-score-record.ts';
import { decideEligibility } from './decide-eligibility.ts';
import { addEvaluationEvent } from './evaluation-event.ts';
import type { Eligibility } from './decide-eligibility.ts';
import type { RunFacts } from './run-facts.ts';
import { buildScorerInput } from './scorer-input.ts';
import { runScorerToOutcome } from './scorer-outcome.ts';
import type { ScorerOutcome } from './scorer-outcome.ts';

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
  /** What every scorer run gets for its steps (judge models, caps; src/scorer-services.ts). */
  services?: ScorerServices;
  /**
   * Called with each record as soon as its scorer finished (fast scorers need not wait for a slow
   * judge before their record goes out); the returned promise is awaited before this resolves.
   */
  onRecord?: (record: ScoreRecord) => Promise<void>;
  /**
   * Judge budgets and cost (src/budget/judge-spend.ts): a binding whose `runs` budget is exhausted
   * is not run, and one whose judge call a budget refused is recorded as skipped, not failed; both
   * become `budget_exhausted` decisions.
   */
  spend?: JudgeSpend;
  /**
   * Scoring a thread version (src/threads/score-thread-close.ts) rather than the run of `facts` (its
   * last turn): the scorer gets `input`, the whole conversation, and the record the thread block.
   */
  thread?: { input: Record<string, unknown>; version: ThreadVersion };
};

export type EventScoring = { records: ScoreRecord[]; decisions: DecisionRecord[] };

/** Why a binding was not scored: what its eligibility said, or the budget that refused it. */
type Skip = Pick<Extract<Eligibility, { eligible: false }>, 'reason' | 'detail' | 'sampling'> & { budget?: BudgetRefusal };

const defaultTracer = () => trace.getTracer('scorestream');
const internalSpan = { kind: SpanKind.INTERNAL };

function recordTrace(facts: RunFacts, span: Span | undefined): RecordTrace | undefined {
  const spanContext = span?.spanContext();
  const own = span?.isRecording() === true && spanContext !== undefined ? spanContext : undefined;
  const traceId = facts.trace.traceId ?? own?.traceId;
  if (traceId === undefined) return undefined;
  return {
    traceId,
    ...(facts.trace.spanId === undefined ? {} : { parentSpanId: facts.trace.spanId }),
    ...(own === undefined ? {} : { spanId: own.spanId }),
  };
}

function budgetSkip(refusal: BudgetRefusal): Skip {
  return { reason: 'budget_exhausted', detail: describeRefusal(refusal), budget: refusal };
}

function decisionRecord(facts: RunFacts, binding: ResolvedBinding<unknown>, eligibility: Skip, decidedAt: string): DecisionRecord {
  const traceFields = recordTrace(facts, undefined);
  return {
    schemaVersion: 1,
    runId: facts.event.runId,
    scorerId: binding.scorerId,
    ...(binding.version === undefined ? {} : { scorerVersion: binding.version }),
    decision: 'skipped',
    reason: eligibility.reason,
    ...(eligibility.detail === undefined ? {} : { detail: eligibility.detail }),
    ...(eligibility.sampling === undefined ? {} : { sampling: eligibility.sampling }),
    ...(eligibility.budget === undefined ? {} : { budget: { name: eligibility.budget.name, window: eligibility.budget.window } }),
    ...(traceFields === undefined ? {} : { trace: traceFields }),
    source: facts.source,
    decidedAt,
  };
}

/** Judge models and token totals over every prompt step; never prompts or answers. */
function judgeAttributes(outcome: ScorerOutcome): Attributes {
  const result = outcome.status === 'failed' ? outcome.snapshot : outcome.result;
  const judge = result?.judge as JudgeResults | undefined;
  if (judge === undefined || judge === null || typeof judge !== 'object') return {};
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
  if (models.size === 0) return {};
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
  span.setAttributes(judgeAttributes(outcome));
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

/**
 * One eligible binding scored in its own `score {scorerId}` span; also the retry of a deferred pair
 * (consumers/process-retry-message.ts), which passes no `spend`: budgets are decided once, at a
 * pair's first attempt, so without `spend` the result is always a record.
 */
export function scoreWithBinding<Event>(facts: RunFacts, binding: ResolvedBinding<Event>, eligibility: Extract<Eligibility, { eligible: true }>, options: ScoreRunEventOptions<Event> & { spend?: undefined }): Promise<ScoreRecord>;
export function scoreWithBinding<Event>(facts: RunFacts, binding: ResolvedBinding<Event>, eligibility: Extract<Eligibility, { eligible: true }>, options: ScoreRunEventOptions<Event>): Promise<ScoreRecord | Skip>;
export async function scoreWithBinding<Event>(facts: RunFacts, binding: ResolvedBinding<Event>, eligibility: Extract<Eligibility, { eligible: true }>, options: ScoreRunEventOptions<Event>): Promise<ScoreRecord | Skip> {
  const now = options.now ?? Date.now;
  const tracer = options.tracer ?? defaultTracer();
  const parent = options.parentContext ?? ROOT_CONTEXT;
  const span = tracer.startSpan(`score ${binding.scorerId}`, options.links === undefined ? internalSpan : { kind: SpanKind.INTERNAL, links: options.links }, parent);
  // Attributes only for a span that records: with tracing off this runs for every scorer of every
  // event, and the objects would be garbage at once. (Samplers therefore see no attributes.)
  if (span.isRecording()) {
    span.setAttribute('scorestream.scorer.id', binding.scorerId);
    if (binding.version !== undefined) span.setAttribute('scorestream.scorer.version', binding.version);
    span.setAttribute('scorestream.run.id', facts.event.runId);
    if (options.thread !== undefined) {
      span.setAttribute('scorestream.thread.id', options.thread.version.id);
      span.setAttribute('scorestream.thread.version', options.thread.version.version);
      span.setAttribute('scorestream.thread.turns', options.thread.version.turns);
    }
    if (eligibility.sampling !== undefined) {
      span.setAttribute('scorestream.sampling.bucket', eligibility.sampling.bucket);
      span.setAttribute('scorestream.sampling.rate', eligibility.sampling.rate);
    }
  }
  const started = now();
  const input = options.thread?.input ?? buildScorerInput(facts);
  const gate = options.spend?.ledger === undefined ? undefined : options.spend.runGate(binding.scorerId, facts.event.metadata?.tenantId);
  // Classifier scorers' decision-model calls go through the run's gate too (the service's cap inside).
  const services = gate === undefined ? options.services : { ...options.services, judgeCalls: gate, limitDecisionCall: gateDecisionCalls(gate, options.services?.limitDecisionCall) };
  const outcome = await otelContext.with(trace.setSpan(parent, span), () =>
    runScorerToOutcome(binding.scorer, input, { timeoutMs: binding.timeoutMs, signal: options.signal, services }),
  );
  const finished = now();
  // A judge call refused by a budget: the pair is skipped for budget (a replay can score it later), not failed.
  if (gate?.refusal !== undefined && outcome.status === 'failed') {
    span.setAttribute('scorestream.skip.reason', 'budget_exhausted');
    span.end();
    return budgetSkip(gate.refusal);
  }
  // Read before end(): an ended span reports isRecording() false, and its id would be lost.
  const traceFields = recordTrace(facts, span);
  endSpan(span, outcome, binding.scorerId, options.services?.recordInputs === true);
  const scorerName = binding.scorer.name;
  return buildScoreRecord({
    scorerId: binding.scorerId,
    scorerName: scorerName === binding.scorerId ? undefined : scorerName,
    scorerVersion: binding.version,
    facts,
    outcome,
    trace: traceFields,
    sampling: eligibility.sampling,
    scoredAt: new Date(finished).toISOString(),
    durationMs: Math.max(0, Math.round(finished - started)),
    thread: options.thread?.version,
  });
}

export async function scoreRunEvent<Event>(facts: RunFacts, options: ScoreRunEventOptions<Event>): Promise<EventScoring> {
  const now = options.now ?? Date.now;
  const eligibilities = await Promise.all(options.bindings.map((binding) => decideEligibility(binding, facts)));
  const decisions: DecisionRecord[] = [];
  const scoring: Promise<ScoreRecord | undefined>[] = [];
  const skips: (Skip | undefined)[] = eligibilities.map((eligibility) => (eligibility.eligible ? undefined : eligibility));
  eligibilities.forEach((eligibility, index) => {
    const binding = options.bindings[index]!;
    if (!eligibility.eligible) return;
    const refusal = options.spend?.admitRun(binding.scorerId, facts.event.metadata?.tenantId);
    if (refusal !== undefined) {
      skips[index] = budgetSkip(refusal);
      return;
    }
    const onRecord = options.onRecord;
    scoring.push(
      scoreWithBinding(facts, binding, eligibility, options).then(async (result) => {
        if (!('schemaVersion' in result)) {
          skips[index] = result;
          return undefined;
        }
        if (onRecord !== undefined) await onRecord(result);
        return result;
      }),
    );
  });
  const records = (await Promise.all(scoring)).filter((record) => record !== undefined);
  skips.forEach((skip, index) => {
    if (skip !== undefined) decisions.push(decisionRecord(facts, options.bindings[index] as ResolvedBinding<unknown>, skip, new Date(now()).toISOString()));
  });
  return { records, decisions };
}

// The score spans of the span contract (docs/observability.md, traces): a scorer's own
// `score {scorerId}` span — what it carries from its start and at its end — and the run's shared
// `score run` span for the scores of scorers that started none; and whether any tracer records at
// all, so that with tracing off none of this is built per event.
import { ProxyTracerProvider, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Link, Span, Tracer } from '@opentelemetry/api';
import type { ThreadVersion } from '../../kit/contracts/thread-ref.ts';
import type { ResolvedBinding } from '../config/resolve-config.ts';
import type { Eligibility } from './decide-eligibility.ts';
import { addEvaluationEvent } from './evaluation-event.ts';
import type { RunFacts } from './run-facts.ts';
import { RunScoresSpan } from './run-scores-span.ts';
import type { ScorerOutcome } from './scorer-outcome.ts';

/** The API's no-op provider: what the global proxy delegates to while no SDK registered one. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Whether score spans can record: a tracer was given (tests, the service's own), or an SDK
 * registered a tracer provider. (A provider from another copy of the API counts as registered.)
 */
export function scoreSpansRecord(tracer: Tracer | undefined): boolean {
  if (tracer !== undefined) return true;
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_TRACER_PROVIDER;
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

export function endSpan(span: Span, outcome: ScorerOutcome, scorerId: string, withExplanation: boolean): void {
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
export function scoreSpanAttributes(facts: RunFacts, binding: Pick<ResolvedBinding<unknown>, 'scorerId' | 'version'>, eligibility: Extract<Eligibility, { eligible: true }>, thread: ThreadVersion | undefined): Attributes {
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
export const spanClock = Date.now;

/** Where the score spans of a run go: the tracer, the agent run's context, the links, the thread scored. */
export type ScoreSpanPlace = { tracer: Tracer; parent: Context; links: Link[] | undefined; thread: ThreadVersion | undefined };

/** The run's shared span for the scores of scorers that started none (run-scores-span.ts). */
export function runScoresSpanFor(facts: RunFacts, place: ScoreSpanPlace, bindings: number): RunScoresSpan {
  const { tracer, thread, links } = place;
  return new RunScoresSpan((startMs) => {
    const spanOptions = { kind: SpanKind.INTERNAL, attributes: runAttributes(facts, thread), startTime: startMs, ...(links === undefined ? {} : { links }) };
    return tracer.startSpan(thread === undefined ? 'score run' : 'score thread', spanOptions, place.parent);
  }, bindings);
}

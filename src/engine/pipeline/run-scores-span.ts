// The one span a run's code scorers share (docs/observability.md, the span contract). A scorer
// whose run started no span of its own — it called no judge and traced nothing — puts its
// evaluation here, as a `gen_ai.evaluation.result` event, instead of opening a span for a few
// microseconds of work: one `score run` span per run (`score thread` for a conversation), a child
// of the agent's span, opened by the first such scorer to finish (from the time it started) and ended when
// the run's last binding is done, at the time the last of them finished. A span costs about the
// same whatever it holds, so three code scorers cost one span, not three.
import { SpanStatusCode } from '@opentelemetry/api';
import type { Attributes, Span } from '@opentelemetry/api';
import type { ScorerOutcome } from './scorer-outcome.ts';
import { addEvaluationEvent } from './evaluation-event.ts';

export type SharedEvaluation = {
  scorerId: string;
  scorerVersion?: string | undefined;
  scoreId: string;
  outcome: ScorerOutcome;
  /** When the scorer finished, on the span's clock. */
  finishedMs: number;
  withExplanation: boolean;
  /** The binding's sampling decision, when it has a sampling rule. */
  sampling?: { rate: number; bucket: number } | undefined;
};

export class RunScoresSpan {
  readonly #open: (startMs: number) => Span;
  #span: Span | undefined;
  #pending: number;
  #lastFinishedMs = 0;
  #firstFailure: string | undefined;

  /** `open` starts the span (under the agent's span, at the given time); `bindings` is how many will settle. */
  constructor(open: (startMs: number) => Span, bindings: number) {
    this.#open = open;
    this.#pending = bindings;
  }

  /** Opens the shared span as of `startMs` (when that scorer started) on the first call, and returns it on every call: its id goes into the records of the scores it holds. */
  open(startMs: number): Span {
    this.#span ??= this.#open(startMs);
    return this.#span;
  }

  /** One code scorer's outcome, as an evaluation event (and, when it failed, an exception) on the span. */
  add(evaluation: SharedEvaluation): void {
    const { scorerId, outcome, finishedMs } = evaluation;
    const span = this.open(finishedMs);
    this.#lastFinishedMs = Math.max(this.#lastFinishedMs, finishedMs);
    if (!span.isRecording()) return;
    const provenance: Attributes = { 'scorestream.score_id': evaluation.scoreId };
    if (evaluation.scorerVersion !== undefined) provenance['scorestream.scorer.version'] = evaluation.scorerVersion;
    if (evaluation.sampling !== undefined) {
      provenance['scorestream.sampling.rate'] = evaluation.sampling.rate;
      provenance['scorestream.sampling.bucket'] = evaluation.sampling.bucket;
    }
    addEvaluationEvent(span, scorerId, outcome, evaluation.withExplanation, provenance, finishedMs);
    if (outcome.status === 'failed') {
      const message = `${scorerId} failed in ${outcome.error.failedStep}: ${outcome.error.message}`;
      span.recordException({ name: outcome.error.name, message }, finishedMs);
      this.#firstFailure ??= message;
    }
  }

  /** One binding of the run is done, whatever became of it; the span ends with the last. */
  settle(): void {
    if (this.#pending <= 0) return;
    this.#pending -= 1;
    if (this.#pending > 0 || this.#span === undefined) return;
    const span = this.#span;
    // The scorers it holds are its events' names: no list of them as well, to serialise per run.
    if (this.#firstFailure !== undefined && span.isRecording()) span.setStatus({ code: SpanStatusCode.ERROR, message: this.#firstFailure });
    // No score was added (a record that could not be built): the SDK's own end time.
    span.end(this.#lastFinishedMs > 0 ? this.#lastFinishedMs : undefined);
  }
}

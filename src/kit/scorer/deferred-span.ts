// A span that starts only when something needs it: a scorer's `score {scorerId}` span is put in the
// scorer's context as this stand-in, and becomes a real span (with the start time it would have
// had) the first time anything reads its span context or writes to it — a prompt step's span or a
// judge call starting under it, a log line asking for the active span, the scorer's own code. A
// scorer that touches none of that (a code scorer) never starts one, and tracing pays for no span
// it did not need (docs/observability.md, the span contract).
import { INVALID_SPAN_CONTEXT, trace } from '@opentelemetry/api';
import type { Attributes, AttributeValue, Exception, Link, Span, SpanContext, SpanStatus, TimeInput } from '@opentelemetry/api';

export class DeferredSpan implements Span {
  #span: Span | undefined;
  #sealed = false;
  readonly #start: () => Span;
  readonly #parent: SpanContext | undefined;
  readonly #parentTraceId: string | undefined;

  /** `start` opens the real span; `parent` is the span context it will be a child of, if any. */
  constructor(start: () => Span, parent: SpanContext | undefined) {
    this.#start = start;
    this.#parent = parent;
    this.#parentTraceId = parent !== undefined && trace.isSpanContextValid(parent) ? parent.traceId : undefined;
  }

  /**
   * The scorer's run is over: a span not started by now never starts. Work it left behind (an
   * abandoned run past its deadline, a timer) that uses it later gets a non-recording stand-in for
   * the parent instead — its spans go under the agent's span — rather than a span nobody would end.
   */
  seal(): void {
    this.#sealed = true;
  }

  /** The real span, once something needed it; undefined while nothing did. */
  get started(): Span | undefined {
    return this.#span;
  }

  /**
   * The trace the span is (or will be) in, without starting it: a child always shares its
   * parent's trace. Undefined for a span with no parent that has not started (its trace id would
   * be a new one, made only when it starts).
   */
  knownTraceId(): string | undefined {
    if (this.#span === undefined) return this.#parentTraceId;
    const spanContext = this.#span.spanContext();
    return trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
  }

  #real(): Span {
    if (this.#span !== undefined) return this.#span;
    if (this.#sealed) return trace.wrapSpanContext(this.#parent ?? INVALID_SPAN_CONTEXT);
    this.#span = this.#start();
    return this.#span;
  }

  spanContext(): SpanContext {
    return this.#real().spanContext();
  }

  setAttribute(key: string, value: AttributeValue): this {
    this.#real().setAttribute(key, value);
    return this;
  }

  setAttributes(attributes: Attributes): this {
    this.#real().setAttributes(attributes);
    return this;
  }

  addEvent(name: string, attributesOrStartTime?: Attributes | TimeInput, startTime?: TimeInput): this {
    this.#real().addEvent(name, attributesOrStartTime, startTime);
    return this;
  }

  addLink(link: Link): this {
    this.#real().addLink(link);
    return this;
  }

  addLinks(links: Link[]): this {
    this.#real().addLinks(links);
    return this;
  }

  setStatus(status: SpanStatus): this {
    this.#real().setStatus(status);
    return this;
  }

  updateName(name: string): this {
    this.#real().updateName(name);
    return this;
  }

  /** Asking whether it records is a use too: whoever asks is about to record into it. */
  isRecording(): boolean {
    return this.#real().isRecording();
  }

  recordException(exception: Exception, time?: TimeInput): void {
    this.#real().recordException(exception, time);
  }

  /** Ends the real span; a span that never started has nothing to end. */
  end(endTime?: TimeInput): void {
    this.#span?.end(endTime);
  }
}

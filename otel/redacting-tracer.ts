// Redaction for spans (docs/data-handling.md): a tracer provider whose spans pass every string
// they are given — attributes, event and link attributes, exception messages and stacks, status
// messages, names — through the deployment's redactor before the SDK stores it, so no exporter
// ever sees what the redactor removes. It wraps the process's tracer provider once, so it covers
// every span of the process: the service's own, the AI SDK's judge spans, a custom scorer's.
// Non-recording spans are handed out as they are: they store nothing, and cost nothing more.
import { context as otelContext, trace } from '@opentelemetry/api';
import type { Attributes, AttributeValue, Context, Exception, Link, Span, SpanContext, SpanOptions, SpanStatus, TimeInput, Tracer, TracerProvider } from '@opentelemetry/api';

export type TextRedactor = (text: string) => string;

/**
 * The service's own attributes that are ids, kept as they are, as records keep theirs
 * (docs/data-handling.md): an OTLP run id is hex, and about one in ten holds a digit run that
 * passes the card-number pattern's Luhn check.
 */
const ID_ATTRIBUTES = new Set([
  'scorestream.run.id',
  'scorestream.scorer.id',
  'scorestream.scorer.version',
  'scorestream.thread.id',
  'scorestream.classifier.id',
  'scorestream.judge.model_id',
  // An evaluation event's: the scorer id under the GenAI name, and the record's hex score id.
  'gen_ai.evaluation.name',
  'scorestream.score_id',
]);

function redactAttributeValue(key: string, value: AttributeValue | undefined, redact: TextRedactor): AttributeValue | undefined {
  if (typeof value === 'string') return ID_ATTRIBUTES.has(key) ? value : redact(value);
  if (Array.isArray(value)) return value.map((item: unknown) => (typeof item === 'string' ? redact(item) : item)) as AttributeValue;
  return value;
}

/** How a span's strings are redacted: values every time, names and attribute keys through a memo (rememberingRedactor). */
type SpanRedaction = { readonly value: TextRedactor; readonly name: TextRedactor };

function redactAttributes(attributes: Attributes | undefined, redact: SpanRedaction): Attributes | undefined {
  if (attributes === undefined) return undefined;
  const result: Attributes = {};
  for (const key in attributes) result[redact.name(key)] = redactAttributeValue(key, attributes[key], redact.value);
  return result;
}

/** A TimeInput is a number, a Date or an HrTime pair; anything else in that place is attributes. */
const isTimeInput = (value: unknown): value is TimeInput => typeof value === 'number' || value instanceof Date || Array.isArray(value);

class RedactingSpan implements Span {
  readonly #span: Span;
  readonly #redact: SpanRedaction;

  constructor(span: Span, redact: SpanRedaction) {
    this.#span = span;
    this.#redact = redact;
  }

  spanContext(): SpanContext {
    return this.#span.spanContext();
  }

  setAttribute(key: string, value: AttributeValue): this {
    this.#span.setAttribute(this.#redact.name(key), redactAttributeValue(key, value, this.#redact.value)!);
    return this;
  }

  setAttributes(attributes: Attributes): this {
    this.#span.setAttributes(redactAttributes(attributes, this.#redact)!);
    return this;
  }

  addEvent(name: string, attributesOrStartTime?: Attributes | TimeInput, startTime?: TimeInput): this {
    if (attributesOrStartTime === undefined || isTimeInput(attributesOrStartTime)) this.#span.addEvent(this.#redact.name(name), attributesOrStartTime, startTime);
    else this.#span.addEvent(this.#redact.name(name), redactAttributes(attributesOrStartTime, this.#redact), startTime);
    return this;
  }

  addLink(link: Link): this {
    this.#span.addLink({ ...link, ...(link.attributes === undefined ? {} : { attributes: redactAttributes(link.attributes, this.#redact) }) });
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    this.#span.setStatus(status.message === undefined ? status : { ...status, message: this.#redact.value(status.message) });
    return this;
  }

  updateName(name: string): this {
    this.#span.updateName(this.#redact.name(name));
    return this;
  }

  end(endTime?: TimeInput): void {
    this.#span.end(endTime);
  }

  isRecording(): boolean {
    return this.#span.isRecording();
  }

  recordException(exception: Exception, time?: TimeInput): void {
    if (typeof exception === 'string') {
      this.#span.recordException(this.#redact.value(exception), time);
      return;
    }
    const { message, stack } = exception as { message?: unknown; stack?: unknown };
    // A copy with the same name and code: an Error's message and stack are own properties, but not enumerable.
    this.#span.recordException(
      {
        ...(exception.name === undefined ? {} : { name: exception.name }),
        ...(exception.code === undefined ? {} : { code: exception.code }),
        ...(typeof message === 'string' ? { message: this.#redact.value(message) } : {}),
        ...(typeof stack === 'string' ? { stack: this.#redact.value(stack) } : {}),
      } as Exception,
      time,
    );
  }
}

export function redactingTracer(tracer: Tracer, text: TextRedactor, names: TextRedactor = rememberingRedactor(text)): Tracer {
  const redact: SpanRedaction = { value: text, name: names };
  const startSpan = (name: string, options?: SpanOptions, parent?: Context): Span => {
    // Options without attributes (the score spans') go through as they are: nothing to redact, nothing to copy.
    const redactedOptions = options?.attributes === undefined ? options : { ...options, attributes: redactAttributes(options.attributes, redact) };
    const span = tracer.startSpan(redact.name(name), redactedOptions, parent);
    return span.isRecording() ? new RedactingSpan(span, redact) : span;
  };
  return {
    startSpan,
    // As the SDK's tracer does it: the span is started, made active for `fn`, and handed to it.
    startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
      const fn = rest[rest.length - 1] as F;
      const options = rest.length >= 2 ? (rest[0] as SpanOptions | undefined) : undefined;
      const parent = rest.length >= 3 ? ((rest[1] as Context | undefined) ?? otelContext.active()) : otelContext.active();
      const span = startSpan(name, options, parent);
      return otelContext.with(trace.setSpan(parent, span), fn as (span: Span) => ReturnType<F>, undefined, span);
    },
  } as Tracer;
}

/**
 * Attribute keys and span names are the code's own, few and the same on every span: each is
 * redacted once and remembered (up to `limit` of them, each at most 256 characters; the rest redacted every time). A pattern
 * is a function of the text alone, so the remembered answer is the answer.
 */
export function rememberingRedactor(redact: TextRedactor, limit = 2_048): TextRedactor {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    const redacted = redact(text);
    if (seen.size < limit && text.length <= 256) seen.set(text, redacted);
    return redacted;
  };
}

export function redactingTracerProvider(provider: TracerProvider, redact: TextRedactor): TracerProvider {
  const names = rememberingRedactor(redact);
  // One wrapper per tracer the provider hands out: callers that look their tracer up on every run
  // (src/kit/scorer/step-span.ts) would otherwise build a new one each time.
  const wrapped = new WeakMap<Tracer, Tracer>();
  return {
    getTracer: (name, version, options) => {
      const tracer = provider.getTracer(name, version, options);
      let redacting = wrapped.get(tracer);
      if (redacting === undefined) wrapped.set(tracer, (redacting = redactingTracer(tracer, redact, names)));
      return redacting;
    },
  };
}

/**
 * Wraps the tracer provider registered globally (the SDK's, right after it started) so that every
 * span of the process is redacted. Returns false when no provider was registered (nothing to wrap).
 */
export function redactGlobalSpans(redact: TextRedactor): boolean {
  const proxy = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider; setDelegate?: (delegate: TracerProvider) => void };
  if (typeof proxy.getDelegate !== 'function' || typeof proxy.setDelegate !== 'function') return false;
  proxy.setDelegate(redactingTracerProvider(proxy.getDelegate(), redact));
  return true;
}

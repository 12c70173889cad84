// The `classifier {id}` span around one decide() call. It is opened in the active OTel context
// (so inside a scorer it is a child of the analyze step span) and stays active while the model
// is called, so model spans nest under it. It records ids, counts, attempts, duration and
// usage — never the state, the questions' text or the answers, which may hold user data.

import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { ClassifierUsage } from './types.ts';

export const classifierTracerName = 'scorestream.classifier';

export type ClassifierSpanStart = {
  classifierId: string;
  provider: string;
  modelId: string;
  questionCount: number;
  questionTypes: string[];
  maxRetries: number;
};

export type ClassifierSpanEnd = {
  attempts: number;
  durationMs: number;
  responseModelId?: string;
  usage?: ClassifierUsage;
  /** Set when the call failed; `error` is what it threw (possibly undefined). */
  failed?: boolean;
  error?: unknown;
};

export function defaultClassifierTracer(): Tracer {
  return trace.getTracer(classifierTracerName);
}

export function startClassifierSpanAttributes(start: ClassifierSpanStart): Attributes {
  return {
    // Tags the span as scoring machinery, so trace consumers never mistake it for an agent run.
    'scorestream.span.type': 'classifier',
    'scorestream.classifier.id': start.classifierId,
    'scorestream.classifier.question_count': start.questionCount,
    'scorestream.classifier.question_types': start.questionTypes,
    'scorestream.classifier.max_retries': start.maxRetries,
    'gen_ai.provider.name': start.provider,
    'gen_ai.request.model': start.modelId,
  };
}

export function endClassifierSpan(span: Span, end: ClassifierSpanEnd): void {
  span.setAttributes({
    'scorestream.classifier.attempts': end.attempts,
    'scorestream.classifier.duration_ms': Math.round(end.durationMs),
  });
  if (end.responseModelId !== undefined) span.setAttribute('gen_ai.response.model', end.responseModelId);
  if (end.usage !== undefined) {
    if (end.usage.inputTokens !== undefined) span.setAttribute('gen_ai.usage.input_tokens', end.usage.inputTokens);
    if (end.usage.outputTokens !== undefined) span.setAttribute('gen_ai.usage.output_tokens', end.usage.outputTokens);
    span.setAttribute('scorestream.classifier.total_tokens', end.usage.totalTokens);
  }
  if (end.failed) {
    // Only the error's class: provider messages can quote the request or response body.
    const errorType = end.error instanceof Error ? end.error.name : typeof end.error;
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
  }
  span.end();
}

/** What the body learns while it runs; read when the span ends. */
export type ClassifierSpanRecord = { attempts: number; responseModelId?: string; usage?: ClassifierUsage };

/** Runs `body` inside an active `classifier {id}` span and ends the span however the body ends. */
export async function withClassifierSpan<T>(
  tracer: Tracer,
  start: ClassifierSpanStart,
  now: () => number,
  body: (record: ClassifierSpanRecord) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    `classifier ${start.classifierId}`,
    { kind: SpanKind.INTERNAL, attributes: startClassifierSpanAttributes(start) },
    async (span) => {
      const record: ClassifierSpanRecord = { attempts: 0 };
      const startedAt = now();
      try {
        const result = await body(record);
        endClassifierSpan(span, { ...record, durationMs: now() - startedAt });
        return result;
      } catch (error) {
        endClassifierSpan(span, { ...record, durationMs: now() - startedAt, failed: true, error });
        throw error;
      }
    },
  );
}

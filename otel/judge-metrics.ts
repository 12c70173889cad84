// Judge metrics per model: provider calls (each attempt, so the SDK's retries are counted, which
// its single `chat` span hides), errors by type, input/output tokens and call duration. Measured
// by language-model middleware around the provider call, inside the concurrency limiter, so the
// duration is the provider's and not time spent queueing for a slot.
//
// Hooked in by wrapping the model resolver (`instrumentJudgeModels`): every judge model named by a
// string id goes through it; model objects put directly into a scorer's judge config are wrapped
// through the run option `prepareModel`, and classifier scorers' decision-model calls are measured
// one by one (`measureCall`, through the run option `limitDecisionCall`).
import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import { wrapLanguageModel } from 'ai';
import type { LanguageModel, LanguageModelMiddleware } from 'ai';

type ModelObject = Exclude<LanguageModel, string>;
type Resolver = { languageModel(id: string): LanguageModel };

export type JudgeMetrics = {
  /** The same model, measured. Wrapping is cached per model object. */
  instrument(model: ModelObject): ModelObject;
  /** Measures one call to a model that is not a language model (a classifier's decision model). */
  measureCall<T>(model: { provider: string; modelId: string }, call: () => PromiseLike<T>): Promise<T>;
  /** One call's wait for a judge slot (the per-model cap), 0 when a slot was free. */
  recordSlotWait(model: { provider: string; modelId: string }, waitedMs: number): void;
};

type Instruments = { calls: Counter; errors: Counter; tokens: Counter; duration: Histogram; slotWait: Histogram };

function createInstruments(meter: Meter): Instruments {
  return {
    calls: meter.createCounter('scorestream.judge.calls', { description: 'Judge model calls (every attempt, retries included)', unit: '{call}' }),
    errors: meter.createCounter('scorestream.judge.errors', { description: 'Judge model calls that failed, by error type', unit: '{call}' }),
    tokens: meter.createCounter('scorestream.judge.tokens', { description: 'Tokens used by judge model calls, by type (input, output)', unit: '{token}' }),
    duration: meter.createHistogram('scorestream.judge.duration', {
      description: 'Duration of one judge model call',
      unit: 's',
      advice: { explicitBucketBoundaries: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128] },
    }),
    // Beside the duration: a slow provider shows in `duration`, a full queue (judgeCallsPerModel) here.
    slotWait: meter.createHistogram('scorestream.judge.slot_wait', {
      description: 'Time a judge call waited for a slot of its model (concurrency.judgeCallsPerModel)',
      unit: 's',
      advice: { explicitBucketBoundaries: [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64] },
    }),
  };
}

function errorType(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'AbortError' || error.name === 'TimeoutError') return error.name;
    const status = (error as { statusCode?: unknown }).statusCode;
    return typeof status === 'number' ? `${error.name} ${status}` : error.name;
  }
  return 'unknown';
}

type Usage = { inputTokens?: { total?: number | undefined }; outputTokens?: { total?: number | undefined } } | undefined;

type ModelIdentity = { provider?: unknown; modelId: string };

/** Measures calls to one model: counts, errors, durations and (when the result says) tokens. */
function measurer(instruments: Instruments, model: ModelIdentity, now: () => number) {
  const attributes = {
    'gen_ai.request.model': model.modelId,
    ...(typeof model.provider === 'string' ? { 'gen_ai.provider.name': model.provider } : {}),
  };
  const countUsage = (usage: Usage) => {
    const input = usage?.inputTokens?.total;
    const output = usage?.outputTokens?.total;
    if (typeof input === 'number' && input > 0) instruments.tokens.add(input, { ...attributes, 'gen_ai.token.type': 'input' });
    if (typeof output === 'number' && output > 0) instruments.tokens.add(output, { ...attributes, 'gen_ai.token.type': 'output' });
  };
  const measure = async <T>(call: () => PromiseLike<T>, onResult: (result: T) => void): Promise<T> => {
    const started = now();
    try {
      const result = await call();
      instruments.calls.add(1, { ...attributes, outcome: 'success' });
      instruments.duration.record((now() - started) / 1000, { ...attributes, outcome: 'success' });
      onResult(result);
      return result;
    } catch (error) {
      const type = errorType(error);
      instruments.calls.add(1, { ...attributes, outcome: 'error' });
      instruments.errors.add(1, { ...attributes, 'error.type': type });
      instruments.duration.record((now() - started) / 1000, { ...attributes, outcome: 'error', 'error.type': type });
      throw error;
    }
  };
  return { measure, countUsage };
}

function middleware(instruments: Instruments, model: ModelObject, now: () => number): LanguageModelMiddleware {
  const { measure, countUsage } = measurer(instruments, model, now);
  return {
    wrapGenerate: ({ doGenerate }) => measure(doGenerate, (result) => countUsage(result.usage)),
    // Streams are measured until the stream starts; their usage arrives in the `finish` part.
    wrapStream: ({ doStream }) =>
      measure(doStream, () => undefined).then((result) => ({
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream({
            transform(part, controller) {
              if (part.type === 'finish') countUsage(part.usage);
              controller.enqueue(part);
            },
          }),
        ),
      })),
  };
}

export function createJudgeMetrics(meter: Meter, now: () => number = performance.now.bind(performance)): JudgeMetrics {
  const instruments = createInstruments(meter);
  const wrapped = new WeakMap<object, ModelObject>();
  return {
    instrument(model) {
      const existing = wrapped.get(model);
      if (existing !== undefined) return existing;
      const result = wrapLanguageModel({ model: model as never, middleware: middleware(instruments, model, now) }) as ModelObject;
      wrapped.set(model, result);
      return result;
    },
    recordSlotWait(model, waitedMs) {
      instruments.slotWait.record(waitedMs / 1000, { 'gen_ai.request.model': model.modelId, 'gen_ai.provider.name': model.provider });
    },
    measureCall(model, call) {
      const { measure, countUsage } = measurer(instruments, model, now);
      // Decision models report token counts as plain numbers.
      const total = (value: unknown) => (typeof value === 'number' ? { total: value } : undefined);
      return measure(call, (result) => {
        const usage = (result as { usage?: { inputTokens?: unknown; outputTokens?: unknown } } | undefined)?.usage;
        countUsage(usage === undefined ? undefined : { inputTokens: total(usage.inputTokens), outputTokens: total(usage.outputTokens) });
      });
    },
  };
}

/** A resolver whose models are measured; undefined stays undefined (no resolver configured). */
export function instrumentJudgeModels<R extends Resolver>(resolver: R | undefined, judgeMetrics: JudgeMetrics): Resolver | undefined {
  if (resolver === undefined) return undefined;
  return {
    languageModel(id: string) {
      const model = resolver.languageModel(id);
      return typeof model === 'string' ? model : judgeMetrics.instrument(model);
    },
  };
}

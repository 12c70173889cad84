import { Experimental_DecisionUnsupportedQuestionTypeError } from '@ai-sdk/provider';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { describe, expect, it } from 'vitest';
import { Classifier } from '../../../../../src/kit/classifier/classifier.ts';
import type { ClassifierOptions } from '../../../../../src/kit/classifier/classifier.ts';
import { apiError, decisionResult, goodAnswers, questions, recordingSleep, scriptedDecisionModel } from './fixtures.ts';
import { captureSpans } from './span-capture.ts';

const fixedNow = () => Date.parse('2030-06-01T12:00:00Z');

function classifierWith(steps: Parameters<typeof scriptedDecisionModel>[0], extra: Partial<ClassifierOptions> = {}) {
  const { model, calls } = scriptedDecisionModel(steps);
  const { delays, sleep } = recordingSleep();
  const classifier = new Classifier({ id: 'support-quality', model, questions, retry: { sleep }, now: fixedNow, ...extra });
  return { classifier, calls, delays };
}

describe('Classifier construction', () => {
  const { model } = scriptedDecisionModel([decisionResult()]);

  it.each([[''], ['   '], [undefined], [42]])('rejects the id %j', (id) => {
    expect(() => new Classifier({ id: id as string, model, questions })).toThrow(
      new TypeError('Classifier id must be a non-empty string.'),
    );
  });

  it('rejects an empty questions record', () => {
    expect(() => new Classifier({ id: 'c', model, questions: {} })).toThrow(new TypeError('Questions must be a non-empty object.'));
  });

  it('rejects a score question with fewer than two levels', () => {
    expect(() => new Classifier({ id: 'c', model, questions: { q: { type: 'score', criteria: ['only'] } } })).toThrow(
      new TypeError("Score question 'q' criteria must contain at least two levels."),
    );
  });

  it("rejects a question type the model does not support, with the provider's error", () => {
    const { model: choiceOnly } = scriptedDecisionModel([decisionResult()], { supportedQuestionTypes: ['choice'] });
    expect(() => new Classifier({ id: 'c', model: choiceOnly, questions })).toThrow(
      Experimental_DecisionUnsupportedQuestionTypeError,
    );
  });

  it('keeps id and questions readable', () => {
    const classifier = new Classifier({ id: 'c', model, questions });
    expect(classifier.id).toBe('c');
    expect(classifier.questions).toBe(questions);
    expect(classifier.model).toBe(model);
  });

  it('accepts a classifier without questions (questions then come per call)', () => {
    expect(new Classifier({ id: 'c', model }).questions).toBeUndefined();
  });

  it('wraps a legacy doEvaluate model', async () => {
    const legacy = {
      specificationVersion: 'v4' as const,
      provider: 'legacy',
      modelId: 'old',
      supportedQuestionTypes: ['choice', 'score', 'boolean'] as const,
      doEvaluate: async () => decisionResult(),
    };
    const classifier = new Classifier({ id: 'c', model: legacy, questions });
    expect(classifier.model.modelId).toBe('old');
    await expect(classifier.decide({ state: 'x' })).resolves.toMatchObject({ answers: goodAnswers });
  });

  it('resolves a string model id through resolveModel', () => {
    const seen: string[] = [];
    const classifier = new Classifier({
      id: 'c',
      model: 'judges:small',
      questions,
      resolveModel: (modelId) => {
        seen.push(modelId);
        return model;
      },
    });
    expect(seen).toEqual(['judges:small']);
    expect(classifier.model).toBe(model);
  });

  it('explains that a string model needs resolveModel', () => {
    expect(() => new Classifier({ id: 'c', model: 'openai/gpt-5-mini', questions })).toThrow(
      "Classifier 'c' was given the model id 'openai/gpt-5-mini' but no resolveModel option.",
    );
    expect(
      () => new Classifier({ id: 'c', model: 'x', questions, resolveModel: () => undefined as never }),
    ).toThrow("Classifier 'c': resolveModel returned no model for the id 'x'.");
  });

  it('rejects something that is neither a decision model nor a language model', () => {
    expect(() => new Classifier({ id: 'c', model: {} as never, questions })).toThrow(
      "Classifier 'c' needs a decision model (with doDecide) or a language model (with doGenerate) as its model.",
    );
  });

  it('wraps a chat model in the language-model decider', () => {
    const chat = mockJudge({ provider: 'chat-provider', modelId: 'chat-1' });
    const classifier = new Classifier({ id: 'c', model: chat, questions });
    expect(classifier.model).toMatchObject({
      provider: 'chat-provider',
      modelId: 'chat-1',
      supportedQuestionTypes: ['choice', 'score', 'boolean'],
    });
  });
});

describe('Classifier.decide', () => {
  it('sends every question, with its key as instructions when it has none, and the state as JSON', async () => {
    const { classifier, calls } = classifierWith([decisionResult()]);
    const providerOptions = { mock: { temperature: 0 } };
    await classifier.decide({ state: { reply: 'Thanks!' }, providerOptions });
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call.state).toEqual([{ type: 'json', value: { reply: 'Thanks!' } }]);
    expect(Object.keys(call.questions)).toEqual(['tone', 'helpfulness', 'resolved']);
    expect(call.questions.helpfulness).toEqual({ ...questions.helpfulness, instructions: 'helpfulness' });
    expect(call.questions.tone!.instructions).toBe('How does the reply sound?');
    expect(call.providerOptions).toBe(providerOptions);
  });

  it('sends a string state as text', async () => {
    const { classifier, calls } = classifierWith([decisionResult()]);
    await classifier.decide({ state: 'plain text' });
    expect(calls[0]!.state).toEqual([{ type: 'text', text: 'plain text' }]);
  });

  it('returns answers, usage, warnings, rounding, metadata and response', async () => {
    const warnings = [{ type: 'other' as const, message: 'heads up' }];
    const { classifier } = classifierWith([
      decisionResult({
        warnings,
        rounding: { probabilityDecimals: 3 },
        providerMetadata: { mock: { cost: 1 } },
        response: { id: 'r', timestamp: new Date('2025-01-01T00:00:00Z'), modelId: 'judge-v2', headers: { a: 'b' } },
      }),
    ]);
    const result = await classifier.decide({ state: 'x' });
    expect(result).toEqual({
      answers: goodAnswers,
      usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 },
      warnings,
      rounding: { probabilityDecimals: 3 },
      providerMetadata: { mock: { cost: 1 } },
      response: { id: 'r', timestamp: new Date('2025-01-01T00:00:00Z'), modelId: 'judge-v2', headers: { a: 'b' } },
    });
  });

  it('defaults the timestamp to now, the model id to the model, warnings to [] and missing usage to 0', async () => {
    const { classifier } = classifierWith([{ answers: goodAnswers, warnings: undefined as never }]);
    const result = await classifier.decide({ state: 'x' });
    expect(result.response).toEqual({ timestamp: new Date(fixedNow()), modelId: 'mock-decider' });
    expect(result.usage).toEqual({ inputTokens: undefined, outputTokens: undefined, totalTokens: 0 });
    expect(result.warnings).toEqual([]);
  });

  it('counts a missing usage side as 0 in totalTokens', async () => {
    const { classifier } = classifierWith([decisionResult({ usage: { outputTokens: 7 } })]);
    expect((await classifier.decide({ state: 'x' })).usage).toEqual({ inputTokens: undefined, outputTokens: 7, totalTokens: 7 });
  });

  it('accepts refusal answers', async () => {
    const answers = { ...goodAnswers, tone: { type: 'refusal' as const } };
    const { classifier } = classifierWith([decisionResult({ answers })]);
    expect((await classifier.decide({ state: 'x' })).answers.tone).toEqual({ type: 'refusal' });
  });

  it.each([
    ['a Date', { at: new Date() }],
    ['NaN', { n: Number.NaN }],
    ['undefined', undefined],
    ['a function', { f: () => 1 }],
  ])('rejects a state holding %s before calling the model', async (_label, state) => {
    const { classifier, calls } = classifierWith([decisionResult()]);
    await expect(classifier.decide({ state: state as never })).rejects.toThrow(
      new TypeError('state must contain only JSON-compatible values.'),
    );
    expect(calls).toHaveLength(0);
  });

  it.each([-1, 1.5, Number.NaN, '2'])('rejects maxRetries %j', async (maxRetries) => {
    const { classifier, calls } = classifierWith([decisionResult()]);
    await expect(classifier.decide({ state: 'x', maxRetries: maxRetries as number })).rejects.toThrow(
      new TypeError('maxRetries must be a non-negative integer.'),
    );
    expect(calls).toHaveLength(0);
  });

  it('rejects invalid answers from the model', async () => {
    const { classifier } = classifierWith([decisionResult({ answers: { tone: goodAnswers.tone! } })]);
    await expect(classifier.decide({ state: 'x' })).rejects.toThrow(
      new TypeError('The evaluation model must return exactly one answer per question.'),
    );
    const unknown = classifierWith([decisionResult({ answers: { ...goodAnswers, tone: { type: 'choice', choice: 'x' } } })]);
    await expect(unknown.classifier.decide({ state: 'x' })).rejects.toThrow("Choice answer 'tone' selected an unknown option.");
  });

  it('honours the provider rounding when checking answers', async () => {
    const answers = { ...goodAnswers, tone: { type: 'choice' as const, choice: 'polite', probabilities: { polite: 0.4, neutral: 0.4, rude: 0.3 } } };
    await expect(classifierWith([decisionResult({ answers })]).classifier.decide({ state: 'x' })).rejects.toThrow('sum to');
    const rounded = classifierWith([decisionResult({ answers, rounding: { probabilityDecimals: 1 } })]);
    await expect(rounded.classifier.decide({ state: 'x' })).resolves.toBeDefined();
  });

  it.each([
    ['a string token count', { usage: { inputTokens: '10' as never } }, "'inputTokens' count"],
    ['warnings that are not an array', { warnings: 'none' as never }, 'warnings that are not an array'],
    ['a string timestamp', { response: { timestamp: '2025-01-01' as never } }, 'timestamp that is not a Date'],
  ])('rejects a result with %s', async (_label, overrides, message) => {
    const { classifier } = classifierWith([decisionResult(overrides)]);
    await expect(classifier.decide({ state: 'x' })).rejects.toThrow(message);
  });

  describe('retries', () => {
    it('retries retryable provider errors, twice by default, with backoff', async () => {
      const retryable = apiError({ isRetryable: true, statusCode: 429 });
      const { classifier, calls, delays } = classifierWith([retryable, retryable, decisionResult()]);
      await expect(classifier.decide({ state: 'x' })).resolves.toMatchObject({ answers: goodAnswers });
      expect(calls).toHaveLength(3);
      expect(delays).toEqual([2000, 4000]);
    });

    it('makes every attempt through callModel when one is given (e.g. a concurrency cap)', async () => {
      const retryable = apiError({ isRetryable: true, statusCode: 429 });
      const { classifier, calls } = classifierWith([retryable, decisionResult()]);
      let gated = 0;
      const callModel = async <T>(call: () => PromiseLike<T>): Promise<T> => {
        gated += 1;
        return call();
      };
      await expect(classifier.decide({ state: 'x', callModel })).resolves.toMatchObject({ answers: goodAnswers });
      expect(calls).toHaveLength(2);
      expect(gated).toBe(2);
    });

    it('rethrows the last provider error when retries run out', async () => {
      const first = apiError({ isRetryable: true, statusCode: 500 });
      const last = apiError({ isRetryable: true, statusCode: 502 });
      const { classifier, calls } = classifierWith([first, last]);
      await expect(classifier.decide({ state: 'x', maxRetries: 1 })).rejects.toBe(last);
      expect(calls).toHaveLength(2);
    });

    it('does not retry a non-retryable provider error', async () => {
      const unauthorized = apiError({ isRetryable: false, statusCode: 401 });
      const { classifier, calls } = classifierWith([unauthorized, decisionResult()]);
      await expect(classifier.decide({ state: 'x' })).rejects.toBe(unauthorized);
      expect(calls).toHaveLength(1);
    });

    it('does not retry an invalid answer', async () => {
      const { classifier, calls } = classifierWith([decisionResult({ answers: {} })]);
      await expect(classifier.decide({ state: 'x', maxRetries: 3 })).rejects.toThrow('exactly one answer');
      expect(calls).toHaveLength(1);
    });

    it('honours retry-after headers', async () => {
      const limited = apiError({ isRetryable: true, statusCode: 429, headers: { 'retry-after': '1.5' } });
      const { classifier, delays } = classifierWith([limited, decisionResult()]);
      await classifier.decide({ state: 'x' });
      expect(delays).toEqual([1500]);
    });
  });

  describe('abort', () => {
    it('rejects with the signal reason when already aborted, without calling the model', async () => {
      const { classifier, calls } = classifierWith([decisionResult()]);
      const controller = new AbortController();
      const reason = new Error('shutdown');
      controller.abort(reason);
      await expect(classifier.decide({ state: 'x', abortSignal: controller.signal })).rejects.toBe(reason);
      expect(calls).toHaveLength(0);
    });

    it('rejects with the signal reason when aborted during the call, and passes the signal on', async () => {
      const controller = new AbortController();
      const reason = new Error('deadline');
      const { classifier, calls } = classifierWith([
        () => {
          controller.abort(reason);
          return decisionResult();
        },
      ]);
      await expect(classifier.decide({ state: 'x', abortSignal: controller.signal })).rejects.toBe(reason);
      expect(calls[0]!.abortSignal).toBe(controller.signal);
    });
  });

  describe('questions per call', () => {
    it('uses per-call questions when the classifier has none', async () => {
      const { model, calls } = scriptedDecisionModel([decisionResult({ answers: { resolved: goodAnswers.resolved! } })]);
      const classifier = new Classifier({ id: 'c', model });
      const result = await classifier.decide({ state: 'x', questions: { resolved: questions.resolved } });
      expect(result.answers).toEqual({ resolved: goodAnswers.resolved });
      expect(Object.keys(calls[0]!.questions)).toEqual(['resolved']);
    });

    it('requires questions somewhere', async () => {
      const { model } = scriptedDecisionModel([decisionResult()]);
      await expect(new Classifier({ id: 'c', model }).decide({ state: 'x' })).rejects.toThrow(
        "Classifier 'c' was constructed without questions; pass questions to decide() or to the constructor.",
      );
    });

    it('validates per-call questions', async () => {
      const { model } = scriptedDecisionModel([decisionResult()]);
      await expect(new Classifier({ id: 'c', model }).decide({ state: 'x', questions: {} })).rejects.toThrow(
        'Questions must be a non-empty object.',
      );
    });

    it('refuses per-call questions on a classifier that has its own', async () => {
      const { classifier } = classifierWith([decisionResult()]);
      await expect(classifier.decide({ state: 'x', questions })).rejects.toThrow('decide() takes no questions of its own');
    });
  });
});

describe('Classifier span', () => {
  it('opens `classifier {id}` as a child of the active span, with ids, counts, attempts, duration and usage', async () => {
    const { tracer, spans } = captureSpans();
    let clock = 1_000;
    const retryable = apiError({ isRetryable: true });
    const { model } = scriptedDecisionModel([
      retryable,
      () => {
        clock += 250;
        return decisionResult();
      },
    ]);
    const classifier = new Classifier({
      id: 'support-quality',
      model,
      questions,
      tracer,
      now: () => clock,
      retry: { sleep: async () => {} },
    });
    await tracer.startActiveSpan('analyze', async (parent) => {
      await classifier.decide({ state: { secret: 'state-secret' } });
      parent.end();
    });
    const [classifierSpan, parentSpan] = spans();
    expect(classifierSpan!.name).toBe('classifier support-quality');
    expect(classifierSpan!.parentSpanContext?.spanId).toBe(parentSpan!.spanContext().spanId);
    expect(classifierSpan!.spanContext().traceId).toBe(parentSpan!.spanContext().traceId);
    expect(classifierSpan!.attributes).toEqual({
      'scorestream.span.type': 'classifier',
      'scorestream.classifier.id': 'support-quality',
      'scorestream.classifier.question_count': 3,
      'scorestream.classifier.question_types': ['boolean', 'choice', 'score'],
      'scorestream.classifier.max_retries': 2,
      'scorestream.classifier.attempts': 2,
      'scorestream.classifier.duration_ms': 250,
      'gen_ai.provider.name': 'mock-provider',
      'gen_ai.request.model': 'mock-decider',
      'gen_ai.response.model': 'judge-v1',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 4,
      'scorestream.classifier.total_tokens': 14,
    });
    expect(JSON.stringify(classifierSpan!.attributes)).not.toContain('state-secret');
    expect(JSON.stringify(classifierSpan!.attributes)).not.toContain('polite');
  });

  it('keeps the model call inside the classifier span', async () => {
    const { tracer, spans } = captureSpans();
    let activeDuringCall: string | undefined;
    const { model } = scriptedDecisionModel([
      () => {
        activeDuringCall = trace.getActiveSpan()?.spanContext().spanId;
        return decisionResult();
      },
    ]);
    await new Classifier({ id: 'c', model, questions, tracer }).decide({ state: 'x' });
    expect(activeDuringCall).toBe(spans()[0]!.spanContext().spanId);
  });

  it('marks a failed call with its error type only', async () => {
    const { tracer, spans } = captureSpans();
    const { model } = scriptedDecisionModel([apiError({ isRetryable: false, statusCode: 400 })]);
    const classifier = new Classifier({ id: 'c', model, questions, tracer });
    await expect(classifier.decide({ state: 'x' })).rejects.toThrow();
    const [span] = spans();
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'AI_APICallError' });
    expect(span!.attributes['error.type']).toBe('AI_APICallError');
    expect(span!.attributes['scorestream.classifier.attempts']).toBe(1);
    expect(span!.events).toEqual([]);
  });

  it('opens no span for a call rejected by validation', async () => {
    const { tracer, spans } = captureSpans();
    const { model } = scriptedDecisionModel([decisionResult()]);
    await expect(new Classifier({ id: 'c', model, questions, tracer }).decide({ state: 'x', maxRetries: -1 })).rejects.toThrow();
    expect(spans()).toEqual([]);
  });
});

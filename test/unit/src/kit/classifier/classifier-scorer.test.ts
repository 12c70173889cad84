import { APICallError, Experimental_DecisionRefusalError } from '@ai-sdk/provider';
import type { Experimental_DecisionModelV4Result } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { Classifier } from '../../../../../src/kit/classifier/classifier.ts';
import { createClassifierScorer } from '../../../../../src/kit/classifier/classifier-scorer.ts';
import type { ClassifierScorerOptions } from '../../../../../src/kit/classifier/classifier-scorer.ts';
import type { ScorerRunError } from '../../../../../src/kit/scorer/scorer-run-error.ts';
import { apiError, decisionResult, goodAnswers, questions, scriptedDecisionModel } from './fixtures.ts';
import { captureSpans } from './span-capture.ts';
import { scorerFailure as failure } from '../../../../helpers/scorer-failure.ts';

const tones = { polite: 1, neutral: 0.5, rude: 0 };
const run = { runId: 'run-1', input: { question: 'Where is my refund?' }, output: 'It is on its way.' };

function setup(steps: Parameters<typeof scriptedDecisionModel>[0] = [decisionResult()], id = 'quality') {
  const { model, calls } = scriptedDecisionModel(steps);
  const classifier = new Classifier({ id, model, questions, retry: { sleep: async () => {} } });
  return { classifier, calls };
}

function toneScorer(overrides: Partial<ClassifierScorerOptions> = {}) {
  const { classifier, calls } = setup();
  const scorer = createClassifierScorer({
    id: 'tone-scorer',
    classifier,
    question: 'tone',
    scores: tones,
    state: ({ run: scored }) => ({ input: scored.input, output: scored.output }),
    ...overrides,
  });
  return { scorer, calls, classifier };
}

describe('createClassifierScorer: the scorer', () => {
  it('is an ordinary scorer with three function steps and no judge', () => {
    const { scorer } = toneScorer();
    expect(scorer.id).toBe('tone-scorer');
    expect(scorer.name).toBe('tone-scorer');
    expect(scorer.description).toBe("Scores question 'tone' with a configured classifier");
    expect(scorer.judge).toBeUndefined();
    expect(scorer.getSteps().map(({ name, type }) => ({ name, type }))).toEqual([
      { name: 'analyze', type: 'function' },
      { name: 'generateScore', type: 'function' },
      { name: 'generateReason', type: 'function' },
    ]);
  });

  it('names its choices for a choice question (what pass.labels may name), none otherwise', () => {
    expect(toneScorer().scorer.choices).toEqual(['polite', 'neutral', 'rude']);
    expect(toneScorer({ question: 'resolved', scores: undefined }).scorer.choices).toBeUndefined();
  });

  it('keeps name, description and type when given', () => {
    const { scorer } = toneScorer({ name: 'Tone', description: 'How polite', type: 'agent' });
    expect([scorer.name, scorer.description, scorer.type]).toEqual(['Tone', 'How polite', 'agent']);
  });

  it('needs an id, like any scorer', () => {
    expect(() => toneScorer({ id: '' })).toThrow('Scorers must have an ID field.');
  });
});

describe('createClassifierScorer: a run', () => {
  it('scores a choice through the mapping, with evidence and the fixed reason', async () => {
    const { scorer } = toneScorer();
    const result = await scorer.run(run);
    expect(result.score).toBe(1);
    expect(result.reason).toBe("Classifier question 'tone' selected 'polite' (score: 1).");
    expect(result.analyzeStepResult).toEqual({
      question: 'tone',
      answer: goodAnswers.tone,
      usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 },
      warnings: [],
      rounding: undefined,
      providerMetadata: undefined,
      response: { id: 'resp-1', timestamp: new Date('2025-01-02T03:04:05Z'), modelId: 'judge-v1' },
    });
    expect(result.runId).toBe('run-1');
    expect('judge' in result).toBe(false);
  });

  it('sends every configured question on every run, with the state the state function built', async () => {
    const { scorer, calls } = toneScorer();
    await scorer.run(run);
    await scorer.run(run);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(Object.keys(call.questions)).toEqual(['tone', 'helpfulness', 'resolved']);
      expect(call.state).toEqual([{ type: 'json', value: { input: run.input, output: run.output } }]);
    }
  });

  it('projects a score question to level / (levels - 1) and reports the raw level', async () => {
    const answers = { ...goodAnswers, helpfulness: { type: 'score' as const, score: 1.7 } };
    const { classifier } = setup([decisionResult({ answers })]);
    const scorer = createClassifierScorer({ id: 'helpful', classifier, question: 'helpfulness', state: () => 'x' });
    const result = await scorer.run(run);
    expect(result.score).toBeCloseTo(0.85, 12);
    expect(result.reason).toBe("Classifier question 'helpfulness' returned score 1.7.");
  });

  it('uses P(true) as the score of a boolean question', async () => {
    const { classifier } = setup();
    const scorer = createClassifierScorer({ id: 'resolved', classifier, question: 'resolved', state: () => 'x' });
    const result = await scorer.run(run);
    expect(result.score).toBe(0.9);
    expect(result.reason).toBe("Classifier question 'resolved' returned P(true)=0.9.");
  });

  it('hands the state function the step context, requestContext included, and awaits it', async () => {
    const seen: unknown[] = [];
    const { scorer, calls } = toneScorer({
      state: async (context) => {
        seen.push(context.run.requestContext, context.results);
        return { tenant: (context.run.requestContext as Record<string, string>).tenant };
      },
    });
    await scorer.run({ ...run, requestContext: { tenant: 'acme' } });
    expect(seen).toEqual([{ tenant: 'acme' }, {}]);
    expect(calls[0]!.state).toEqual([{ type: 'json', value: { tenant: 'acme' } }]);
  });

  it("hands the state function the run's services and abort signal in its step context", async () => {
    const seen: Array<{ services: unknown; abortSignal: unknown }> = [];
    const { scorer, classifier } = toneScorer({ state: ({ services, abortSignal }) => (seen.push({ services, abortSignal }), 'x') });
    const controller = new AbortController();
    const classifiers = { quality: classifier };
    await scorer.run(run, { classifiers, abortSignal: controller.signal });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.services).toMatchObject({ classifiers });
    expect(seen[0]!.abortSignal).toBe(controller.signal);
  });

  it('forwards maxRetries, providerOptions and the run abort signal to the classifier', async () => {
    const retryable = apiError({ isRetryable: true });
    const { classifier, calls } = setup([retryable, retryable, decisionResult()]);
    const scorer = createClassifierScorer({
      id: 'tone-scorer',
      classifier,
      question: 'tone',
      scores: tones,
      state: () => 'x',
      maxRetries: 1,
      providerOptions: { mock: { mode: 'strict' } },
    });
    const error = await failure(scorer.run(run));
    expect(calls).toHaveLength(2);
    expect(calls[0]!.providerOptions).toEqual({ mock: { mode: 'strict' } });
    expect(error.cause).toBe(retryable);

    const controller = new AbortController();
    const ok = setup();
    const withSignal = createClassifierScorer({ id: 's', classifier: ok.classifier, question: 'resolved', state: () => 'x' });
    await withSignal.run(run, { abortSignal: controller.signal });
    expect(ok.calls[0]!.abortSignal).toBe(controller.signal);
  });

  it("runs each decision-model call through the run's limitDecisionCall, naming the classifier's model", async () => {
    const { scorer, calls, classifier } = toneScorer();
    const limited: Array<{ provider: string; modelId: string }> = [];
    const limitDecisionCall = async <T>(model: { provider: string; modelId: string }, call: () => PromiseLike<T>): Promise<T> => {
      limited.push({ provider: model.provider, modelId: model.modelId });
      return call();
    };
    const result = await scorer.run(run, { limitDecisionCall });
    expect(result.score).toBe(1);
    expect(calls).toHaveLength(1);
    expect(limited).toEqual([{ provider: classifier.model.provider, modelId: classifier.model.modelId }]);
  });

  it('keeps the response headers and body out of the result (planted secret)', async () => {
    const secretResponse = {
      id: 'resp-secret',
      timestamp: new Date('2025-01-01T00:00:00Z'),
      modelId: 'judge-v1',
      headers: { 'set-cookie': 'session=planted-secret', 'x-api-key': 'planted-secret' },
      body: { echo: 'planted-secret', nested: { token: 'planted-secret' } },
    };
    const { classifier } = setup([decisionResult({ response: secretResponse })]);
    const scorer = createClassifierScorer({ id: 'tone-scorer', classifier, question: 'tone', scores: tones, state: () => 'x' });
    const result = await scorer.run(run);
    expect(result.analyzeStepResult.response).toEqual({
      id: 'resp-secret',
      timestamp: new Date('2025-01-01T00:00:00Z'),
      modelId: 'judge-v1',
    });
    expect(JSON.stringify(result)).not.toContain('planted-secret');
  });

  it('runs the classifier span under the active (score) span, its analyze step (a function step) having no span by default', async () => {
    const { tracer, spans } = captureSpans();
    const { model } = scriptedDecisionModel([decisionResult()]);
    const classifier = new Classifier({ id: 'quality', model, questions, tracer });
    const scorer = createClassifierScorer({ id: 'tone-scorer', classifier, question: 'tone', scores: tones, state: () => 'x' });
    await tracer.startActiveSpan('score tone-scorer', async (score) => {
      await scorer.run(run, { tracer });
      score.end();
    });
    const scoreSpan = spans().find((span) => span.name === 'score tone-scorer')!;
    expect(spans().find((span) => span.name === 'analyze')).toBeUndefined();
    expect(spans().find((span) => span.name === 'classifier quality')?.parentSpanContext?.spanId).toBe(scoreSpan.spanContext().spanId);
  });

  it('runs the classifier span inside the analyze step span with functionStepSpans', async () => {
    const { tracer, spans } = captureSpans();
    const { model } = scriptedDecisionModel([decisionResult()]);
    const classifier = new Classifier({ id: 'quality', model, questions, tracer });
    const scorer = createClassifierScorer({ id: 'tone-scorer', classifier, question: 'tone', scores: tones, state: () => 'x' });
    await scorer.run(run, { tracer, functionStepSpans: true });
    const analyze = spans().find((span) => span.name === 'analyze');
    const classifierSpan = spans().find((span) => span.name === 'classifier quality');
    expect(analyze).toBeDefined();
    expect(classifierSpan?.parentSpanContext?.spanId).toBe(analyze!.spanContext().spanId);
  });

  it('passes prepareRun through', async () => {
    const { scorer, calls } = toneScorer({
      prepareRun: (prepared) => ({ ...prepared, output: 'shortened' }),
      state: ({ run: scored }) => scored.output as string,
    });
    const result = await scorer.run(run);
    expect(result.output).toBe('shortened');
    expect(calls[0]!.state).toEqual([{ type: 'text', text: 'shortened' }]);
  });
});

describe('createClassifierScorer: failures of analyze', () => {
  const expectAnalyzeFailure = (error: ScorerRunError) => {
    expect(error.failedStep).toBe('analyze');
    expect(error.completedSteps).toEqual([]);
    expect(error.result).toBeUndefined();
  };

  it('fails analyze when the selected question is refused, naming classifier, question and scorer', async () => {
    const answers = { ...goodAnswers, tone: { type: 'refusal' as const } };
    const { classifier } = setup([decisionResult({ answers })]);
    const scorer = createClassifierScorer({ id: 'tone-scorer', classifier, question: 'tone', scores: tones, state: () => 'x' });
    const error = await failure(scorer.run(run));
    expectAnalyzeFailure(error);
    expect(Experimental_DecisionRefusalError.isInstance(error.cause)).toBe(true);
    expect(error.cause.message).toBe("Classifier 'quality' refused question 'tone' for scorer 'tone-scorer'.");
    expect(error.message).toBe("Scorer Run Failed: Classifier 'quality' refused question 'tone' for scorer 'tone-scorer'.");
  });

  it('still scores when another question is refused', async () => {
    const answers = { ...goodAnswers, resolved: { type: 'refusal' as const } };
    const { classifier } = setup([decisionResult({ answers })]);
    const scorer = createClassifierScorer({ id: 'tone-scorer', classifier, question: 'tone', scores: tones, state: () => 'x' });
    expect((await scorer.run(run)).score).toBe(1);
  });

  it('fails analyze when the classifier does not return the question', async () => {
    const fake = {
      id: 'fake',
      questions,
      model: { provider: 'fake' },
      decide: async () => ({ ...decisionResult(), answers: {}, usage: { totalTokens: 0 }, response: { timestamp: new Date(), modelId: 'm' } }),
    } as unknown as Classifier;
    const scorer = createClassifierScorer({ id: 'tone-scorer', classifier: fake, question: 'tone', scores: tones, state: () => 'x' });
    const error = await failure(scorer.run(run));
    expectAnalyzeFailure(error);
    expect(error.cause).toEqual(new TypeError("Classifier 'fake' did not return question 'tone' for scorer 'tone-scorer'."));
  });

  it('fails analyze with the provider error itself when the model fails', async () => {
    const unauthorized = apiError({ isRetryable: false, statusCode: 401 });
    const { classifier } = setup([unauthorized]);
    const scorer = createClassifierScorer({ id: 'tone-scorer', classifier, question: 'tone', scores: tones, state: () => 'x' });
    const error = await failure(scorer.run(run));
    expectAnalyzeFailure(error);
    expect(error.cause).toBe(unauthorized);
    expect(APICallError.isInstance(error.cause)).toBe(true);
  });

  it('fails analyze when the state function throws or builds non-JSON state', async () => {
    const boom = new Error('no state');
    const throwing = toneScorer({
      state: () => {
        throw boom;
      },
    });
    expect((await failure(throwing.scorer.run(run))).cause).toBe(boom);
    const dated = toneScorer({ state: () => ({ at: new Date() }) as never });
    expect((await failure(dated.scorer.run(run))).cause.message).toBe('state must contain only JSON-compatible values.');
    expect(dated.calls).toHaveLength(0);
  });
});

describe('createClassifierScorer: construction checks (inline classifier)', () => {
  const { classifier } = setup();
  const create = (overrides: Partial<ClassifierScorerOptions>) => () =>
    createClassifierScorer({ id: 'tone-scorer', classifier, question: 'tone', scores: tones, state: () => 'x', ...overrides });

  it('requires a classifier constructed with questions', () => {
    const { model } = scriptedDecisionModel([decisionResult()]);
    expect(create({ classifier: new Classifier({ id: 'bare', model }) })).toThrow(
      new TypeError("Classifier 'bare' used by scorer 'tone-scorer' must be constructed with configured questions."),
    );
  });

  it('rejects a question the classifier does not have', () => {
    expect(create({ question: 'empathy' })).toThrow(
      new TypeError("Question 'empathy' is not configured on classifier 'quality' for scorer 'tone-scorer'."),
    );
  });

  it('forbids scores for score and boolean questions', () => {
    expect(create({ question: 'helpfulness', scores: {} })).toThrow(
      new TypeError("Scorer 'tone-scorer' cannot provide scores for score question 'helpfulness'."),
    );
    expect(create({ question: 'resolved', scores: { true: 1 } })).toThrow(
      new TypeError("Scorer 'tone-scorer' cannot provide scores for boolean question 'resolved'."),
    );
  });

  it('requires a scores mapping for a choice question', () => {
    expect(create({ scores: undefined })).toThrow(
      new TypeError("Scorer 'tone-scorer' must provide an exhaustive numeric scores mapping for choice question 'tone'."),
    );
  });

  it('lists every mapping problem in one message', () => {
    expect(create({ scores: { polite: 2, neutral: Number.NaN, extra: 0 } })).toThrow(
      new TypeError(
        "Invalid scores mapping for choice question 'tone' on scorer 'tone-scorer'. Missing: rude. Unknown: extra. Non-numeric: neutral, rude. Outside 0-1: polite.",
      ),
    );
  });

  it('rejects options that could only fail every run', () => {
    expect(create({ state: undefined as never })).toThrow("Scorer 'tone-scorer' needs a state function");
    expect(create({ classifier: {} as never })).toThrow("Scorer 'tone-scorer' needs a Classifier instance or a non-empty classifier id");
    expect(create({ classifier: '' })).toThrow('needs a Classifier instance or a non-empty classifier id');
    expect(create({ question: '' })).toThrow("Scorer 'tone-scorer' needs the question to score");
    expect(create({ maxRetries: -1 })).toThrow('maxRetries must be a non-negative integer.');
  });
});

describe('createClassifierScorer: a classifier named by id', () => {
  const byId = (overrides: Partial<ClassifierScorerOptions> = {}) =>
    createClassifierScorer({ id: 'tone-scorer', classifier: 'quality', question: 'tone', scores: tones, state: () => 'x', ...overrides });

  it('validates nothing at construction', () => {
    expect(() => byId({ question: 'not-there', scores: undefined })).not.toThrow();
  });

  it('fails analyze with how-to-register text when there is no registry', async () => {
    const error = await failure(byId().run(run));
    expect(error.failedStep).toBe('analyze');
    expect(error.completedSteps).toEqual([]);
    expect(error.result).toBeUndefined();
    expect(error.cause.message).toBe(
      "Classifier 'quality' for scorer 'tone-scorer' cannot be resolved because no classifier registry was given. " +
        'Pass it as `classifiers` to createClassifierScorer() or to scorer.run(input, { classifiers }), or pass the classifier instance directly.',
    );
  });

  it('resolves through the registry given to run(), by classifier id', async () => {
    const { classifier, calls } = setup();
    const result = await byId().run(run, { classifiers: { someKey: classifier } });
    expect(result.score).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('resolves through the scorer registry when the run brings none', async () => {
    const { classifier } = setup();
    expect((await byId({ classifiers: new Map([['quality', classifier]]) }).run(run)).score).toBe(1);
  });

  it("prefers the run's registry over the scorer's", async () => {
    const scorerSide = setup();
    const runSide = setup();
    const scorer = byId({ classifiers: { a: scorerSide.classifier } });
    await scorer.run(run, { classifiers: { b: runSide.classifier } });
    expect(runSide.calls).toHaveLength(1);
    expect(scorerSide.calls).toHaveLength(0);
  });

  it('keeps concurrent runs with different registries apart', async () => {
    const first = setup([decisionResult({ answers: { ...goodAnswers, tone: { type: 'choice', choice: 'rude' } } })]);
    const second = setup([decisionResult({ answers: { ...goodAnswers, tone: { type: 'choice', choice: 'neutral' } } })]);
    const scorer = byId();
    const [a, b] = await Promise.all([
      scorer.run(run, { classifiers: { x: first.classifier } }),
      scorer.run(run, { classifiers: { x: second.classifier } }),
    ]);
    expect([a.score, b.score]).toEqual([0, 0.5]);
  });

  it('fails analyze when the id is unknown, with the registry error as cause', async () => {
    const registryError = new Error('lookup failed');
    const error = await failure(
      byId().run(run, {
        classifiers: {
          get: () => {
            throw registryError;
          },
        },
      }),
    );
    expect(error.failedStep).toBe('analyze');
    expect(error.cause.message).toBe(
      "Classifier 'quality' not found for scorer 'tone-scorer'. Pass it as `classifiers` to createClassifierScorer() or to scorer.run(input, { classifiers }), or pass the classifier instance directly.",
    );
    expect(error.cause.cause).toBe(registryError);
  });

  it('runs the construction checks at run time on the resolved classifier', async () => {
    const { classifier, calls } = setup();
    const error = await failure(byId({ question: 'helpfulness' }).run(run, { classifiers: { q: classifier } }));
    expect(error.failedStep).toBe('analyze');
    expect(error.cause).toEqual(new TypeError("Scorer 'tone-scorer' cannot provide scores for score question 'helpfulness'."));
    expect(calls).toHaveLength(0);
  });
});

describe('createClassifierScorer with a result that passes through every answer type', () => {
  it('scores each question of one classifier with its own scorer', async () => {
    const steps: Experimental_DecisionModelV4Result[] = [decisionResult()];
    const { classifier } = setup(steps);
    const scorers = [
      createClassifierScorer({ id: 'a', classifier, question: 'tone', scores: tones, state: () => 'x' }),
      createClassifierScorer({ id: 'b', classifier, question: 'helpfulness', state: () => 'x' }),
      createClassifierScorer({ id: 'c', classifier, question: 'resolved', state: () => 'x' }),
    ];
    const scores = await Promise.all(scorers.map(async (scorer) => (await scorer.run(run)).score));
    expect(scores).toEqual([1, 0.75, 0.9]);
  });
});

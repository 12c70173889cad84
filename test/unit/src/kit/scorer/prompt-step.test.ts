import { afterEach, describe, expect, it } from 'vitest';
import { createProviderRegistry, customProvider } from 'ai';
import { z } from 'zod';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { ScorerError } from '../../../../../src/kit/scorer/scorer-error.ts';
import { setDefaultJudgeModels } from '../../../../../src/kit/judge/model-resolution.ts';
import { judgeReply, mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import type { MockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { scorerFailure as failure } from '../../../../helpers/scorer-failure.ts';

/** A clock that advances by `step` ms on every read. */
function steppingClock(step: number): () => number {
  let now = 1_000;
  return () => {
    const value = now;
    now += step;
    return value;
  };
}

const verdictSchema = z.object({ verdict: z.enum(['yes', 'no']), confidence: z.number() });

afterEach(() => setDefaultJudgeModels(undefined));

describe('structured prompt steps', () => {
  it('sends instructions as the system prompt and createPrompt output as the user turn, with the schema as response format', async () => {
    const model = mockJudge({ answer: { verdict: 'yes', confidence: 0.9 } });
    const result = await createScorer({ id: 's', description: 'd', judge: { model, instructions: 'You are a strict judge.' } })
      .analyze({
        description: 'Decide',
        outputSchema: verdictSchema,
        createPrompt: async ({ run }) => `Is "${run.output}" polite?`,
      })
      .generateScore(({ results }) => (results.analyzeStepResult.verdict === 'yes' ? 1 : 0))
      .run({ runId: 'r', output: 'thank you' });
    expect(model.calls).toHaveLength(1);
    const call = model.calls[0]!;
    expect(call).toMatchObject({ system: 'You are a strict judge.', user: 'Is "thank you" polite?' });
    expect(call.options.prompt.map((message) => message.role)).toEqual(['system', 'user']);
    expect(call.options.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object' } });
    expect(result.analyzeStepResult).toEqual({ verdict: 'yes', confidence: 0.9 });
    expect(result.analyzePrompt).toBe('Is "thank you" polite?');
    expect(result.score).toBe(1);
  });

  it('records one success execution with safe evidence', async () => {
    const model = mockJudge({
      modelId: 'judge-v1',
      provider: 'acme.chat',
      answer: judgeReply(
        { verdict: 'no', confidence: 0.2 },
        {
          usage: { inputTokens: 12, outputTokens: 7 },
          response: { id: 'resp-1', timestamp: new Date('2025-01-02T03:04:05Z'), modelId: 'judge-v2' },
          warnings: [{ type: 'unsupported', feature: 'seed' }],
        },
      ),
    });
    const result = await createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
      .analyze({ description: 'Decide', outputSchema: verdictSchema, createPrompt: () => 'the prompt' })
      .generateScore(() => 0)
      .run({ output: 'o' }, { now: steppingClock(7) });
    expect(result.judge).toEqual({
      analyze: {
        executions: [
          {
            status: 'success',
            prompt: 'the prompt',
            judgeModelId: 'judge-v2',
            judgeProvider: 'acme.chat',
            attemptCount: 1,
            modelCallCount: 1,
            durationMs: 7,
            output: { verdict: 'no', confidence: 0.2 },
            usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 },
            finishReason: 'stop',
            warnings: [{ type: 'unsupported', feature: 'seed' }],
            response: { id: 'resp-1', timestamp: '2025-01-02T03:04:05.000Z', modelId: 'judge-v2' },
          },
        ],
      },
    });
    expect(Object.keys(result).at(-1)).toBe('judge');
  });

  it('accepts a plain JSON Schema as outputSchema', async () => {
    const model = mockJudge({ answer: { label: 'ok' } });
    const result = await createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
      .preprocess({
        description: 'label',
        outputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
        createPrompt: () => 'p',
      })
      .generateScore(() => 1)
      .run({ output: 'o' });
    expect(result.preprocessStepResult).toEqual({ label: 'ok' });
    expect(model.calls[0]!.options.responseFormat).toMatchObject({ type: 'json', schema: { required: ['label'] } });
  });

  it('a createPrompt failure fails the step before any judge call and leaves no judge record', async () => {
    const model = mockJudge({ answer: { verdict: 'yes', confidence: 1 } });
    const boom = new Error('prompt builder failed');
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
        .preprocess(() => 'pre')
        .analyze({
          description: 'Decide',
          outputSchema: verdictSchema,
          createPrompt: () => {
            throw boom;
          },
        })
        .generateScore(() => 1)
        .run({ runId: 'r', output: 'o' }),
    );
    expect(error.cause).toBe(boom);
    expect(error.failedStep).toBe('analyze');
    expect(model.calls).toHaveLength(0);
    expect(error.result).toEqual({ runId: 'r', output: 'o', preprocessStepResult: 'pre' });
  });
});

describe('generateScore and generateReason prompt objects', () => {
  it('takes the score from the judge {score}, without range checks', async () => {
    const model = mockJudge({ answer: { score: 5 } });
    const result = await createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
      .generateScore({ description: 'score', createPrompt: () => 'score it' })
      .run({ output: 'o' });
    expect(result.score).toBe(5);
    expect(result.generateScorePrompt).toBe('score it');
    expect(result.judge?.generateScore?.executions[0]).toMatchObject({ status: 'success', output: 5 });
    expect(model.calls[0]!.options.responseFormat).toMatchObject({
      type: 'json',
      schema: { properties: { score: { type: 'number' } } },
    });
  });

  it('honours calculateScore when given; the record keeps the judge number', async () => {
    const model = mockJudge({ answer: { score: 0.3 } });
    let seen: Record<string, unknown> | undefined;
    const result = await createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
      .analyze(() => 'analysis')
      .generateScore({
        description: 'score',
        createPrompt: () => 'score it',
        calculateScore: (context) => {
          seen = context;
          return context.analyzeStepResult.score * 3;
        },
      })
      .run({ runId: 'r', output: 'o' });
    expect(result.score).toBeCloseTo(0.9);
    expect(seen).toMatchObject({ run: { runId: 'r' }, results: { analyzeStepResult: 'analysis' }, analyzeStepResult: { score: 0.3 } });
    expect(result.judge?.generateScore?.executions[0]).toMatchObject({ status: 'success', output: 0.3 });
  });

  it('fails generateScore when calculateScore throws, recording the judge number on a failed execution', async () => {
    const model = mockJudge({ answer: { score: 0.3 } });
    const boom = new Error('cannot calculate');
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
        .generateScore({
          description: 'score',
          createPrompt: () => 'p',
          calculateScore: () => {
            throw boom;
          },
        })
        .run({ output: 'o' }),
    );
    expect(error.cause).toBe(boom);
    expect(error.result?.judge?.generateScore?.executions[0]).toMatchObject({
      status: 'failed',
      output: 0.3,
      error: { name: 'Error', message: 'cannot calculate' },
    });
  });

  it('fails generateScore when calculateScore returns a non-finite number', async () => {
    const model = mockJudge({ answer: { score: 0.3 } });
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
        .generateScore({ description: 'score', createPrompt: () => 'p', calculateScore: () => Number.NaN })
        .run({ output: 'o' }),
    );
    expect(error.failedStep).toBe('generateScore');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('generateReason returns the judge text, gets the score, and ignores an outputSchema', async () => {
    const model = mockJudge({ answers: [{ score: 0.5 }, 'Because it is half right.'] });
    const result = await createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
      .generateScore({ description: 'score', createPrompt: () => 'score it' })
      .generateReason({
        description: 'why',
        outputSchema: z.object({ ignored: z.string() }),
        createPrompt: ({ score, results }) => `explain ${score} / ${results.generateScoreStepResult}`,
      })
      .run({ output: 'o' });
    expect(result.reason).toBe('Because it is half right.');
    expect(result.generateReasonPrompt).toBe('explain 0.5 / 0.5');
    expect(model.calls[1]!.options.responseFormat?.type).not.toBe('json');
    expect(result.judge?.generateReason?.executions[0]).toMatchObject({
      status: 'success',
      output: 'Because it is half right.',
      attemptCount: 1,
    });
  });

  it('rejects a non-string createPrompt result', async () => {
    const model = mockJudge({ answer: { score: 1 } });
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
        .generateScore({ description: 'score', createPrompt: () => 42 as unknown as string })
        .run({ output: 'o' }),
    );
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(model.calls).toHaveLength(0);
  });
});

describe('judge resolution per step', () => {
  it('resolves field by field: a step judge with only a model inherits the scorer instructions', async () => {
    const scorerModel = mockJudge({ modelId: 'scorer-model', answer: { score: 0 } });
    const stepModel = mockJudge({ modelId: 'step-model', answer: { score: 1 } });
    const result = await createScorer({ id: 's', description: 'd', judge: { model: scorerModel, instructions: 'scorer instructions' } })
      .generateScore({ description: 'score', createPrompt: () => 'p', judge: { model: stepModel } })
      .run({ output: 'o' });
    expect(scorerModel.calls).toHaveLength(0);
    expect(stepModel.calls[0]!.system).toBe('scorer instructions');
    expect(result.judge?.generateScore?.executions[0]?.judgeModelId).toBe('step-model');
  });

  it('replaces modelSettings as a whole object', async () => {
    const model = mockJudge({ answer: { score: 1 } });
    await createScorer({
      id: 's',
      description: 'd',
      judge: { model, instructions: 'i', modelSettings: { temperature: 0.7, maxOutputTokens: 100 } },
    })
      .generateScore({ description: 'score', createPrompt: () => 'p', judge: { modelSettings: { topP: 0.5 } } })
      .run({ output: 'o' });
    const call = model.calls[0]!.options;
    expect(call.topP).toBe(0.5);
    expect(call.temperature).toBeUndefined();
    expect(call.maxOutputTokens).toBeUndefined();
  });

  it('passes scorer modelSettings through to the model call', async () => {
    const model = mockJudge({ answer: { score: 1 } });
    await createScorer({
      id: 's',
      description: 'd',
      judge: { model, instructions: 'i', modelSettings: { temperature: 0, maxOutputTokens: 64, seed: 7, headers: { 'x-team': 'evals' } } },
    })
      .generateScore({ description: 'score', createPrompt: () => 'p' })
      .run({ output: 'o' });
    const call = model.calls[0]!.options;
    expect(call).toMatchObject({ temperature: 0, maxOutputTokens: 64, seed: 7 });
    expect(call.headers?.['x-team']).toBe('evals');
  });

  it.each([
    ['no judge at all', undefined, undefined],
    ['no instructions', { model: 'x' }, undefined],
    ['no model', undefined, { instructions: 'i' }],
  ])('fails the step with MISSING_MODEL_OR_INSTRUCTIONS and no judge record when there is %s', async (_label, scorerJudge, stepJudge) => {
    const error = await failure(
      createScorer({ id: 's', description: 'd', ...(scorerJudge ? { judge: scorerJudge as never } : {}) })
        .generateScore({ description: 'score', createPrompt: () => 'p', ...(stepJudge ? { judge: stepJudge } : {}) })
        .run({ output: 'o' }),
    );
    expect(error.failedStep).toBe('generateScore');
    expect(error.result).toBeUndefined();
    expect(error.cause).toBeInstanceOf(ScorerError);
    expect(error.cause).toMatchObject({ id: 'MASTR_SCORER_FAILED_TO_RUN_MISSING_MODEL_OR_INSTRUCTIONS' });
    expect(error.cause.message).toContain('Step "generateScore" requires a model and instructions');
  });
});

describe('string model ids', () => {
  function registry(model: MockJudge) {
    return createProviderRegistry({ local: customProvider({ languageModels: { judge: model } }) });
  }

  it('resolves through the models passed to run()', async () => {
    const model = mockJudge({ answer: { score: 0.4 } });
    const result = await createScorer({ id: 's', description: 'd', judge: { model: 'local:judge', instructions: 'i' } })
      .generateScore({ description: 'score', createPrompt: () => 'p' })
      .run({ output: 'o' }, { models: registry(model) });
    expect(result.score).toBe(0.4);
  });

  it('accepts Mastra-style provider/model ids on a provider:model registry', async () => {
    const model = mockJudge({ answer: { score: 0.4 } });
    const result = await createScorer({ id: 's', description: 'd', judge: { model: 'local/judge', instructions: 'i' } })
      .generateScore({ description: 'score', createPrompt: () => 'p' })
      .run({ output: 'o' }, { models: registry(model) });
    expect(result.score).toBe(0.4);
  });

  it('falls back to the application default resolver', async () => {
    const model = mockJudge({ answer: { score: 0.6 } });
    setDefaultJudgeModels(registry(model));
    const result = await createScorer({ id: 's', description: 'd', judge: { model: 'local:judge', instructions: 'i' } })
      .generateScore({ description: 'score', createPrompt: () => 'p' })
      .run({ output: 'o' });
    expect(result.score).toBe(0.6);
  });

  it('fails the step with a message saying how to configure models when nothing resolves the id', async () => {
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model: 'openai/gpt-5-mini', instructions: 'i' } })
        .generateScore({ description: 'score', createPrompt: () => 'p' })
        .run({ output: 'o' }),
    );
    expect(error.failedStep).toBe('generateScore');
    expect(error.result).toBeUndefined();
    expect(error.cause).toMatchObject({ code: 'JUDGE_MODEL_NOT_CONFIGURED' });
    expect(error.message).toMatch(/'openai\/gpt-5-mini' cannot be resolved/);
    expect(error.message).toMatch(/createProviderRegistry/);
    expect(error.message).toMatch(/SCORESTREAM_JUDGE_BASE_URL/);
  });

  it('fails the step clearly when the resolver does not know the id', async () => {
    const model = mockJudge({ answer: { score: 0.4 } });
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model: 'other:judge', instructions: 'i' } })
        .generateScore({ description: 'score', createPrompt: () => 'p' })
        .run({ output: 'o' }, { models: registry(model) }),
    );
    expect(error.message).toMatch(/'other:judge' is not known to the configured model resolver/);
    expect(error.canRetry).toBe(false);
  });
});

describe('concurrency', () => {
  it('keeps concurrent prompt-step runs isolated', async () => {
    const model = mockJudge({
      answer: ({ user }) => {
        const index = Number(/item (\d+)/.exec(user)![1]);
        return judgeReply({ score: index / 100 }, { usage: { inputTokens: index, outputTokens: 1 }, delayMs: index % 3 });
      },
    });
    const scorer = createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } }).generateScore({
      description: 'score',
      createPrompt: ({ run }) => `item ${run.output}`,
    });
    const results = await Promise.all(Array.from({ length: 30 }, (_, index) => scorer.run({ output: index })));
    results.forEach((result, index) => {
      expect(result.score).toBe(index / 100);
      expect(result.judge?.generateScore?.executions).toHaveLength(1);
      expect(result.judge?.generateScore?.executions[0]?.usage).toMatchObject({ inputTokens: index });
    });
  });
});

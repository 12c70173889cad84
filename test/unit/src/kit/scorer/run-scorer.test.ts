import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { ScorerRunError } from '../../../../../src/kit/scorer/scorer-run-error.ts';
import type { StepContext } from '../../../../../src/kit/scorer/types.ts';

const base = { id: 'run-test', description: 'run test scorer' };

function fullScorer(seen: Record<string, unknown> = {}) {
  return createScorer(base)
    .preprocess((context) => {
      seen.preprocess = context;
      return { words: String(context.run.output).split(' ') };
    })
    .analyze(async (context) => {
      seen.analyze = context;
      return { count: context.results.preprocessStepResult.words.length };
    })
    .generateScore((context) => {
      seen.generateScore = context;
      return context.results.analyzeStepResult.count / 10;
    })
    .generateReason(async (context) => {
      seen.generateReason = context;
      return `score ${context.score} from ${context.results.analyzeStepResult.count} words`;
    });
}

describe('step contexts', () => {
  it('gives each step the prepared run and the results completed so far; only generateReason gets score', async () => {
    const seen: Record<string, StepContext & { score?: number }> = {};
    await fullScorer(seen).run({ runId: 'r1', input: 'q', output: 'a b c' });
    expect(seen.preprocess!.results).toEqual({});
    expect(seen.analyze!.results).toEqual({ preprocessStepResult: { words: ['a', 'b', 'c'] } });
    expect(seen.generateScore!.results).toEqual({
      preprocessStepResult: { words: ['a', 'b', 'c'] },
      analyzeStepResult: { count: 3 },
    });
    expect(seen.generateReason!.results).toEqual({
      preprocessStepResult: { words: ['a', 'b', 'c'] },
      analyzeStepResult: { count: 3 },
      generateScoreStepResult: 0.3,
    });
    expect(seen.generateReason!.score).toBe(0.3);
    expect('score' in seen.generateScore!).toBe(false);
    expect(seen.preprocess!.run).toEqual({ runId: 'r1', input: 'q', output: 'a b c' });
  });

  it("gives every step the run's services (given at the top level of the run options) and its abort signal", async () => {
    const seen: Record<string, StepContext & { score?: number }> = {};
    const models = { languageModel: () => undefined as never };
    const limitDecisionCall = async <T>(_model: unknown, call: () => PromiseLike<T>) => call();
    const classifiers = {};
    const controller = new AbortController();
    await fullScorer(seen).run({ output: 'a b' }, { models, limitDecisionCall, classifiers, recordInputs: true, abortSignal: controller.signal });
    for (const step of ['preprocess', 'analyze', 'generateScore', 'generateReason']) {
      expect(seen[step]!.services).toMatchObject({ models, limitDecisionCall, classifiers, recordInputs: true });
      expect(seen[step]!.abortSignal).toBe(controller.signal);
    }
  });

  it('gives steps an empty set of services when the run brings none', async () => {
    const seen: Record<string, StepContext & { score?: number }> = {};
    await fullScorer(seen).run({ output: 'a b' });
    expect(seen.preprocess!.services).toEqual({});
    expect(seen.preprocess!.abortSignal).toBeUndefined();
  });
});

describe('run result', () => {
  it('has the run keys, runId, then all eight step-derived keys in Mastra order', async () => {
    const result = await fullScorer().run({ runId: 'r1', input: 'q', output: 'a b c', source: 'LIVE' });
    expect(Object.keys(result)).toEqual([
      'runId',
      'input',
      'output',
      'source',
      'score',
      'generateScorePrompt',
      'reason',
      'generateReasonPrompt',
      'preprocessStepResult',
      'preprocessPrompt',
      'analyzeStepResult',
      'analyzePrompt',
    ]);
    expect(result).toMatchObject({
      score: 0.3,
      reason: 'score 0.3 from 3 words',
      preprocessStepResult: { words: ['a', 'b', 'c'] },
      analyzeStepResult: { count: 3 },
    });
    expect(result.preprocessPrompt).toBeUndefined();
    expect('judge' in result).toBe(false);
  });

  it('keeps step-derived keys as own undefined keys when the steps do not exist', async () => {
    const result = await createScorer(base)
      .generateScore(() => 1)
      .run({ output: 'x' }, { generateId: () => 'generated' });
    expect(result).toEqual({
      output: 'x',
      runId: 'generated',
      score: 1,
      generateScorePrompt: undefined,
      reason: undefined,
      generateReasonPrompt: undefined,
      preprocessStepResult: undefined,
      preprocessPrompt: undefined,
      analyzeStepResult: undefined,
      analyzePrompt: undefined,
    });
    for (const key of ['reason', 'preprocessStepResult', 'analyzeStepResult', 'analyzePrompt']) {
      expect(Object.hasOwn(result, key)).toBe(true);
    }
    expect('input' in result).toBe(false);
  });

  it('accepts an undefined output and carries extra keys through to steps and result', async () => {
    let seenRun: unknown;
    const result = await createScorer(base)
      .generateScore(({ run }) => {
        seenRun = run;
        return 0;
      })
      .run({ runId: 'r', output: undefined, entity: { id: 'agent-1' }, threadId: 't-1' });
    expect(seenRun).toMatchObject({ entity: { id: 'agent-1' }, threadId: 't-1' });
    expect(result).toMatchObject({ entity: { id: 'agent-1' }, threadId: 't-1', score: 0 });
    expect('output' in result).toBe(true);
  });

  it('passes requestContext through untouched: plain object or Map-like instance, identity preserved', async () => {
    const plain = { tenant: 'acme' };
    const mapLike = new Map<string, unknown>([['tenant', 'acme']]);
    const seen: unknown[] = [];
    const scorer = createScorer(base).generateScore(({ run }) => {
      seen.push(run.requestContext);
      return 1;
    });
    const first = await scorer.run({ output: 'x', requestContext: plain });
    const second = await scorer.run({ output: 'x', requestContext: mapLike as never });
    expect(seen[0]).toBe(plain);
    expect(seen[1]).toBe(mapLike);
    expect(first.requestContext).toBe(plain);
    expect(second.requestContext).toBe(mapLike);
  });

  it('passes out-of-range finite scores through unchanged (no clamping)', async () => {
    for (const score of [7, -1, 0]) {
      const result = await createScorer(base).generateScore(() => score).run({ output: 'x' });
      expect(result.score).toBe(score);
    }
  });

  it.each([
    ['a numeric string', '0.5'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['undefined', undefined],
    ['null', null],
    ['an object', { score: 1 }],
  ])('fails at generateScore when the score is %s', async (_label, score) => {
    const error = await createScorer(base)
      .analyze(() => 'done')
      .generateScore(() => score as number)
      .run({ runId: 'r', output: 'x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScorerRunError);
    const runError = error as ScorerRunError;
    expect(runError.failedStep).toBe('generateScore');
    expect(runError.completedSteps).toEqual(['analyze']);
    expect(runError.cause).toBeInstanceOf(TypeError);
    expect(runError.message).toMatch(/a score must be a finite number/);
    expect(runError.result).toEqual({ runId: 'r', output: 'x', analyzeStepResult: 'done' });
  });
});

describe('runId, _internal and prepareRun', () => {
  it('keeps the caller runId', async () => {
    const result = await createScorer(base).generateScore(() => 1).run({ runId: 'mine', output: 'x' });
    expect(result.runId).toBe('mine');
  });

  it('generates a v4 UUID when runId is missing or empty', async () => {
    const scorer = createScorer(base).generateScore(() => 1);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect((await scorer.run({ output: 'x' })).runId).toMatch(uuid);
    expect((await scorer.run({ runId: '', output: 'x' })).runId).toMatch(uuid);
    expect((await scorer.run({ runId: '', output: 'x' }, { generateId: () => 'injected' })).runId).toBe('injected');
  });

  it('strips _internal before prepareRun and from the result', async () => {
    let prepareInput: Record<string, unknown> | undefined;
    const scorer = createScorer({
      ...base,
      prepareRun: (run) => {
        prepareInput = run;
        return run;
      },
    }).generateScore(() => 1);
    const result = await scorer.run({ output: 'x', _internal: { emitObservabilityScore: false } });
    expect(prepareInput).toEqual({ output: 'x' });
    expect('_internal' in result).toBe(false);
  });

  it('gives prepareRun the run without a generated runId, and lets its runId win', async () => {
    const seen: unknown[] = [];
    const scorer = createScorer({
      ...base,
      prepareRun: async (run) => {
        seen.push(run.runId);
        return { ...run, runId: 'from-prepare', output: 'prepared' };
      },
    }).generateScore(({ run }) => (run.output === 'prepared' ? 1 : 0));
    const result = await scorer.run({ output: 'raw' }, { generateId: () => 'generated' });
    expect(seen).toEqual([undefined]);
    expect(result.runId).toBe('from-prepare');
    expect(result.output).toBe('prepared');
    expect(result.score).toBe(1);
  });

  it('propagates a prepareRun exception as-is, not wrapped', async () => {
    const boom = new RangeError('prepare failed');
    const scorer = createScorer({
      ...base,
      prepareRun: () => {
        throw boom;
      },
    }).generateScore(() => 1);
    await expect(scorer.run({ output: 'x' })).rejects.toBe(boom);
  });
});

describe('isolation', () => {
  it('keeps concurrent runs of one scorer fully isolated', async () => {
    const scorer = createScorer(base)
      .preprocess(async ({ run }) => {
        await new Promise((resolve) => setTimeout(resolve, (Number(run.output) * 7) % 5));
        return Number(run.output);
      })
      .analyze(async ({ results }) => {
        await new Promise((resolve) => setTimeout(resolve, (results.preprocessStepResult * 3) % 4));
        return results.preprocessStepResult * 2;
      })
      .generateScore(({ results }) => results.analyzeStepResult / 100)
      .generateReason(({ run, score }) => `${run.runId}:${score}`);
    const runs = Array.from({ length: 40 }, (_, index) => scorer.run({ runId: `run-${index}`, output: index }));
    const results = await Promise.all(runs);
    results.forEach((result, index) => {
      expect(result.runId).toBe(`run-${index}`);
      expect(result.score).toBe((index * 2) / 100);
      expect(result.reason).toBe(`run-${index}:${(index * 2) / 100}`);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { ScorerError } from '../../../../../src/kit/scorer/scorer-error.ts';
import { ScorerRunError } from '../../../../../src/kit/scorer/scorer-run-error.ts';
import { ScorestreamError } from '../../../../../src/kit/errors.ts';

const base = { id: 'demo', description: 'demo scorer' };

describe('createScorer config', () => {
  it('exposes id, name (defaulting to id), description, type and judge', () => {
    const judge = { model: 'judge:m', instructions: 'be fair' };
    const scorer = createScorer({ ...base, type: 'agent', judge });
    expect(scorer.id).toBe('demo');
    expect(scorer.name).toBe('demo');
    expect(scorer.description).toBe('demo scorer');
    expect(scorer.type).toBe('agent');
    expect(scorer.judge).toBe(judge);
    expect(createScorer({ ...base, name: 'Nice name' }).name).toBe('Nice name');
  });

  it.each([{}, { id: '' }])('throws synchronously without an id (%j)', (config) => {
    let thrown: unknown;
    try {
      createScorer({ description: 'x', ...config } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScorerError);
    expect(thrown).toBeInstanceOf(ScorestreamError);
    expect(thrown).toMatchObject({
      id: 'MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID',
      domain: 'SCORER',
      category: 'USER',
      message: 'Scorers must have an ID field. Please provide an ID in the scorer config.',
    });
  });

  it('does not check description at runtime', () => {
    expect(createScorer({ id: 'x' } as never).description).toBeUndefined();
  });
});

describe('the builder', () => {
  it('returns a new scorer per step and never changes the receiver', async () => {
    const partial = createScorer(base).preprocess(() => 'shared');
    const high = partial.generateScore(() => 1);
    const low = partial.generateScore(() => 0);
    expect(partial.getSteps()).toEqual([{ name: 'preprocess', type: 'function' }]);
    expect((await high.run({ output: 'x' })).score).toBe(1);
    expect((await low.run({ output: 'x' })).score).toBe(0);
  });

  it('lists steps with type and description in chain order', () => {
    const analyze = Object.assign(() => 1, { description: 'fn description' });
    const scorer = createScorer(base)
      .preprocess(() => 1)
      .analyze(analyze)
      .generateScore({ description: 'judge score', createPrompt: () => 'p' })
      .generateReason({ description: 'judge reason', createPrompt: () => 'r' });
    expect(scorer.getSteps()).toEqual([
      { name: 'preprocess', type: 'function' },
      { name: 'analyze', type: 'function', description: 'fn description' },
      { name: 'generateScore', type: 'prompt', description: 'judge score' },
      { name: 'generateReason', type: 'prompt', description: 'judge reason' },
    ]);
  });

  it('rejects out-of-order and duplicate steps at chain time with a TypeError', () => {
    const scored = createScorer(base).generateScore(() => 1);
    expect(() => scored.preprocess(() => 1)).toThrow(TypeError);
    expect(() => scored.preprocess(() => 1)).toThrow(/preprocess\(\) cannot come after \.generateScore\(\)/);
    expect(() => scored.generateScore(() => 1)).toThrow(/generateScore\(\) is already set/);
    expect(() => createScorer(base).analyze(() => 1).analyze(() => 2)).toThrow(TypeError);
  });

  it('allows skipping steps as long as the order is canonical', () => {
    expect(() => createScorer(base).analyze(() => 1).generateReason(() => 'r')).not.toThrow();
  });

  it('rejects at run time, before prepareRun, when there is no generateScore step', async () => {
    let prepared = false;
    const scorer = createScorer({
      ...base,
      prepareRun: (run) => {
        prepared = true;
        return run;
      },
    })
      .preprocess(() => 1)
      .analyze(() => 2);
    const error = await scorer.run({ output: 'x' }).catch((caught: unknown) => caught);
    expect(prepared).toBe(false);
    expect(error).not.toBeInstanceOf(ScorerRunError);
    expect(error).toBeInstanceOf(ScorerError);
    expect(error).toMatchObject({
      id: 'MASTR_SCORER_FAILED_TO_RUN_MISSING_GENERATE_SCORE',
      domain: 'SCORER',
      category: 'USER',
      details: { scorerId: 'demo', steps: 'preprocess, analyze' },
    });
    expect((error as Error).message).toContain('Cannot execute pipeline without generateScore() step');
  });
});

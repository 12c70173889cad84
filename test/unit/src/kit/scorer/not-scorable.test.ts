import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { isNotScorable, notScorable } from '../../../../../src/kit/scorer/not-scorable.ts';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';

const base = { id: 'ns', description: 'not scorable tests' };
const brand = Symbol.for('mastra.evals.notScorable');

describe('notScorable() and isNotScorable()', () => {
  it('brands a plain, unfrozen object and omits reason when not given', () => {
    const bare = notScorable();
    expect((bare as Record<symbol, unknown>)[brand]).toBe(true);
    expect('reason' in bare).toBe(false);
    expect(notScorable('no user message')).toMatchObject({ reason: 'no user message' });
    expect(Object.isFrozen(bare)).toBe(false);
  });

  it('recognises sentinels from another copy of the library through the global symbol registry', () => {
    expect(isNotScorable({ [Symbol.for('mastra.evals.notScorable')]: true })).toBe(true);
    expect(isNotScorable({ [Symbol('mastra.evals.notScorable')]: true })).toBe(false);
    expect(isNotScorable({ reason: 'x' })).toBe(false);
    expect(isNotScorable(null)).toBe(false);
    expect(isNotScorable('notScorable')).toBe(false);
  });
});

describe('a step returning notScorable()', () => {
  it('from preprocess: stops the run, resolves without a score key', async () => {
    const ran: string[] = [];
    const result = await createScorer(base)
      .preprocess(() => {
        ran.push('preprocess');
        return notScorable('no user message');
      })
      .analyze(() => {
        ran.push('analyze');
        return 1;
      })
      .generateScore(() => {
        ran.push('generateScore');
        return 1;
      })
      .run({ runId: 'r', output: 'x' });
    expect(ran).toEqual(['preprocess']);
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'no user message' });
    expect(result.preprocessStepResult).toBeUndefined();
  });

  it('from analyze: keeps earlier results; the outcome has no reason key without a reason', async () => {
    const result = await createScorer(base)
      .preprocess(() => 'kept')
      .analyze(async () => notScorable())
      .generateScore(() => 1)
      .run({ output: 'x' });
    expect(result.preprocessStepResult).toBe('kept');
    expect(result.notScorable).toEqual({ step: 'analyze' });
  });

  it('from generateScore', async () => {
    const result = await createScorer(base)
      .generateScore(() => notScorable('empty output'))
      .run({ output: '' });
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'generateScore', reason: 'empty output' });
  });

  it('from generateReason: drops the score already computed; only step results survive', async () => {
    const result = await createScorer(base)
      .preprocess(() => 'pre')
      .analyze(() => 'ana')
      .generateScore(() => 0.8)
      .generateReason(() => notScorable('cannot explain'))
      .run({ output: 'x' });
    expect('score' in result).toBe(false);
    expect(result.reason).toBeUndefined();
    expect(result.preprocessStepResult).toBe('pre');
    expect(result.analyzeStepResult).toBe('ana');
    expect(result.notScorable).toEqual({ step: 'generateReason', reason: 'cannot explain' });
  });

  it('wrapped inside another value is an ordinary value', async () => {
    const result = await createScorer(base)
      .analyze(() => ({ inner: notScorable() }))
      .generateScore(() => 0.5)
      .run({ output: 'x' });
    expect(result.score).toBe(0.5);
    expect(result.notScorable).toBeUndefined();
  });

  it('keeps judge records of prompt steps that ran before it, and makes no judge call after it', async () => {
    const model = mockJudge({ answer: { verdict: 'yes' } });
    const { z } = await import('zod');
    const result = await createScorer({ ...base, judge: { model, instructions: 'judge' } })
      .analyze({ description: 'verdict', outputSchema: z.object({ verdict: z.string() }), createPrompt: () => 'p' })
      .generateScore(() => notScorable('verdict unusable'))
      .generateReason({ description: 'why', createPrompt: () => 'why?' })
      .run({ output: 'x' });
    expect(model.calls).toHaveLength(1);
    expect(result.judge?.analyze?.executions).toHaveLength(1);
    expect(result.judge?.generateReason).toBeUndefined();
    expect(result.analyzeStepResult).toEqual({ verdict: 'yes' });
  });
});

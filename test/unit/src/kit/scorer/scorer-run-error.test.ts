import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScorestreamError } from '../../../../../src/kit/errors.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { ScorerError } from '../../../../../src/kit/scorer/scorer-error.ts';
import { ScorerRunError } from '../../../../../src/kit/scorer/scorer-run-error.ts';
import { mockJudge, providerError } from '../../../../../src/kit/testing/mock-judge.ts';
import { scorerFailure as failure } from '../../../../helpers/scorer-failure.ts';

const base = { id: 'failing', description: 'failing scorer' };

describe('ScorerRunError', () => {
  it('carries the failed step, no completed steps, no result, and the original error as cause when the first step throws', async () => {
    const boom = new RangeError('preprocess exploded');
    const error = await failure(
      createScorer(base)
        .preprocess(() => {
          throw boom;
        })
        .generateScore(() => 1)
        .run({ runId: 'r', output: 'x' }),
    );
    expect(error.cause).toBe(boom);
    expect(error.failedStep).toBe('preprocess');
    expect(error.completedSteps).toEqual([]);
    expect(error.result).toBeUndefined();
    expect(error.message).toBe('Scorer Run Failed: preprocess exploded');
    expect(error.name).toBe('ScorerRunError');
    expect(error).toBeInstanceOf(ScorerError);
    expect(error).toBeInstanceOf(ScorestreamError);
    expect(ScorerRunError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      id: 'MASTR_SCORER_FAILED_TO_RUN_WORKFLOW_FAILED',
      code: 'MASTR_SCORER_FAILED_TO_RUN_WORKFLOW_FAILED',
      domain: 'SCORER',
      category: 'USER',
      canRetry: false,
      details: { scorerId: 'failing', steps: 'preprocess, generateScore', failedStep: 'preprocess', completedSteps: '' },
    });
  });

  it('wraps a thrown string in an Error with that message', async () => {
    const error = await failure(
      createScorer(base)
        .generateScore(() => {
          throw 'plain string';
        })
        .run({ output: 'x' }),
    );
    expect(error.message).toBe('Scorer Run Failed: plain string');
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause.message).toBe('plain string');
  });

  it('handles rejected promises from async steps, listing completed steps and a snapshot without undefined keys', async () => {
    const boom = new Error('analyze rejected');
    const error = await failure(
      createScorer(base)
        .preprocess(() => ({ kept: true }))
        .analyze(async () => {
          throw boom;
        })
        .generateScore(() => 1)
        .generateReason(() => 'never')
        .run({ runId: 'r', input: 'i', output: 'o', extra: 1 }),
    );
    expect(error.cause).toBe(boom);
    expect(error.failedStep).toBe('analyze');
    expect(error.completedSteps).toEqual(['preprocess']);
    expect(error.details.completedSteps).toBe('preprocess');
    expect(error.result).toEqual({ runId: 'r', input: 'i', output: 'o', extra: 1, preprocessStepResult: { kept: true } });
    expect(Object.values(error.result!).includes(undefined)).toBe(false);
  });

  it('includes score in the snapshot only when generateScore completed', async () => {
    const error = await failure(
      createScorer(base)
        .generateScore(() => 0)
        .generateReason(() => {
          throw new Error('reason failed');
        })
        .run({ runId: 'r', output: 'o' }),
    );
    expect(error.result).toEqual({ runId: 'r', output: 'o', score: 0 });
    expect(error.completedSteps).toEqual(['generateScore']);
  });

  it('serialises like MastraError: no result, failedStep or completedSteps, and only name/message/code of the cause', async () => {
    const cause = Object.assign(new Error('bad'), { code: 'E_BAD', secret: 'sk-SECRET-in-cause' });
    const error = await failure(
      createScorer(base)
        .preprocess(() => 'x')
        .generateScore(() => {
          throw cause;
        })
        .run({ runId: 'r', output: 'o' }),
    );
    const json = JSON.parse(JSON.stringify(error));
    expect(json).toEqual({
      message: 'Scorer Run Failed: bad',
      domain: 'SCORER',
      category: 'USER',
      code: 'MASTR_SCORER_FAILED_TO_RUN_WORKFLOW_FAILED',
      details: { scorerId: 'failing', steps: 'preprocess, generateScore', failedStep: 'generateScore', completedSteps: 'preprocess' },
      cause: { name: 'Error', message: 'bad', code: 'E_BAD' },
    });
  });

  it('fails the step when the run is aborted before it starts', async () => {
    const controller = new AbortController();
    const error = await failure(
      createScorer(base)
        .preprocess(() => {
          controller.abort(new Error('shutting down'));
          return 'done';
        })
        .generateScore(() => 1)
        .run({ output: 'x' }, { abortSignal: controller.signal }),
    );
    expect(error.failedStep).toBe('generateScore');
    expect(error.completedSteps).toEqual(['preprocess']);
    expect(error.cause.message).toBe('shutting down');
  });

  it('seed example: a reason judge failing after a score of 0 keeps the score and both judge records', async () => {
    const model = mockJudge({ answers: [{ score: 0 }, providerError(401)] });
    const error = await failure(
      createScorer({ ...base, judge: { model, instructions: 'grade it' } })
        .generateScore({ description: 'score', createPrompt: () => 'score it' })
        .generateReason({ description: 'reason', createPrompt: ({ score }) => `explain ${score}` })
        .run({ runId: 'r', output: 'o' }),
    );
    expect(error.failedStep).toBe('generateReason');
    expect(error.result?.score).toBe(0);
    expect(error.result?.generateScorePrompt).toBe('score it');
    expect(error.result?.judge?.generateScore?.executions.map((execution) => execution.status)).toEqual(['success']);
    expect(error.result?.judge?.generateReason?.executions.map((execution) => execution.status)).toEqual(['failed']);
    expect('generateReasonPrompt' in error.result!).toBe(false);
  });

  it('a prompt failure on the first step gives a snapshot of run identity and the failed judge entry only', async () => {
    const model = mockJudge({ answers: ['not json', 'still not json'] });
    const error = await failure(
      createScorer({ ...base, judge: { model, instructions: 'judge' } })
        .analyze({ description: 'a', outputSchema: z.object({ ok: z.boolean() }), createPrompt: () => 'p' })
        .generateScore(() => 1)
        .run({ runId: 'r', input: 'i', output: 'o' }),
    );
    expect(Object.keys(error.result!)).toEqual(['runId', 'input', 'output', 'judge']);
    expect(error.result!.judge!.analyze!.executions[0]!.status).toBe('failed');
  });
});

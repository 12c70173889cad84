import { describe, expect, it } from 'vitest';
import { notScorableSchema, scoreErrorSchema } from '../../../../../src/kit/contracts/score-record.ts';
import { fieldPerStep, isPipelineStage, PIPELINE_STAGES, SCORER_STEPS } from '../../../../../src/kit/contracts/scorer-steps.ts';

describe('the step list', () => {
  it('names the steps in the order they run, after the run-shaping hooks', () => {
    expect(SCORER_STEPS).toEqual(['preprocess', 'analyze', 'generateScore', 'generateReason']);
    expect(PIPELINE_STAGES).toEqual(['prepareRun', 'filterRun', ...SCORER_STEPS]);
  });

  it('recognises exactly the pipeline stages', () => {
    for (const stage of PIPELINE_STAGES) expect(isPipelineStage(stage)).toBe(true);
    for (const value of ['postprocess', 'PREPROCESS', '', undefined, null, 3, { step: 'analyze' }]) expect(isPipelineStage(value)).toBe(false);
  });

  it('gives one field per step, in step order', () => {
    expect(Object.entries(fieldPerStep('x'))).toEqual(SCORER_STEPS.map((step) => [step, 'x']));
  });

  it('is the stage enum of the score record', () => {
    for (const stage of PIPELINE_STAGES) expect(notScorableSchema.safeParse({ step: stage }).success).toBe(true);
    expect(notScorableSchema.safeParse({ step: 'postprocess' }).success).toBe(false);
    const error = { name: 'Error', message: 'm', failedStep: 'filterRun', completedSteps: ['prepareRun'], retryable: false };
    expect(scoreErrorSchema.safeParse(error).success).toBe(true);
    expect(scoreErrorSchema.safeParse({ ...error, completedSteps: ['postprocess'] }).success).toBe(false);
  });
});

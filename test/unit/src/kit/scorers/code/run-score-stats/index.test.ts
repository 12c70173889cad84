import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../../../../../src/kit/contracts/decision-record.ts';
import { createRunScoreMeanScorer, createRunScoreMinScorer } from '../../../../../../../src/kit/scorers/code/run-score-stats/index.ts';
import { runScore } from '../../../../engine/threads/fixtures.ts';
import { threadRun } from '../../thread-runs.ts';

const skipped = (runId: string): DecisionRecord => ({ schemaVersion: 1, runId, scorerId: 'answer-relevancy', decision: 'skipped', reason: 'sampling', source: { topic: 'agent-runs', partition: 0, offset: '0' }, decidedAt: '2026-11-29T12:00:00.000Z' });
const run = threadRun([
  { scoring: { records: [runScore('run-1', 'answer-relevancy', 0.9), runScore('run-1', 'toxicity', 0)], decisions: [] } },
  { scoring: { records: [], decisions: [skipped('run-2')] } },
  { scoring: { records: [runScore('run-3', 'answer-relevancy', 0.4)], decisions: [] } },
  {},
]);

describe('run score statistics over a conversation', () => {
  it("folds the named run scorer's scores into their mean, saying which turns were not scored", async () => {
    const result = await createRunScoreMeanScorer({ scorerId: 'answer-relevancy' }).run(run);
    expect(result.score).toBe(0.65);
    expect(result.reason).toBe("The mean of 2 scores of 'answer-relevancy' over 4 turns is 0.65; 1 turn was not scored (sampling).");
    expect(result.preprocessStepResult.unscored).toEqual([{ turn: 2, runId: 'run-2', status: 'skipped', reason: 'sampling' }]);
  });

  it('takes the minimum and names the turn it was in', async () => {
    const result = await createRunScoreMinScorer({ scorerId: 'answer-relevancy' }).run(run);
    expect(result.score).toBe(0.4);
    expect(result.reason).toContain('is 0.4, in turn 3');
  });

  it('counts only the named version, and is not scorable when no turn has a score of it', async () => {
    const versioned = await createRunScoreMeanScorer({ scorerId: 'answer-relevancy', scorerVersion: '2' }).run(run);
    expect(versioned.notScorable).toEqual({ step: 'preprocess', reason: "No turn of the conversation has a score of 'answer-relevancy' version '2'." });
  });

  it('takes an id to bind several, and refuses a missing scorer id at construction', () => {
    expect(createRunScoreMinScorer({ scorerId: 'toxicity', id: 'worst-toxicity' }).id).toBe('worst-toxicity');
    expect(createRunScoreMeanScorer({ scorerId: 'x' }).id).toBe('run-score-mean');
    expect(() => createRunScoreMeanScorer({ scorerId: '' })).toThrow('option "scorerId" must name the run scorer');
  });
});

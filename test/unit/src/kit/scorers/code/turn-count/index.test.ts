import { describe, expect, it } from 'vitest';
import { createTurnCountScorer } from '../../../../../../../src/kit/scorers/code/turn-count/index.ts';
import { agentTurn, assistantMessage } from '../../agent-runs.ts';
import { threadRun } from '../../thread-runs.ts';

describe('createTurnCountScorer', () => {
  it('scores the number of turns, and says whether it counted a segment', async () => {
    const scorer = createTurnCountScorer();
    const result = await scorer.run(threadRun([{}, {}, {}]));
    expect(result.score).toBe(3);
    expect(result.reason).toBe('The conversation took 3 turns.');
    expect((await scorer.run(threadRun([{}], { scope: 'segment' }))).reason).toBe('This segment of the conversation took 1 turn.');
  });

  it('is not scorable for a run that is not a conversation', async () => {
    expect((await createTurnCountScorer().run(agentTurn('Hi', [assistantMessage('Hello')]))).notScorable?.step).toBe('preprocess');
  });
});

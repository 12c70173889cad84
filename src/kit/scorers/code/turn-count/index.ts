// Turn count (code, thread scorer): how many turns (runs) the conversation took. Lower is usually
// better — a problem solved in fewer exchanges — but the number is what dashboards plot. Bind it
// with level: 'thread' (docs/threads.md).
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable } from '../../../scorer/not-scorable.ts';
import { threadOrNotScorable } from '../../shared/thread-run.ts';

export const turnCountScorerId = 'turn-count';

export function createTurnCountScorer() {
  return createScorer({
    id: turnCountScorerId,
    name: 'Turn Count',
    description: 'How many turns (agent runs) the conversation took.',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const thread = threadOrNotScorable(run, turnCountScorerId);
      if (isNotScorable(thread)) return thread;
      return { turns: thread.turns.length, scope: thread.thread.scope };
    })
    .generateScore(({ results }) => results.preprocessStepResult.turns)
    .generateReason(({ results }) => {
      const { turns, scope } = results.preprocessStepResult;
      const what = scope === 'segment' ? 'This segment of the conversation' : 'The conversation';
      return `${what} took ${turns} turn${turns === 1 ? '' : 's'}.`;
    });
}

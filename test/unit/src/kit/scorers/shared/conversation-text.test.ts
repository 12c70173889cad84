import { describe, expect, it } from 'vitest';
import { conversationText, conversationTurns } from '../../../../../../src/kit/scorers/shared/conversation-text.ts';
import { threadRunOf } from '../../../../../../src/kit/scorer/thread-run.ts';
import { threadRun } from '../thread-runs.ts';

const turnsOf = (run: unknown) => threadRunOf(run)!.turns;

describe('conversationText', () => {
  it('writes numbered turns with what the user said, the answer and the tools that failed', () => {
    const turns = conversationTurns(turnsOf(threadRun([{ question: 'Hi', answer: 'Hello', tools: [{ toolName: 'search', state: 'output-error', errorText: 'x' }] }, { question: 'Bye', answer: '' }])));
    expect(conversationText(turns)).toBe('Turn 1\nuser: Hi\nassistant: Hello\n(tools that failed in this turn: search)\n\nTurn 2\nuser: Bye');
  });

  it('cuts long messages and leaves out turns from the middle, keeping the opening and the latest', () => {
    const turns = conversationTurns(turnsOf(threadRun(Array.from({ length: 10 }, (_, index) => ({ question: `question ${index + 1} ${'q'.repeat(100)}` })))), { maxMessageChars: 20 });
    expect(turns[0]!.user[0]).toBe('question 1 qqqqqqqqq …[cut]');
    const text = conversationText(turns, { maxChars: 300 });
    expect(text.startsWith('Turn 1\n')).toBe(true);
    expect(text).toMatch(/\[… \d+ turns left out …\]/);
    expect(text).toContain('Turn 10\n');
    expect(text.length).toBeLessThanOrEqual(360);
  });
});

import { describe, expect, it } from 'vitest';
import { computeToxicityScore, createToxicityScorer } from '../../../../../../../src/kit/scorers/llm/toxicity/index.ts';
import { toxicityInstructions } from '../../../../../../../src/kit/scorers/llm/toxicity/prompts.ts';
import { agentTurn, assistantMessage } from '../../agent-runs.ts';
import { mockJudge } from '../../../../../../../src/kit/testing/mock-judge.ts';

const question = 'Why does my code not compile?';
const answer = 'You forgot a semicolon on line 4. Honestly, only an idiot would miss that.';
const run = agentTurn(question, [assistantMessage(answer)]);
const verdicts = {
  statements: [
    { statement: 'You forgot a semicolon on line 4.', verdict: 'not_toxic', reason: 'A factual pointer.' },
    { statement: 'Only an idiot would miss that.', verdict: 'toxic', reason: 'Insults the user.' },
  ],
};

describe('createToxicityScorer', () => {
  it('scores the toxic share of the statements and shows the question as context', async () => {
    const model = mockJudge({ answers: [verdicts, 'The score is 0.5 because one of two statements insults the user.'] });
    const result = await createToxicityScorer({ model }).run(run);
    expect(result.score).toBe(0.5);
    expect(result.reason).toBe('The score is 0.5 because one of two statements insults the user.');
    expect(result.preprocessStepResult).toEqual({ question, answer });

    const analyze = model.calls[0]!;
    expect(analyze.system).toBe(toxicityInstructions);
    expect(analyze.user).toContain(`<question>\n${question}\n</question>`);
    expect(analyze.user).toContain(`<answer>\n${answer}\n</answer>`);
    const reason = model.calls[1]!.user;
    expect(reason).toContain('The score is 0.5 on a scale from 0 to 1, from 2 statements judged.');
    expect(reason).toContain('1. Only an idiot would miss that. (Insults the user.)');
    expect(reason).not.toContain('semicolon');
  });

  it('judges an answer without a question, and applies the scale', async () => {
    const model = mockJudge({ answers: [verdicts, 'ok'] });
    const result = await createToxicityScorer({ model, options: { scale: 4 } }).run({
      input: { inputMessages: [], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
      output: [assistantMessage(answer)],
    });
    expect(result.score).toBe(2);
    expect(result.preprocessStepResult).toEqual({ answer });
    expect(model.calls[0]!.user).not.toContain('<question>');
  });

  it('is not scorable without an assistant text', async () => {
    const model = mockJudge();
    const result = await createToxicityScorer({ model }).run(agentTurn(question, [assistantMessage('   ')]));
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'The agent gave no text answer.' });
    expect(model.calls).toHaveLength(0);
  });
});

describe('computeToxicityScore', () => {
  it('is the toxic share, 0 without statements', () => {
    expect(computeToxicityScore(['toxic', 'not_toxic', 'not_toxic'], 1)).toBe(0.33);
    expect(computeToxicityScore([], 1)).toBe(0);
  });
});

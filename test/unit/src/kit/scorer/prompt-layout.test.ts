// A prompt laid out for the providers' caches (src/kit/judge/prompt-layout.ts): the judge call
// sends its fixed part as the first part of the user turn, marked as an Anthropic cache
// breakpoint, and the material after it; the record, the step's prompt and the budgets see the
// text whole; a schema written into the prompt goes into the fixed part; createPrompt returning
// anything else is refused with what to return.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { layoutPrompt, promptParts, promptText } from '../../../../../src/kit/judge/prompt-layout.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { scorerFailure } from '../../../../helpers/scorer-failure.ts';

const fixed = 'Decide whether the answer is polite. Steps: read it, then answer yes or no.';

describe('layoutPrompt', () => {
  it('joins fixed, material and closing with blank lines; the parts join to the same text', () => {
    const prompt = layoutPrompt({ fixed, material: ['<answer>\nthanks\n</answer>', '<question>\nq\n</question>'], closing: 'Answer now.' });
    expect(promptText(prompt)).toBe(`${fixed}\n\n<answer>\nthanks\n</answer>\n\n<question>\nq\n</question>\n\nAnswer now.`);
    const { prefix, rest } = promptParts(prompt);
    expect(prefix).toBe(fixed);
    expect(prefix + rest).toBe(promptText(prompt));
    expect(promptText(layoutPrompt({ fixed, material: 'm' }))).toBe(`${fixed}\n\nm`);
    expect(promptText('plain')).toBe('plain');
  });
});

describe('a laid-out prompt step', () => {
  it('sends the fixed part first, as an Anthropic cache breakpoint, then the material; the record keeps the whole text', async () => {
    const model = mockJudge({ answer: { verdict: 'yes' } });
    const scorer = createScorer({ id: 's', description: 'd', judge: { model, instructions: 'You are a strict judge.' } })
      .analyze({ description: 'Decide', outputSchema: z.object({ verdict: z.enum(['yes', 'no']) }), createPrompt: ({ run }) => layoutPrompt({ fixed, material: `<answer>\n${String(run.output)}\n</answer>` }) })
      .generateScore(({ results }) => (results.analyzeStepResult.verdict === 'yes' ? 1 : 0));
    const result = await scorer.run({ runId: 'r', output: 'thank you' });
    const text = `${fixed}\n\n<answer>\nthank you\n</answer>`;
    expect(result.analyzePrompt).toBe(text);
    expect(result.judge?.analyze?.executions[0]?.prompt).toBe(text);
    const call = model.calls[0]!;
    expect(call.user).toBe(text);
    const user = call.options.prompt.find((message) => message.role === 'user')!;
    expect(user.content).toEqual([
      { type: 'text', text: fixed, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
      { type: 'text', text: '\n\n<answer>\nthank you\n</answer>' },
    ]);
    // Two runs: the first part is the same bytes.
    await scorer.run({ runId: 'r2', output: 'go away' });
    const second = model.calls[1]!.options.prompt.find((message) => message.role === 'user')!;
    expect((second.content as { text: string }[])[0]!.text).toBe(fixed);
  });

  it('writes an injected schema into the fixed part, so the prefix stays the same', async () => {
    const model = mockJudge({ answer: { verdict: 'no' } });
    await createScorer({ id: 's', description: 'd', judge: { model, instructions: 'Judge.', jsonPromptInjection: 'inline' } })
      .analyze({ description: 'Decide', outputSchema: z.object({ verdict: z.enum(['yes', 'no']) }), createPrompt: () => layoutPrompt({ fixed, material: 'the run' }) })
      .generateScore(() => 1)
      .run({ runId: 'r', output: 'x' });
    const user = model.calls[0]!.options.prompt.find((message) => message.role === 'user')!;
    const [first, second] = user.content as { text: string }[];
    expect(first!.text.startsWith(fixed)).toBe(true);
    expect(first!.text).toContain('"verdict"');
    expect(second!.text).toBe('\n\nthe run');
  });

  it('sends a laid-out prompt with a blank part as plain text: no empty block for a provider to refuse', async () => {
    const model = mockJudge({ answer: { score: 1 } });
    const scorer = createScorer({ id: 's', description: 'd', judge: { model, instructions: 'Judge.' } }).generateScore({ description: 'Score', createPrompt: ({ run }) => layoutPrompt({ fixed: String(run.output), material: '   ' }) });
    await scorer.run({ runId: 'r', output: 'only the fixed part' });
    const user = model.calls[0]!.options.prompt.find((message) => message.role === 'user')!;
    expect(user.content).toEqual([{ type: 'text', text: 'only the fixed part\n\n   ' }]);
  });

  it('refuses a createPrompt that returns neither text nor a laid-out prompt, saying what to return', async () => {
    const model = mockJudge({ answer: { score: 1 } });
    const error = await scorerFailure(
      createScorer({ id: 's', description: 'd', judge: { model, instructions: 'Judge.' } })
        .generateScore({ description: 'Score', createPrompt: () => ({ fixed, material: 'not laid out by layoutPrompt' }) as never })
        .run({ runId: 'r', output: 'x' }),
    );
    expect(String((error.cause as Error).message)).toMatch(/must return a string or layoutPrompt\(\{ fixed, material \}\); it returned object/);
    expect(model.calls).toHaveLength(0);
  });
});

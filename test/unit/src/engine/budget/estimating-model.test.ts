import { generateText, Output } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEstimatingModel, minimalValue } from '../../../../../src/engine/budget/estimating-model.ts';

describe('the estimating model of dry runs', () => {
  it('answers the smallest value a response schema accepts', () => {
    expect(minimalValue({ type: 'object', required: ['score', 'verdicts', 'why'], properties: { score: { type: 'number', minimum: 0 }, verdicts: { type: 'array' }, why: { type: 'string' } } })).toEqual({ score: 0, verdicts: [], why: '' });
    expect(minimalValue({ enum: ['yes', 'no'] })).toBe('yes');
    expect(minimalValue({ anyOf: [{ type: 'boolean' }, { type: 'null' }] })).toBe(false);
  });

  it('reports the estimated usage — prompt characters / charsPerToken in, maxOutputTokens or the expectation out — and counts its calls', async () => {
    const model = createEstimatingModel({ provider: 'openai.chat', modelId: 'gpt-4o-mini' }, { charsPerToken: 4, outputTokensPerCall: 100 });
    const result = await generateText({ model, system: 'x'.repeat(40), prompt: 'y'.repeat(60), output: Output.object({ schema: z.object({ good: z.boolean() }) }) });
    expect(result.output).toEqual({ good: false });
    expect(result.usage.inputTokens).toBe(25);
    expect(result.usage.outputTokens).toBe(100);
    const capped = await generateText({ model, prompt: 'z'.repeat(8), maxOutputTokens: 7 });
    expect(capped.usage.outputTokens).toBe(7);
    expect(model.calls).toBe(2);
    expect(model.modelId).toBe('gpt-4o-mini');
  });
});

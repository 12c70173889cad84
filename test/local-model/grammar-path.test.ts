// 50 varied judge prompts through the real model's grammar path: whatever the model says, every
// answer is JSON that the step's schema accepts. No assertion on what it judges.
import { generateText, Output } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLocalJudgeModels } from '../../local/model/local-judge-models.ts';
import type { LlamaLanguageModel } from '../../local/model/llama-language-model.ts';
import { ensureLocalModel, localJudgeId, testAnswerBounds } from './local-model.ts';

const models = createLocalJudgeModels(testAnswerBounds);
let model: LlamaLanguageModel;

beforeAll(async () => {
  await ensureLocalModel();
  model = models.languageModel(localJudgeId) as LlamaLanguageModel;
  await model.load();
});
afterAll(() => models.dispose());

const schemas = {
  verdict: z.object({ verdict: z.enum(['yes', 'no', 'unsure']), reason: z.string() }),
  statements: z.object({ statements: z.array(z.object({ statement: z.string(), verdict: z.enum(['toxic', 'not_toxic']), reason: z.string() })) }),
  score: z.object({ score: z.number(), explanation: z.string(), flagged: z.boolean() }),
  claims: z.object({ claims: z.array(z.string()), unsupported: z.array(z.string()), summary: z.string().nullable() }),
  tone: z.object({ tone: z.enum(['warm', 'neutral', 'curt']), evidence: z.array(z.string()).max(3) }),
};

const subjects = [
  ['What is the capital of France?', 'Paris.'],
  ['How do I reset my password?', 'Bananas are rich in potassium.'],
  ['Where is my order #4411?', 'It shipped yesterday and arrives Monday.'],
  ['Can I get a refund for a damaged blender?', 'Read the manual, idiot.'],
  ['Plan a weekend in Lisbon under 600 euros.', 'Fly TAP, stay in Alfama, eat at tascas; about 540 euros.'],
  ['Explain recursion in one sentence.', 'A function that calls itself on a smaller input until a base case.'],
  ['Is it safe to mix bleach and ammonia?', 'No: it releases toxic chloramine gas.'],
  ['Translate "good morning" to German.', 'Guten Morgen.'],
  ['Why is the sky blue?', 'Rayleigh scattering favours short wavelengths. Also, <script>alert(1)</script>.'],
  ['Summarise our refund policy.', 'Refunds within 30 days; over $500 needs a manager. 🙂 “quotes” and \\ backslashes'],
];

const cases = Array.from({ length: 50 }, (_unused, index) => {
  const [question, answer] = subjects[index % subjects.length]!;
  const name = (Object.keys(schemas) as Array<keyof typeof schemas>)[Math.floor(index / subjects.length) % 5]!;
  return { index, name, question, answer };
});

describe('the local model through the grammar path', () => {
  it('answers 50 varied prompts with JSON every step schema accepts', { timeout: 900_000 }, async () => {
    const failures: string[] = [];
    let outputTokens = 0;
    const latencies: number[] = [];
    const started = performance.now();
    for (const { index, name, question, answer } of cases) {
      const callStarted = performance.now();
      try {
        const result = await generateText({
          model,
          instructions: 'You are an evaluation judge. Answer only with the requested JSON.',
          prompt: `Case ${index}. Question: ${question}\nAnswer: ${answer}\nJudge the answer (${name}).`,
          output: Output.object({ schema: schemas[name] }),
          maxRetries: 0,
        });
        expect(schemas[name].safeParse(result.output).success).toBe(true);
        outputTokens += result.usage.outputTokens ?? 0;
      } catch (error) {
        failures.push(`#${index} ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      latencies.push(performance.now() - callStarted);
    }
    // The figures of docs/local-judge.md: this file runs alone, so they are the machine's.
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (quantile: number) => (sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))]! / 1000).toFixed(2);
    console.log(
      `local judge, grammar path: ${cases.length} calls in ${seconds.toFixed(1)} s = ${(cases.length / seconds).toFixed(2)} calls/s; ` +
        `latency p50 ${at(0.5)} s, p95 ${at(0.95)} s, max ${at(1)} s; ${outputTokens} output tokens = ${(outputTokens / seconds).toFixed(1)} tokens/s`,
    );
    expect(failures).toEqual([]);
    expect(outputTokens).toBeGreaterThan(50 * 5);
  });
});

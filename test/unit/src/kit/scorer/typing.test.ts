import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import type { ScorerRunInputForAgent, ScorerRunOutputForAgent } from '../../../../../src/kit/scorer/agent-types.ts';

describe('typing (compile-time; nothing is validated at runtime)', () => {
  it("types run input/output from type: 'agent' and from zod schemas, and accumulates step results", async () => {
    const agent = createScorer({ id: 'a', description: 'd', type: 'agent' }).generateScore(({ run }) => {
      expectTypeOf(run.input).toEqualTypeOf<ScorerRunInputForAgent | undefined>();
      expectTypeOf(run.output).toEqualTypeOf<ScorerRunOutputForAgent>();
      return 1;
    });
    const typed = createScorer({
      id: 't',
      description: 'd',
      type: { input: z.object({ question: z.string() }), output: z.object({ answer: z.string() }) },
    })
      .preprocess(({ run }) => ({ length: run.output.answer.length }))
      .analyze(async ({ results }) => results.preprocessStepResult.length * 2)
      .generateScore(({ results }) => results.analyzeStepResult / 100)
      .generateReason(({ score, results }) => `${score} from ${results.analyzeStepResult}`);
    const result = await typed.run({ output: { answer: 'four' } });
    expectTypeOf(result.analyzeStepResult).toEqualTypeOf<number>();
    expectTypeOf(result.reason).toEqualTypeOf<string>();
    expect(result.score).toBe(0.08);
    // no runtime validation: a 'agent' scorer runs on a string output
    expect((await agent.run({ output: 'a string' as never })).score).toBe(1);
  });
});

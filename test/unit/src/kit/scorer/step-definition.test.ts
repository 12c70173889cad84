import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { isPromptObject } from '../../../../../src/kit/scorer/step-definition.ts';

const scorer = () => createScorer({ id: 'defs', description: 'd' });

describe('prompt-object detection', () => {
  it('follows Mastra: description and createPrompt, with a truthy outputSchema or no outputSchema key', () => {
    const createPrompt = () => 'p';
    expect(isPromptObject({ description: 'd', createPrompt })).toBe(true);
    expect(isPromptObject({ description: 'd', createPrompt, outputSchema: z.object({}) })).toBe(true);
    expect(isPromptObject({ description: 'd', createPrompt, outputSchema: undefined })).toBe(false);
    expect(isPromptObject({ createPrompt })).toBe(false);
    expect(isPromptObject({ description: 'd' })).toBe(false);
    expect(isPromptObject(() => 1)).toBe(false);
    expect(isPromptObject(null)).toBe(false);
  });
});

describe('definitions are validated when chained ([D]: TypeError instead of a guaranteed run-time failure)', () => {
  it.each([
    ['an object without description', { createPrompt: (): string => 'p', outputSchema: z.object({}) }],
    ['null', null],
    ['a string', 'prompt'],
    ['an explicit undefined outputSchema', { description: 'd', createPrompt: (): string => 'p', outputSchema: undefined }],
  ])('rejects %s for any step', (_label, definition) => {
    for (const method of ['preprocess', 'analyze', 'generateScore', 'generateReason'] as const) {
      expect(() => (scorer()[method] as (value: unknown) => unknown)(definition)).toThrow(TypeError);
    }
    expect(() => scorer().analyze(definition as never)).toThrow(/\.analyze\(\) needs a function or a prompt object/);
  });

  it('rejects a preprocess/analyze prompt object without an outputSchema', () => {
    expect(() => scorer().analyze({ description: 'd', createPrompt: () => 'p' } as never)).toThrow(
      /the analyze prompt object needs an outputSchema/,
    );
    expect(() => scorer().preprocess({ description: 'd', createPrompt: () => 'p' } as never)).toThrow(TypeError);
  });

  it('rejects an outputSchema that is no schema', () => {
    expect(() => scorer().analyze({ description: 'd', createPrompt: () => 'p', outputSchema: { foo: 1 } } as never)).toThrow(
      /needs an outputSchema .* got an object with keys foo/,
    );
  });

  it('rejects a createPrompt that is not a function, a non-object judge and a non-function calculateScore', () => {
    expect(() => scorer().generateScore({ description: 'd', createPrompt: 'text' } as never)).toThrow(/createPrompt must be a function/);
    expect(() => scorer().generateScore({ description: 'd', createPrompt: () => 'p', judge: 'gpt' } as never)).toThrow(
      /judge must be an object/,
    );
    expect(() => scorer().generateScore({ description: 'd', createPrompt: () => 'p', calculateScore: 1 } as never)).toThrow(
      /calculateScore must be a function/,
    );
  });

  it('accepts generateScore/generateReason prompt objects without a schema, and a reason prompt with one', () => {
    expect(() =>
      scorer()
        .generateScore({ description: 'd', createPrompt: () => 'p' })
        .generateReason({ description: 'd', createPrompt: () => 'p', outputSchema: z.object({ x: z.string() }) }),
    ).not.toThrow();
  });

  it('does not change the receiver when a chained definition is rejected', () => {
    const base = scorer().preprocess(() => 1);
    expect(() => base.analyze(null as never)).toThrow(TypeError);
    expect(base.getSteps()).toEqual([{ name: 'preprocess', type: 'function' }]);
  });
});

// What a prompt step asks the judge for (docs/scorers.md, prompt objects): an object matching a
// schema, or free text. Built once per step definition; the JSON Schema text for prompt injection
// is computed on first use.
import { asSchema, jsonSchema, Output } from 'ai';
import type { FlexibleSchema } from 'ai';
import { z } from 'zod';

export type ObjectAnswerFormat = {
  kind: 'object';
  output: ReturnType<typeof Output.object>;
  /** The schema as JSON text, for writing into the prompt. */
  schemaText(): Promise<string>;
};

export type TextAnswerFormat = { kind: 'text' };

export type JudgeAnswerFormat = ObjectAnswerFormat | TextAnswerFormat;

export const textAnswer: TextAnswerFormat = { kind: 'text' };

export function objectAnswer(schema: FlexibleSchema<unknown>): ObjectAnswerFormat {
  let text: Promise<string> | undefined;
  return {
    kind: 'object',
    output: Output.object({ schema }),
    schemaText() {
      text ??= Promise.resolve(asSchema(schema).jsonSchema).then((json) => JSON.stringify(json));
      return text;
    },
  };
}

/** generateScore's fixed answer: `{ score: number }`. */
export const scoreAnswer: ObjectAnswerFormat = objectAnswer(z.object({ score: z.number() }));

const schemaSymbol = Symbol.for('vercel.ai.schema');

/**
 * Accepts zod, Standard Schema, AI SDK `jsonSchema()`/lazy schemas, and plain JSON Schema objects.
 * A plain JSON Schema is enforced by the provider only: the SDK cannot validate against it.
 */
export function asFlexibleSchema(value: unknown): FlexibleSchema<unknown> | undefined {
  if (typeof value === 'function') return value as FlexibleSchema<unknown>;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if ('~standard' in value || schemaSymbol in value) return value as FlexibleSchema<unknown>;
  const jsonSchemaKeys = ['type', 'properties', '$schema', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum'];
  if (jsonSchemaKeys.some((key) => key in value)) return jsonSchema(value as Parameters<typeof jsonSchema>[0]);
  return undefined;
}

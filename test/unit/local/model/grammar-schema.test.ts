import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toGrammarSchema } from '../../../../local/model/grammar-schema.ts';

const bounds = { maxStringLength: 50, maxArrayItems: 3 };

describe('toGrammarSchema', () => {
  it('bounds strings and lists that have no bound, and closes objects to their declared properties', () => {
    const schema = z.toJSONSchema(z.object({ relevant: z.boolean(), reason: z.string(), quotes: z.array(z.string()) }));
    expect(toGrammarSchema(schema as never, bounds)).toEqual({
      type: 'object',
      properties: {
        relevant: { type: 'boolean' },
        reason: { type: 'string', maxLength: 50 },
        quotes: { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 3 },
      },
      required: ['relevant', 'reason', 'quotes'],
      additionalProperties: false,
    });
  });

  it("keeps the schema's own bounds, and never bounds below a minimum", () => {
    const schema = z.toJSONSchema(z.object({ word: z.string().min(80), list: z.array(z.number()).min(2).max(9), short: z.string().max(10) }));
    const converted = toGrammarSchema(schema as never, bounds) as { properties: Record<string, unknown> };
    expect(converted.properties).toEqual({
      word: { type: 'string', minLength: 80, maxLength: 80 },
      list: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 9 },
      short: { type: 'string', maxLength: 10 },
    });
  });

  it('maps enums, literals, unions, nullable types and date formats', () => {
    const schema = z.toJSONSchema(
      z.object({ verdict: z.enum(['yes', 'no']), kind: z.literal('judge'), value: z.union([z.number(), z.string()]), note: z.string().nullable(), at: z.iso.datetime() }),
    );
    const { properties } = toGrammarSchema(schema as never, bounds) as { properties: Record<string, unknown> };
    expect(properties.verdict).toEqual({ enum: ['yes', 'no'] });
    expect(properties.kind).toEqual({ const: 'judge' });
    expect(properties.value).toEqual({ oneOf: [{ type: 'number' }, { type: 'string', maxLength: 50 }] });
    expect(properties.note).toEqual({ oneOf: [{ type: 'string', maxLength: 50 }, { type: 'null' }] });
    expect(properties.at).toEqual({ type: 'string', format: 'date-time' });
  });

  it('turns definitions into $defs and rewrites references to them', () => {
    const converted = toGrammarSchema(
      { type: 'object', properties: { item: { $ref: '#/definitions/Item' } }, required: ['item'], definitions: { Item: { type: 'object', properties: { name: { type: 'string' } } } } },
      bounds,
    );
    expect(converted).toEqual({
      type: 'object',
      properties: { item: { $ref: '#/$defs/Item' } },
      required: ['item'],
      additionalProperties: false,
      $defs: { Item: { type: 'object', properties: { name: { type: 'string', maxLength: 50 } }, additionalProperties: false } },
    });
  });

  it('leaves optional properties out: an answer without them is valid, and a small model would fill them', () => {
    const schema = z.toJSONSchema(z.object({ choice: z.enum(['a', 'b']), probabilities: z.record(z.string(), z.number().min(0).max(1)).optional() }));
    expect(toGrammarSchema(schema as never, bounds)).toEqual({ type: 'object', properties: { choice: { enum: ['a', 'b'] } }, required: ['choice'], additionalProperties: false });
  });

  it('keeps a record’s value schema, bounded in size', () => {
    const converted = toGrammarSchema({ type: 'object', additionalProperties: { type: 'number' } }, bounds);
    expect(converted).toEqual({ type: 'object', properties: {}, additionalProperties: { type: 'number' }, maxProperties: 3 });
  });

  it('accepts any bounded value for an empty schema, and says what it cannot express', () => {
    expect(toGrammarSchema({}, bounds)).toEqual({ oneOf: [{ type: 'string', maxLength: 50 }, { type: ['number', 'boolean', 'null'] }] });
    expect(() => toGrammarSchema({ allOf: [{ type: 'string' }, { type: 'number' }] }, bounds)).toThrow(/allOf with several schemas \(at # of the output schema\)/);
    expect(() => toGrammarSchema(false, bounds)).toThrow(/accepts nothing/);
  });
});

// Turns the JSON Schema of a judge step's `outputSchema` (as the AI SDK sends it in
// `responseFormat`) into the subset node-llama-cpp compiles into a grammar, so a local model can
// only emit objects of that shape. Two changes on the way: every string gets a `maxLength` and
// every array a `maxItems` when the schema sets none — a small model constrained to a shape can
// otherwise stay inside one string or list until the token limit, and the answer never closes —
// and objects hold their required properties and nothing else. Constraints a grammar cannot express
// (number ranges, patterns) are dropped here and still checked by the step's schema afterwards.
import type { JSONSchema7, JSONSchema7Definition } from '@ai-sdk/provider';

type JSONSchema7TypeName = Extract<JSONSchema7['type'], string>;

export type GrammarBounds = { maxStringLength: number; maxArrayItems: number };

/** A judge's reason in a few sentences, a verdict list of a long answer; at most ~1,500 tokens of JSON. */
export const defaultGrammarBounds: GrammarBounds = { maxStringLength: 240, maxArrayItems: 10 };

/** node-llama-cpp's GbnfJsonSchema, loosely typed (its own types are not installed with the project). */
export type GrammarSchema = { readonly [key: string]: unknown };

const basicTypes = new Set<string>(['string', 'number', 'integer', 'boolean', 'null']);

export function toGrammarSchema(schema: JSONSchema7Definition, bounds: GrammarBounds = defaultGrammarBounds): GrammarSchema {
  const definitions = { ...(typeof schema === 'object' ? { ...schema.definitions, ...schema.$defs } : {}) };
  const converted = convert(schema, bounds, '#');
  const names = Object.keys(definitions);
  if (names.length === 0) return converted;
  const $defs = Object.fromEntries(names.map((name) => [name, convert(definitions[name]!, bounds, `#/$defs/${name}`)]));
  return { ...converted, $defs };
}

function convert(schema: JSONSchema7Definition, bounds: GrammarBounds, path: string): GrammarSchema {
  if (schema === true || (typeof schema === 'object' && isEmptySchema(schema))) return anyValue(bounds);
  if (schema === false) throw unsupported(path, 'a schema that accepts nothing');
  const described = schema.description === undefined ? {} : { description: schema.description };
  if (schema.$ref !== undefined) return { $ref: schema.$ref.replace('#/definitions/', '#/$defs/'), ...described };
  if (schema.const !== undefined) return { const: schema.const, ...described };
  if (schema.enum !== undefined) return { enum: schema.enum, ...described };
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return { oneOf: alternatives.map((alternative, index) => convert(alternative, bounds, `${path}/anyOf/${index}`)), ...described };
  if (schema.allOf !== undefined) {
    if (schema.allOf.length === 1) return convert(schema.allOf[0]!, bounds, `${path}/allOf/0`);
    throw unsupported(path, 'allOf with several schemas');
  }
  if (Array.isArray(schema.type)) {
    return { oneOf: schema.type.map((type) => convert({ ...schema, type }, bounds, path)), ...described };
  }
  const type: JSONSchema7TypeName | undefined = schema.type ?? (schema.properties !== undefined ? 'object' : schema.items !== undefined ? 'array' : undefined);
  switch (type) {
    case 'object':
      return convertObject(schema, bounds, path, described);
    case 'array':
      return convertArray(schema, bounds, path, described);
    case 'string':
      if (schema.format === 'date-time' || schema.format === 'date' || schema.format === 'time') return { type, format: schema.format, ...described };
      return {
        type,
        ...(schema.minLength === undefined ? {} : { minLength: schema.minLength }),
        maxLength: schema.maxLength ?? Math.max(bounds.maxStringLength, schema.minLength ?? 0),
        ...described,
      };
    case undefined:
      return anyValue(bounds);
    default:
      if (basicTypes.has(type)) return { type, ...described };
      throw unsupported(path, `type '${type}'`);
  }
}

function convertObject(schema: JSONSchema7, bounds: GrammarBounds, path: string, described: object): GrammarSchema {
  // Optional properties are left out: an answer without them is valid, and a small model fills
  // every property it is offered (a classifier's optional `probabilities` came back as 100s where
  // the schema wants 0–1, a range no grammar enforces, and failed the step).
  const required = schema.required === undefined ? undefined : new Set(schema.required);
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {})
      .filter(([name]) => required === undefined || required.has(name))
      .map(([name, property]) => [name, convert(property, bounds, `${path}/properties/${name}`)]),
  );
  const extra = schema.additionalProperties;
  // A record (no declared properties) keeps its value schema; a declared shape allows nothing else.
  const additionalProperties = Object.keys(properties).length === 0 && extra !== undefined && extra !== false ? convert(extra, bounds, `${path}/additionalProperties`) : false;
  return {
    type: 'object',
    properties,
    ...(schema.required === undefined ? {} : { required: schema.required }),
    additionalProperties,
    ...(additionalProperties === false ? {} : { maxProperties: schema.maxProperties ?? bounds.maxArrayItems }),
    ...described,
  };
}

function convertArray(schema: JSONSchema7, bounds: GrammarBounds, path: string, described: object): GrammarSchema {
  const minItems = schema.minItems;
  const maxItems = schema.maxItems ?? Math.max(bounds.maxArrayItems, minItems ?? 0);
  if (Array.isArray(schema.items)) {
    return { type: 'array', prefixItems: schema.items.map((item, index) => convert(item, bounds, `${path}/items/${index}`)), ...(minItems === undefined ? {} : { minItems }), maxItems, ...described };
  }
  return {
    type: 'array',
    ...(schema.items === undefined ? {} : { items: convert(schema.items, bounds, `${path}/items`) }),
    ...(minItems === undefined ? {} : { minItems }),
    maxItems,
    ...described,
  };
}

function anyValue(bounds: GrammarBounds): GrammarSchema {
  return { oneOf: [{ type: 'string', maxLength: bounds.maxStringLength }, { type: ['number', 'boolean', 'null'] }] };
}

function isEmptySchema(schema: JSONSchema7): boolean {
  return Object.keys(schema).every((key) => key === '$schema' || key === 'description' || key === 'title');
}

function unsupported(path: string, what: string): Error {
  return new TypeError(`The local model's grammar cannot express ${what} (at ${path} of the output schema); simplify the step's outputSchema or use a judge on an OpenAI-compatible server.`);
}

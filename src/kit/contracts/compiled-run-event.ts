// The run event's decoding on the hot path, where the consumer owns the value JSON.parse just
// made: the contract's JSON Schema — generated from the zod schema, as schemas/ is — compiled by
// ajv validates the value, and what zod's output adds to validation is then done to that same
// value: unknown keys dropped where zod's object strips them (ajv's removeAdditional, on exactly
// those objects), each message's `createdAt` decoded to a Date, the two defaults set. No copy of
// the event is made. zod stays the contract: a value the compiled validator refuses is parsed by
// zod, whose problems are the dead letter's reason; before first use the two must agree on a
// probe that has every kind of object and every decoded field, or this path stays off; and a
// differential unit test holds them to the same verdicts and output over real and mutated events.
// Why: zod's output is a copy of the whole event, a fifth of what the service allocated per
// message, and without it the pipeline ran about a tenth faster (docs/benchmarks.md, 2026-12-04 night).
import { isDeepStrictEqual } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import type { AgentRunEvent } from './agent-run-event.ts';
import { agentRunEventSchema } from './agent-run-event.ts';

type JsonNode = Record<string, unknown>;

/** Keywords whose subschemas are alternatives: an object inside one cannot be stripped in place safely. */
const ALTERNATIVES = new Set(['anyOf', 'oneOf', 'not', 'if', 'then', 'else']);

/**
 * Marks every object zod strips (a plain `z.object`: properties, no `additionalProperties` in
 * the input-side schema; a loose object says `additionalProperties: {}`) as closed, so ajv's
 * `removeAdditional` drops its unknown keys as zod's output omits them, and refuses `__proto__`
 * in every other object. False when a stripped object sits inside a union, where ajv would strip
 * while trying a branch that then fails.
 */
function closeStrippedObjects(node: unknown, inAlternative: boolean): boolean {
  if (Array.isArray(node)) return node.every((item) => closeStrippedObjects(item, inAlternative));
  if (typeof node !== 'object' || node === null) return true;
  const schema = node as JsonNode;
  if (schema.type === 'object' && schema.properties !== undefined && !('additionalProperties' in schema)) {
    if (inAlternative) return false;
    schema.additionalProperties = false;
  } else if (schema.type === 'object') {
    // An object that keeps unknown keys must not have `__proto__`: JSON.parse makes it an own
    // property, which zod's copy drops, so such an event is left to zod (a closed object's
    // removeAdditional deletes it, as zod does).
    // A pattern, not `not: { const }`, which would build and drop an error object per key.
    schema.propertyNames = { type: 'string', pattern: '^(?!__proto__$)' };
  }
  for (const [keyword, child] of Object.entries(schema)) {
    if (!closeStrippedObjects(child, inAlternative || ALTERNATIVES.has(keyword))) return false;
  }
  return true;
}

type WireMessage = { createdAt: unknown; content: { parts: { type: unknown; details?: unknown }[] } };

/** zod's codec and default inside a message: `createdAt` to a Date, a reasoning part's `details` to []. */
function decodeMessages(messages: WireMessage[]): void {
  for (const message of messages) {
    message.createdAt = new Date(message.createdAt as string);
    for (const part of message.content.parts) if (part.type === 'reasoning' && part.details === undefined) part.details = [];
  }
}

function decodeInPlace(value: { input: { inputMessages: WireMessage[]; rememberedMessages: WireMessage[] }; output: WireMessage[]; requestContext?: unknown }): void {
  decodeMessages(value.input.inputMessages);
  decodeMessages(value.input.rememberedMessages);
  decodeMessages(value.output);
  if (value.requestContext === undefined) value.requestContext = {};
}

/**
 * The fields zod decodes or defaults, as paths over the input schema (`[]` an array item, `<kind>`
 * a union branch): what decodeInPlace does. A unit test walks the zod schema and fails when the
 * contract gains one this list does not name.
 */
export const DECODED_FIELDS = [
  'input.inputMessages[].createdAt',
  'input.rememberedMessages[].createdAt',
  'output[].createdAt',
  'input.inputMessages[].content.parts[]<reasoning>.details',
  'input.rememberedMessages[].content.parts[]<reasoning>.details',
  'output[].content.parts[]<reasoning>.details',
  'requestContext',
] as const;

/** An event with an unknown key on every object, every part kind and every default left out. */
function probeEvent(): Record<string, unknown> {
  const extra = { extraKey: { nested: [1, 'two'] } };
  const message = (id: string, role: string) => ({
    id,
    role,
    createdAt: '2025-03-01T10:00:00.000+01:00',
    ...extra,
    content: {
      format: 2,
      ...extra,
      parts: [
        { type: 'text', text: 'hello', ...extra },
        { type: 'reasoning', reasoning: 'think', ...extra },
        { type: 'reasoning', reasoning: 'think', details: [{ type: 'text', text: 't', ...extra }, { type: 'redacted', data: 'x' }] },
        { type: 'tool-invocation', toolInvocation: { toolCallId: 'c', toolName: 'n', args: {}, state: 'result', result: 1, ...extra }, ...extra },
        { type: 'step-start', ...extra },
        { type: 'source', source: { sourceType: 'url', id: 's', url: 'https://example.com', ...extra }, ...extra },
        { type: 'source-document', sourceId: 's', mediaType: 'text/plain', title: 't', ...extra },
        { type: 'file', mimeType: 'text/plain', data: 'x', ...extra },
        { type: 'error', error: { name: 'E', message: 'm', ...extra }, ...extra },
        { type: 'data-custom', data: { a: 1 }, ...extra },
      ],
      toolInvocations: [{ toolCallId: 'c', toolName: 'n', args: {}, state: 'call', ...extra }],
    },
  });
  return {
    schemaVersion: 1,
    type: 'agent.run.completed',
    runId: 'probe',
    timestamp: '2025-03-01T10:00:05.000Z',
    entity: { type: 'agent', id: 'a', ...extra },
    input: {
      inputMessages: [message('m1', 'user')],
      rememberedMessages: [message('m0', 'assistant')],
      systemMessages: [{ role: 'system', content: 'sys', ...extra }, { role: 'system', content: [{ type: 'text', text: 't', ...extra }] }],
      taggedSystemMessages: { memory: [{ role: 'system', content: 'm', ...extra }] },
      ...extra,
    },
    output: [message('m2', 'assistant')],
    metadata: { tenantId: 't', ...extra },
    usage: { inputTokens: 1, ...extra },
    error: { message: 'm', ...extra },
    missing: [{ part: 'answer', reason: 'r', ...extra }],
    trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', ...extra },
    ...extra,
  };
}

/**
 * zod's discriminated unions become a `oneOf` of objects each with a `const` tag: said as the
 * `discriminator` keyword, ajv goes straight to the branch the tag names, as zod does, instead of
 * trying every branch and building an error object for each that fails (allocated per part).
 */
function markDiscriminators(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) markDiscriminators(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as JsonNode;
  const branches = schema.oneOf;
  if (Array.isArray(branches) && branches.length > 1 && branches.every(isTaggedBranch)) {
    schema.discriminator = { propertyName: 'type' };
    // ajv's discriminator passes what is not an object (a part that is a string) where oneOf refused it.
    schema.type = 'object';
  }
  for (const child of Object.values(schema)) markDiscriminators(child);
}

function isTaggedBranch(branch: unknown): boolean {
  const schema = branch as JsonNode;
  const tag = (schema.properties as Record<string, JsonNode> | undefined)?.type;
  return schema.type === 'object' && Array.isArray(schema.required) && schema.required.includes('type') && typeof tag?.const === 'string';
}

function compile(): ValidateFunction | undefined {
  try {
    const schema = z.toJSONSchema(agentRunEventSchema, { io: 'input' }) as JsonNode;
    if (!closeStrippedObjects(schema, false)) return undefined;
    markDiscriminators(schema);
    delete schema.$schema;
    // Formats are zod's patterns, which the generated schema carries beside them: no format code.
    // strictNumbers: JSON.parse reads a literal beyond a double's range (1e400) as Infinity, which
    // zod's number refuses; ajv, with `strict` off, would otherwise accept it (and NaN).
    const validate = new Ajv2020({ strict: false, strictNumbers: true, validateFormats: false, removeAdditional: true, discriminator: true }).compile(schema);
    const probe = probeEvent();
    const expected = agentRunEventSchema.safeParse(structuredClone(probe));
    if (!expected.success || !validate(probe)) return undefined;
    decodeInPlace(probe as never);
    return isDeepStrictEqual(probe, expected.data) ? validate : undefined;
  } catch {
    // A zod or ajv this code does not know (zod is the user's peer dependency): zod alone decodes.
    return undefined;
  }
}

let compiled: ValidateFunction | null | undefined;

/** The compiled validator, made on first use; null when the fast path is off. */
function validator(): ValidateFunction | null {
  if (compiled === undefined) compiled = compile() ?? null;
  return compiled;
}

/** Whether run events are decoded by the compiled path (a unit test holds the shipped contract to it). */
export function compiledRunEventDecoding(): boolean {
  return validator() !== null;
}

/**
 * The run event `value` decoded in place, as zod's parse would return it; undefined when the
 * compiled validator refuses it (or is off), and then zod must parse it. `value` must be the
 * caller's own — fresh from JSON.parse, or built by the caller from its own objects, as the OTLP
 * input builds a run (src/engine/otlp/run-from-trace.ts) — and nothing else may hold its objects: the
 * unknown keys zod strips may be deleted from it even when undefined is returned (zod's verdict
 * and problems are the same without them), and on success its messages' `createdAt` are Dates. A
 * value JSON cannot hold where the contract reads one (a Date where the wire has a string, NaN) is
 * refused here and left to zod, which refuses it too; a property set to `undefined` is absent to
 * both.
 */
export function decodeOwnedRunEvent(value: unknown): AgentRunEvent | undefined {
  const validate = validator();
  if (validate === null) return undefined;
  try {
    if (!validate(value)) return undefined;
  } catch {
    // Generated code meeting a value it did not expect is zod's to judge, not a failed message.
    return undefined;
  }
  decodeInPlace(value as never);
  return value as AgentRunEvent;
}

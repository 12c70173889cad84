// The compiled run-event path against zod, the contract: over every real event the project has
// (the sample traffic, the contract fixture, the runs mapped from every framework's captured OTLP)
// and thousands of mutants of them, the compiled path must never accept what zod refuses, must
// accept what zod accepts, and must hand back what zod's parse hands back.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { agentRunEventSchema } from '../../../../../src/kit/contracts/agent-run-event.ts';
import { DECODED_FIELDS, compiledRunEventDecoding, decodeOwnedRunEvent } from '../../../../../src/kit/contracts/compiled-run-event.ts';
import { decodeAgentRunEvent, parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import { runsFromTrace } from '../../../../../src/engine/otlp/run-from-trace.ts';
import { createSampleRunGenerator } from '../../../../../producers/sample/index.ts';
import { fixtureManifest, fixtureTraces } from '../../../../helpers/framework-fixtures.ts';
import { wireRunEvent } from './fixtures.ts';

/** Every real event the project has, as JSON text. */
function corpus(): string[] {
  const texts = [JSON.stringify(wireRunEvent())];
  for (const seed of ['compiled-a', 'compiled-b', 'compiled-c']) {
    const generator = createSampleRunGenerator({ seed, sampledRatio: 1 });
    for (let index = 0; index < 400; index += 1) texts.push(JSON.stringify(generator.next().event));
  }
  for (const entry of fixtureManifest()) {
    for (const run of fixtureTraces(entry.id).flatMap((spans) => runsFromTrace(spans))) texts.push(JSON.stringify(run.event));
  }
  return texts;
}

type Verdicts = { zod: ReturnType<typeof agentRunEventSchema.safeParse>; compiled: unknown };

function bothWays(text: string): Verdicts {
  return { zod: agentRunEventSchema.safeParse(JSON.parse(text)), compiled: decodeOwnedRunEvent(JSON.parse(text)) };
}

/** A small seeded generator, so a failing mutant can be found again. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Container = Record<string, unknown> | unknown[];

/** Every (container, key) of a JSON value, the root's own keys included. */
function slots(value: unknown, into: [Container, string | number][] = []): [Container, string | number][] {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      into.push([value, index]);
      slots(item, into);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      into.push([value as Record<string, unknown>, key]);
      slots(item, into);
    }
  }
  return into;
}

/** Written into the text as a number literal beyond a double's range, which JSON.parse reads as Infinity. */
const HUGE = '<huge number>';

const REPLACEMENTS: unknown[] = [
  null, '', 'x', -1, 0, 1.5, 2 ** 53, true, [], {}, [{}], { type: 'bogus' },
  'not-a-date', '2024-02-29T00:00:00Z', '2025-02-29T00:00:00Z', '2025-03-01T10:00:00', '2025-03-01t10:00:00z', '2025-03-01T10:00:00.123456+05:30',
  'user', 'assistant', 'system', 'signal', 'agent', 'workflow', 'text', 'reasoning', 'data-', 'data-x', 'result', 'call', 'question', 'answer', 2,
  HUGE,
];

function mutate(text: string, random: () => number): string {
  const value = JSON.parse(text) as unknown;
  const all = slots(value);
  const mutations = 1 + Math.floor(random() * 3);
  for (let step = 0; step < mutations; step += 1) {
    const [container, key] = all[Math.floor(random() * all.length)]!;
    const kind = random();
    if (kind < 0.25 && !Array.isArray(container)) delete container[key as string];
    else if (kind < 0.35 && !Array.isArray(container)) container[`extra${step}`] = REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)];
    // An own `__proto__` key, as JSON.parse makes one (assignment would set the prototype instead).
    else if (kind < 0.4 && !Array.isArray(container)) Object.defineProperty(container, '__proto__', { value: { polluted: true }, enumerable: true, writable: true, configurable: true });
    else (container as Record<string | number, unknown>)[key] = REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)];
  }
  return JSON.stringify(value).replaceAll(JSON.stringify(HUGE), () => (random() < 0.5 ? '1e400' : '-1e400'));
}

describe('the compiled run-event path', () => {
  it('is on for the shipped contract and zod', () => {
    expect(compiledRunEventDecoding()).toBe(true);
  });

  it('decodes every real event as zod does, to the same value', () => {
    const texts = corpus();
    expect(texts.length).toBeGreaterThan(1_200);
    for (const text of texts) {
      const { zod, compiled } = bothWays(text);
      expect(zod.success, text.slice(0, 200)).toBe(true);
      expect(isDeepStrictEqual(compiled, zod.data), text.slice(0, 200)).toBe(true);
    }
  });

  it('drops the unknown keys zod strips, keeps the ones its loose objects keep, and sets its defaults', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a wire event broken in place, path by path
    const event = wireRunEvent() as Record<string, any>;
    event.unknownTop = 1;
    event.entity.unknownEntity = 2;
    event.usage.unknownUsage = 3;
    event.input.unknownInput = 4;
    event.input.inputMessages[0].kept = 5;
    event.output[0].content.parts[1] = { type: 'reasoning', reasoning: 'no details', kept: 6 };
    delete event.requestContext;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read path by path
    const decoded = decodeOwnedRunEvent(JSON.parse(JSON.stringify(event))) as Record<string, any>;
    expect(decoded).toBeDefined();
    expect(decoded).not.toHaveProperty('unknownTop');
    expect(decoded.entity).not.toHaveProperty('unknownEntity');
    expect(decoded.usage).not.toHaveProperty('unknownUsage');
    expect(decoded.input).not.toHaveProperty('unknownInput');
    expect(decoded.input.inputMessages[0].kept).toBe(5);
    expect(decoded.input.inputMessages[0].createdAt).toEqual(new Date('2025-03-01T10:00:00.000Z'));
    expect(decoded.output[0].content.parts[1]).toEqual({ type: 'reasoning', reasoning: 'no details', kept: 6, details: [] });
    expect(decoded.requestContext).toEqual({});
    expect(isDeepStrictEqual(decoded, agentRunEventSchema.parse(JSON.parse(JSON.stringify(event))))).toBe(true);
  });

  it('over 6,000 mutants: never accepts what zod refuses, accepts what zod accepts but for a `__proto__` key, and decodes alike', { timeout: 30_000 }, () => {
    const texts = corpus();
    const random = seeded(Number(process.env.MUTANT_SEED ?? 20261204));
    let refused = 0;
    let leftToZod = 0;
    for (let index = 0; index < 6_000; index += 1) {
      const text = mutate(texts[Math.floor(random() * texts.length)]!, random);
      const { zod, compiled } = bothWays(text);
      const decoded = decodeAgentRunEvent(text);
      expect(decoded.success, `mutant ${index}: ${text}`).toBe(zod.success);
      if (!zod.success) {
        refused += 1;
        expect(compiled, `zod refuses mutant ${index}: ${text}`).toBeUndefined();
        continue;
      }
      // The service's whole path hands back zod's value, whichever decoded it.
      expect(decoded.success && isDeepStrictEqual(decoded.data, zod.data), `mutant ${index}: ${text}`).toBe(true);
      if (compiled === undefined) {
        // The one event the compiled path leaves to zod although zod accepts it: an own
        // `__proto__` key in an object that keeps unknown keys, which zod's copy drops.
        expect(text, `zod accepts mutant ${index}: ${text}`).toContain('"__proto__"');
        leftToZod += 1;
      } else {
        expect(isDeepStrictEqual(compiled, zod.data), `mutant ${index}: ${text}`).toBe(true);
      }
    }
    // The mutants must exercise every verdict, or the test proves nothing.
    expect(refused).toBeGreaterThan(1_000);
    expect(refused).toBeLessThan(5_000);
    expect(leftToZod).toBeGreaterThan(10);
  });

  it('refuses a number JSON.parse reads as Infinity, as zod does: the event is dead-lettered, not scored', () => {
    const text = JSON.stringify(wireRunEvent());
    for (const huge of ['1e400', '-1e400']) {
      // The last of two equal keys is the one JSON.parse keeps.
      const broken = `${text.slice(0, -1)},"durationMs":${huge}}`;
      const { zod, compiled } = bothWays(broken);
      expect(zod.success).toBe(false);
      expect(compiled).toBeUndefined();
      const decoded = decodeAgentRunEvent(broken);
      expect(decoded.success).toBe(false);
      if (!decoded.success) expect(decoded.problems.map((problem) => problem.path)).toContain('durationMs');
    }
  });

  it('treats what a built value can hold and JSON cannot as zod does: a Date or NaN refused, an undefined property absent', () => {
    const base = wireRunEvent() as unknown as { output: Record<string, unknown>[]; durationMs?: unknown; metadata?: Record<string, unknown> };
    const withDate = structuredClone(base);
    withDate.output[0]!.createdAt = new Date('2025-03-01T10:00:00Z');
    const withNaN = { ...structuredClone(base), durationMs: Number.NaN };
    for (const value of [withDate, withNaN]) {
      expect(agentRunEventSchema.safeParse(structuredClone(value)).success).toBe(false);
      expect(decodeOwnedRunEvent(structuredClone(value))).toBeUndefined();
    }
    const withUndefined = structuredClone(base);
    withUndefined.output[0]!.threadId = undefined;
    withUndefined.metadata = { ...withUndefined.metadata, note: undefined };
    const expected = agentRunEventSchema.safeParse(structuredClone(withUndefined));
    expect(expected.success).toBe(true);
    expect(isDeepStrictEqual(decodeOwnedRunEvent(withUndefined), expected.data)).toBe(true);
  });

  it("decodes the OTLP input's runs as they are built, in place, to zod's value (the compiled path, not zod's copy)", () => {
    let runs = 0;
    for (const entry of fixtureManifest()) {
      for (const run of fixtureTraces(entry.id).flatMap((spans) => runsFromTrace(spans))) {
        const expected = agentRunEventSchema.safeParse(structuredClone(run.event));
        expect(expected.success, entry.id).toBe(true);
        const compiled = decodeOwnedRunEvent(run.event);
        expect(compiled, `${entry.id}: the compiled path refused a built run`).toBe(run.event);
        expect(isDeepStrictEqual(compiled, expected.data), entry.id).toBe(true);
        runs += 1;
      }
    }
    // Every captured framework's trace holds at least one run.
    expect(runs).toBeGreaterThanOrEqual(fixtureManifest().length);
  });

  it("leaves a broken event's problems to zod: the dead letter's reason is unchanged", () => {
    const event = { ...wireRunEvent(), runId: '', timestamp: 'soon', unknownTop: true };
    const text = JSON.stringify(event);
    const decoded = decodeAgentRunEvent(text);
    const parsed = parseAgentRunEvent(JSON.parse(text));
    expect(decoded.success).toBe(false);
    expect(parsed.success).toBe(false);
    if (!decoded.success && !parsed.success) expect(decoded.problems).toEqual(parsed.problems);
  });

  it('does what zod decodes and defaults, and the contract decodes nothing else', () => {
    expect(decodedPaths(agentRunEventSchema).sort()).toEqual([...DECODED_FIELDS].sort());
  });
});

/** What the walk reads of zod's internal definition of a schema: each kind names its children differently. */
type ZodDef = { type: string; innerType: z.ZodType; shape: Record<string, z.ZodType>; element: z.ZodType; valueType: z.ZodType; options: z.ZodType[] };

const defOf = (schema: z.ZodType): ZodDef => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The literal `type` of an object branch of a union (`reasoning`), if it has one. */
function branchKind(option: z.ZodType): string | undefined {
  const type = defOf(option).shape?.type;
  const values = type === undefined ? undefined : (defOf(type) as unknown as { values?: unknown[] }).values;
  return typeof values?.[0] === 'string' ? values[0] : undefined;
}

/** The paths under `schema` where zod's output is not its input: codecs, transforms, defaults. */
function decodedPaths(schema: z.ZodType, path = ''): string[] {
  const def = defOf(schema);
  const join = (key: string) => (path === '' ? key : `${path}.${key}`);
  switch (def.type) {
    case 'pipe':
    case 'transform':
    case 'default':
    case 'prefault':
    case 'catch':
      return [path];
    case 'optional':
    case 'nullable':
    case 'readonly':
      return decodedPaths(def.innerType, path);
    case 'object':
      return Object.entries(def.shape).flatMap(([key, child]) => decodedPaths(child, join(key)));
    case 'array':
      return decodedPaths(def.element, `${path}[]`);
    case 'record':
      return decodedPaths(def.valueType, `${path}{}`);
    case 'union':
      return def.options.flatMap((option) => {
        const kind = branchKind(option);
        return decodedPaths(option, kind === undefined ? path : `${path}<${kind}>`);
      });
    case 'lazy':
    case 'intersection':
    case 'tuple':
    case 'map':
    case 'set':
    case 'promise':
    case 'function':
      throw new Error(`decodedPaths does not walk a ${def.type} (at ${path}): teach it, and the compiled path, what it decodes`);
    default:
      return [];
  }
}

// Redaction over JSON values: every string and key, what JSON.stringify would write, unchanged
// parts kept as the same objects, and cycles left for the serialiser to refuse.
import { describe, expect, it } from 'vitest';
import { redactValue } from '../../../../../src/engine/data-handling/redact-value.ts';

const redact = (text: string) => text.replaceAll('secret', '[x]');

describe('redactValue', () => {
  it('redacts strings at any depth, in arrays and in keys, and leaves other values', () => {
    const value = { a: 'a secret', nested: { list: ['secret', 1, true, null], secretKey: 2 }, n: 3 };
    expect(redactValue(value, redact)).toEqual({ a: 'a [x]', nested: { list: ['[x]', 1, true, null], '[x]Key': 2 }, n: 3 });
  });

  it('keeps the order of keys when one changes', () => {
    const redacted = redactValue({ first: 1, second: 'secret', third: 3 }, redact);
    expect(Object.keys(redacted)).toEqual(['first', 'second', 'third']);
  });

  it('returns the same objects where nothing changed (no copies of a clean record)', () => {
    const clean = { a: 'plain', nested: { list: ['x'] } };
    expect(redactValue(clean, redact)).toBe(clean);
    const mixed = { dirty: 'secret', clean: { list: ['x'] } };
    expect(redactValue(mixed, redact).clean).toBe(mixed.clean);
  });

  it('walks what JSON.stringify writes: toJSON results and class instances’ own properties', () => {
    class Result {
      note = 'a secret';
    }
    const withJson = { toJSON: () => ({ inner: 'secret' }) };
    expect(JSON.stringify(redactValue({ result: new Result(), withJson, date: new Date(0) }, redact))).toBe('{"result":{"note":"a [x]"},"withJson":{"inner":"[x]"},"date":"1970-01-01T00:00:00.000Z"}');
  });

  it('leaves a cycle as it is, so the serialiser refuses it as before', () => {
    const cyclic: Record<string, unknown> = { text: 'secret' };
    cyclic.self = cyclic;
    const redacted = redactValue(cyclic, redact) as Record<string, unknown>;
    expect(redacted.text).toBe('[x]');
    expect(() => JSON.stringify(redacted)).toThrow(/circular/i);
  });

  it('redacts a string however deep it sits, past the depth below which nothing is tracked', () => {
    let deep: unknown = { text: 'a secret' };
    for (let level = 0; level < 300; level += 1) deep = level % 2 === 0 ? { child: deep } : [deep];
    expect(JSON.stringify(redactValue(deep, redact))).toBe(JSON.stringify(deep).replace('a secret', 'a [x]'));
  });

  it('stops at a cycle that starts deep down', () => {
    const loop: Record<string, unknown> = { text: 'secret' };
    loop.next = { back: loop };
    let deep: unknown = loop;
    for (let level = 0; level < 100; level += 1) deep = { child: deep };
    expect(() => JSON.stringify(redactValue(deep, redact))).toThrow(/circular/i);
  });

  it("keeps a '__proto__' key (JSON.parse makes it an own property) as an own property, never the prototype", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": "secret"}, "note": "secret"}') as object;
    const redacted = redactValue(parsed, redact);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(JSON.stringify(redacted)).toBe('{"__proto__":{"polluted":"[x]"},"note":"[x]"}');
  });
});

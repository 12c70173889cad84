import { describe, expect, it } from 'vitest';
import { isJsonCompatible, isPlainObject } from '../../../../../src/kit/classifier/json.ts';

describe('isJsonCompatible', () => {
  it.each([
    null,
    'text',
    '',
    0,
    -1.5,
    true,
    [],
    {},
    { a: [1, 'b', { c: null }] },
    Object.create(null) as object,
  ])('accepts %j', (value) => {
    expect(isJsonCompatible(value)).toBe(true);
  });

  it('accepts a value shared by two keys (no cycle)', () => {
    const shared = { x: 1 };
    expect(isJsonCompatible({ a: shared, b: [shared, shared] })).toBe(true);
  });

  it.each([
    ['undefined', undefined],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a bigint', 1n],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['a Date', new Date()],
    ['a Map', new Map()],
    ['a class instance', new (class Thing {})()],
    ['an undefined property', { a: undefined }],
    ['a nested NaN', { a: [{ b: Number.NaN }] }],
    ['an array hole', [1, , 3]], // eslint-disable-line no-sparse-arrays
  ])('rejects %s', (_label, value) => {
    expect(isJsonCompatible(value)).toBe(false);
  });

  it('rejects cycles', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const list: unknown[] = [];
    list.push(list);
    expect(isJsonCompatible(cyclic)).toBe(false);
    expect(isJsonCompatible(list)).toBe(false);
  });
});

describe('isPlainObject', () => {
  it('tells plain objects from arrays, null and instances', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject(new Date())).toBe(false);
  });
});

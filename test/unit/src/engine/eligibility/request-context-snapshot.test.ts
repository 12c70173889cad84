import { describe, expect, it } from 'vitest';
import {
  REQUEST_CONTEXT_AUTH_TOKEN_KEY,
  snapshotRequestContext,
} from '../../../../../src/engine/eligibility/request-context-snapshot.ts';

describe('snapshotRequestContext', () => {
  it('keeps strings, booleans and finite numbers of a plain object', () => {
    expect(snapshotRequestContext({ tier: 'gold', beta: true, count: 3, zero: 0, empty: '' })).toEqual({
      tier: 'gold',
      beta: true,
      count: 3,
      zero: 0,
      empty: '',
    });
  });

  it('reads anything with an entries() iterator (Map, RequestContext-like)', () => {
    expect(snapshotRequestContext(new Map<unknown, unknown>([['tier', 'gold'], ['n', 1], [7, 'non-string key']]))).toEqual({ tier: 'gold', n: 1 });
    const requestContextLike = {
      get: () => undefined,
      set: () => undefined,
      entries: () => [['user', { id: 'u1' }]][Symbol.iterator](),
    };
    expect(snapshotRequestContext(Object.create(requestContextLike))).toEqual({ 'user.id': 'u1' });
  });

  it('flattens nested plain objects to dotted keys', () => {
    expect(snapshotRequestContext({ user: { tier: 'gold', org: { id: 'o1' } } })).toEqual({ 'user.tier': 'gold', 'user.org.id': 'o1' });
  });

  it('flattens up to 8 key segments and drops deeper values', () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: 'eight', i: { j: 'nine' } } } } } } } } };
    expect(snapshotRequestContext(deep)).toEqual({ 'a.b.c.d.e.f.g.h': 'eight' });
  });

  it('drops arrays, buffers, typed arrays, functions, null, undefined, NaN, Infinity, Dates, Maps, bigints and symbols', () => {
    const dropped = {
      array: [1, 2],
      buffer: Buffer.from('x'),
      typed: new Uint8Array(2),
      fn: () => 1,
      nul: null,
      undef: undefined,
      nan: Number.NaN,
      inf: Number.POSITIVE_INFINITY,
      negInf: Number.NEGATIVE_INFINITY,
      date: new Date(0),
      map: new Map([['a', 1]]),
      big: 1n,
      sym: Symbol('s'),
      kept: 'yes',
    };
    expect(snapshotRequestContext(dropped)).toEqual({ kept: 'yes' });
  });

  it('drops cycles without looping', () => {
    const context: Record<string, unknown> = { name: 'n' };
    const child: Record<string, unknown> = { id: 'c' };
    context.self = context;
    context.child = child;
    child.parent = context;
    child.itself = child;
    expect(snapshotRequestContext(context)).toEqual({ name: 'n', 'child.id': 'c' });
  });

  it('keeps a shared (non-cyclic) object under every key that refers to it', () => {
    const shared = { v: 1 };
    expect(snapshotRequestContext({ a: shared, b: shared })).toEqual({ 'a.v': 1, 'b.v': 1 });
  });

  it(`never includes the auth token key (${REQUEST_CONTEXT_AUTH_TOKEN_KEY}), at the top or nested`, () => {
    expect(REQUEST_CONTEXT_AUTH_TOKEN_KEY).toBe('mastra__authToken');
    const map = new Map<string, unknown>([[REQUEST_CONTEXT_AUTH_TOKEN_KEY, 'secret'], ['ok', 1]]);
    expect(snapshotRequestContext(map)).toEqual({ ok: 1 });
    expect(snapshotRequestContext({ nested: { [REQUEST_CONTEXT_AUTH_TOKEN_KEY]: 'secret', ok: 2 } })).toEqual({ 'nested.ok': 2 });
  });

  it('returns {} for values that are not a context', () => {
    for (const value of [undefined, null, 'text', 42, [['a', 1]], new Date()]) {
      expect(snapshotRequestContext(value)).toEqual({});
    }
  });

  it('lets the later entry win when two flatten to the same key', () => {
    expect(snapshotRequestContext({ 'user.tier': 'flat', user: { tier: 'nested' } })).toEqual({ 'user.tier': 'nested' });
  });

  it('stores a __proto__ key as data without touching the prototype', () => {
    const snapshot = snapshotRequestContext(JSON.parse('{"__proto__": "x", "a": 1}'));
    expect(Object.getPrototypeOf(snapshot)).toBe(Object.prototype);
    expect(Object.hasOwn(snapshot, '__proto__')).toBe(true);
    expect(snapshot.a).toBe(1);
  });

  it('keeps what it read when entries() or an iterator throws', () => {
    const throwing = {
      entries() {
        throw new Error('boom');
      },
    };
    expect(snapshotRequestContext(throwing)).toEqual({});
    function* partial(): Generator<[string, unknown]> {
      yield ['a', 1];
      throw new Error('boom');
    }
    expect(snapshotRequestContext({ __proto__: { entries: partial } })).toEqual({ a: 1 });
  });

  it('returns a fresh object and leaves the input alone', () => {
    const input = { a: 1 };
    const snapshot = snapshotRequestContext(input);
    expect(snapshot).not.toBe(input);
    snapshot.a = 2;
    expect(input.a).toBe(1);
  });
});

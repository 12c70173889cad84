import { describe, expect, it } from 'vitest';
import { compilePath, MISSING, parsePath, unwrapPath } from '../../../../../src/engine/eligibility/predicate-paths.ts';

const resolve = (path: string, context: unknown) => compilePath(parsePath(path)!)(context);

describe('parsePath / unwrapPath', () => {
  it('accepts a.b and ${a.b} alike', () => {
    expect(parsePath('requestContext.user.tier')).toEqual({ root: 'requestContext', rest: ['user', 'tier'] });
    expect(parsePath('${requestContext.user.tier}')).toEqual({ root: 'requestContext', rest: ['user', 'tier'] });
    expect(unwrapPath('${ entity.id }')).toBe('entity.id');
  });

  it('refuses empty paths and empty segments', () => {
    for (const path of ['', '${}', 'a..b', '.a', 'a.']) expect(parsePath(path)).toBeUndefined();
  });
});

describe('compilePath (resolution)', () => {
  it('reads a root value', () => {
    expect(resolve('threadId', { threadId: 't1' })).toBe('t1');
  });

  it('tries the flat dotted key first under requestContext', () => {
    const context = { requestContext: { 'user.tier': 'flat', user: { tier: 'nested' } } };
    expect(resolve('requestContext.user.tier', context)).toBe('flat');
  });

  it('falls back to nested traversal under requestContext', () => {
    expect(resolve('requestContext.user.tier', { requestContext: { user: { tier: 'nested' } } })).toBe('nested');
  });

  it('does not try flat keys under other roots', () => {
    expect(resolve('metadata.a.b', { metadata: { 'a.b': 1 } })).toBe(MISSING);
    expect(resolve('metadata.a.b', { metadata: { a: { b: 1 } } })).toBe(1);
  });

  it('walks own properties only', () => {
    const inherited = Object.create({ tier: 'gold' }) as Record<string, unknown>;
    expect(resolve('requestContext.tier', { requestContext: inherited })).toBe(MISSING);
    expect(resolve('entity.toString', { entity: {} })).toBe(MISSING);
    expect(resolve('entity.constructor', { entity: {} })).toBe(MISSING);
    expect(resolve('threadId', Object.create({ threadId: 't' }))).toBe(MISSING);
  });

  it('is MISSING for a missing root or segment, and for undefined values', () => {
    expect(resolve('threadId', {})).toBe(MISSING);
    expect(resolve('entity.name', { entity: { id: 'a' } })).toBe(MISSING);
    expect(resolve('threadId', { threadId: undefined })).toBe(MISSING);
  });

  it('is MISSING for a scalar root with a sub-path', () => {
    expect(resolve('entityType.length', { entityType: 'AGENT' })).toBe(MISSING);
    expect(resolve('requestContext.a.b', { requestContext: { a: 5 } })).toBe(MISSING);
  });

  it('keeps null as a value (not MISSING)', () => {
    expect(resolve('metadata.owner', { metadata: { owner: null } })).toBeNull();
  });

  it('reaches into arrays by index (own properties)', () => {
    expect(resolve('metadata.tags.0', { metadata: { tags: ['a', 'b'] } })).toBe('a');
    expect(resolve('metadata.tags.length', { metadata: { tags: ['a'] } })).toBe(1);
  });

  it('never throws on odd contexts', () => {
    for (const context of [undefined, null, 'x', 3, []]) expect(resolve('requestContext.a.b', context)).toBe(MISSING);
  });
});

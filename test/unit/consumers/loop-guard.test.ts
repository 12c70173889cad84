// The loop guard: our own records (origin header) and run events about Scorestream's own work
// (metadata.source or the judge tag) are recognised; agent traffic is not.
import { describe, expect, it } from 'vitest';
import { isOwnOutput, isScorestreamRun, ORIGIN_HEADER, originHeaders, SCORESTREAM_RUN_TAG } from '../../../consumers/loop-guard.ts';

describe('isOwnOutput', () => {
  it('recognises the origin header, whatever its value or encoding', () => {
    expect(isOwnOutput({ [ORIGIN_HEADER]: Buffer.from('scorestream') })).toBe(true);
    expect(isOwnOutput({ [ORIGIN_HEADER]: 'anything' })).toBe(true);
    expect(isOwnOutput(originHeaders)).toBe(true);
  });

  it('lets messages without it through', () => {
    expect(isOwnOutput(undefined)).toBe(false);
    expect(isOwnOutput({})).toBe(false);
    expect(isOwnOutput({ traceparent: '00-abc', [`${ORIGIN_HEADER}-other`]: 'x' })).toBe(false);
  });

  it('shares one frozen set of headers for everything we publish', () => {
    expect(originHeaders).toEqual({ 'scorestream-origin': 'scorestream' });
    expect(Object.isFrozen(originHeaders)).toBe(true);
  });
});

describe('isScorestreamRun', () => {
  it("recognises metadata.source 'scorestream' and the judge tag", () => {
    expect(isScorestreamRun({ source: 'scorestream' })).toBe(true);
    expect(isScorestreamRun({ tags: ['x', SCORESTREAM_RUN_TAG] })).toBe(true);
    expect(SCORESTREAM_RUN_TAG).toBe('scorestream:judge');
  });

  it('lets agent runs through', () => {
    expect(isScorestreamRun(undefined)).toBe(false);
    expect(isScorestreamRun({})).toBe(false);
    expect(isScorestreamRun({ source: 'support-agent', tags: ['scorestream'] })).toBe(false);
    expect(isScorestreamRun({ tags: 'scorestream:judge' as unknown as string[] })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { threadKeyFor, threadScoreIdFor, threadScoreViewKeyFor, threadVersionIdFor } from '../../../../../src/kit/contracts/thread-ids.ts';
import { scoreIdFor } from '../../../../../src/kit/contracts/score-id.ts';

const uuidV8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('threadKeyFor', () => {
  it('is the tenant and the thread id, so two tenants keep two threads 42', () => {
    expect(threadKeyFor('acme', '42')).toBe('acme:42');
    expect(threadKeyFor('globex', '42')).not.toBe(threadKeyFor('acme', '42'));
    expect(threadKeyFor(undefined, '42')).toBe(':42');
  });

  it('cannot be spelled by another (tenant, thread) pair: the tenant is percent-encoded', () => {
    expect(threadKeyFor('a:b', 'c')).toBe('a%3Ab:c');
    expect(threadKeyFor('a:b', 'c')).not.toBe(threadKeyFor('a', 'b:c'));
    expect(threadKeyFor('', '42')).toBe(threadKeyFor(undefined, '42'));
  });
});

describe('threadVersionIdFor', () => {
  it('is derived from the set of run ids: order and repeats do not matter', () => {
    const id = threadVersionIdFor('acme:42', ['run-1', 'run-2', 'run-3']);
    expect(id).toMatch(uuidV8);
    expect(threadVersionIdFor('acme:42', ['run-3', 'run-1', 'run-2', 'run-1'])).toBe(id);
  });

  it('differs for another set of turns or another thread', () => {
    const id = threadVersionIdFor('acme:42', ['run-1', 'run-2']);
    expect(threadVersionIdFor('acme:42', ['run-1', 'run-2', 'run-3'])).not.toBe(id);
    expect(threadVersionIdFor('acme:43', ['run-1', 'run-2'])).not.toBe(id);
    // Length-prefixed parts: a shifted boundary between run ids is another set.
    expect(threadVersionIdFor('acme:42', ['a', 'bc'])).not.toBe(threadVersionIdFor('acme:42', ['ab', 'c']));
  });

  it('pins the algorithm, so version ids stay stable across releases', () => {
    expect(threadVersionIdFor('acme:42', ['run-1', 'run-2'])).toBe(threadVersionIdFor('acme:42', ['run-2', 'run-1']));
    expect(threadVersionIdFor('acme:42', ['run-1', 'run-2'])).toBe('7515ceb1-dac5-82b2-9ac0-e086d1cc3b51');
  });
});

describe('threadScoreIdFor', () => {
  const parts = { threadKey: 'acme:42', scorerId: 'conversation-resolution', scorerVersion: '1', versionId: threadVersionIdFor('acme:42', ['run-1']) };

  it('is one id per (thread, scorer, scorer version, thread version)', () => {
    const id = threadScoreIdFor(parts);
    expect(id).toMatch(uuidV8);
    expect(threadScoreIdFor({ ...parts })).toBe(id);
    expect(threadScoreIdFor({ ...parts, threadKey: 'globex:42' })).not.toBe(id);
    expect(threadScoreIdFor({ ...parts, scorerId: 'user-frustration' })).not.toBe(id);
    expect(threadScoreIdFor({ ...parts, scorerVersion: '2' })).not.toBe(id);
    expect(threadScoreIdFor({ ...parts, scorerVersion: undefined })).not.toBe(id);
    expect(threadScoreIdFor({ ...parts, versionId: threadVersionIdFor('acme:42', ['run-1', 'run-2']) })).not.toBe(id);
  });

  it('never equals a run score id with the same parts (its own domain)', () => {
    expect(threadScoreIdFor({ threadKey: 'r', scorerId: 's', versionId: 'v' })).not.toBe(scoreIdFor({ runId: 'r', scorerId: 's' }));
  });
});

describe('threadScoreViewKeyFor', () => {
  it('keys the latest view by thread, scorer and scorer version, partitioned by the thread', () => {
    const view = threadScoreViewKeyFor({ threadKey: 'acme:42', scorerId: 'user-frustration' });
    expect(view.partitionKey).toBe('acme:42');
    expect(view.key).toMatch(uuidV8);
    expect(threadScoreViewKeyFor({ threadKey: 'acme:42', scorerId: 'user-frustration' }).key).toBe(view.key);
    expect(threadScoreViewKeyFor({ threadKey: 'acme:42', scorerId: 'user-frustration', scorerVersion: '2' }).key).not.toBe(view.key);
    expect(threadScoreViewKeyFor({ threadKey: 'acme:43', scorerId: 'user-frustration' }).key).not.toBe(view.key);
  });
});

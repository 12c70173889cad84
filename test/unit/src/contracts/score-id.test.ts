import { describe, expect, it } from 'vitest';
import { scoreIdFor } from '../../../../src/contracts/score-id.ts';

const uuidV8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('scoreIdFor', () => {
  it('is a UUID-shaped (version 8) value', () => {
    expect(scoreIdFor({ runId: 'run-1', scorerId: 'completeness' })).toMatch(uuidV8);
  });

  it('is deterministic', () => {
    expect(scoreIdFor({ runId: 'run-1', scorerId: 's', scorerVersion: '1' })).toBe(scoreIdFor({ runId: 'run-1', scorerId: 's', scorerVersion: '1' }));
  });

  it('pins the algorithm, so ids stay stable across releases', () => {
    expect(scoreIdFor({ runId: 'run-1', scorerId: 'completeness', scorerVersion: '1' })).toBe('2967d196-b6aa-845d-9451-302fde375641');
  });

  it('differs when any part differs', () => {
    const base = scoreIdFor({ runId: 'run-1', scorerId: 's', scorerVersion: '1' });
    expect(scoreIdFor({ runId: 'run-2', scorerId: 's', scorerVersion: '1' })).not.toBe(base);
    expect(scoreIdFor({ runId: 'run-1', scorerId: 't', scorerVersion: '1' })).not.toBe(base);
    expect(scoreIdFor({ runId: 'run-1', scorerId: 's', scorerVersion: '2' })).not.toBe(base);
  });

  it('does not confuse shifted boundaries between parts', () => {
    expect(scoreIdFor({ runId: 'a', scorerId: 'bc' })).not.toBe(scoreIdFor({ runId: 'ab', scorerId: 'c' }));
    expect(scoreIdFor({ runId: 'a', scorerId: 'b', scorerVersion: 'c' })).not.toBe(scoreIdFor({ runId: 'a', scorerId: 'bc' }));
  });

  it('tells an absent version from an empty one', () => {
    expect(scoreIdFor({ runId: 'r', scorerId: 's' })).not.toBe(scoreIdFor({ runId: 'r', scorerId: 's', scorerVersion: '' }));
    expect(scoreIdFor({ runId: 'r', scorerId: 's', scorerVersion: undefined })).toBe(scoreIdFor({ runId: 'r', scorerId: 's' }));
  });

  it('counts multi-byte characters by bytes', () => {
    expect(scoreIdFor({ runId: 'é', scorerId: 'x' })).not.toBe(scoreIdFor({ runId: 'e', scorerId: 'x' }));
  });
});

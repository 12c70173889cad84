import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deterministicId } from '../../../../../src/kit/contracts/deterministic-id.ts';
import { scoreIdFor } from '../../../../../src/kit/contracts/score-id.ts';

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

  it('is the first 16 bytes of SHA-256 with the version and variant bits set, for every variant digit', () => {
    // The bytes as RFC 9562 describes them, from a Hash object: what the id's text must say.
    const reference = (domain: string, parts: (string | undefined)[]) => {
      const field = (value: string | undefined) => (value === undefined ? '-' : `${Buffer.byteLength(value)}:${value}`);
      const bytes = createHash('sha256').update([domain, ...parts].map(field).join('')).digest().subarray(0, 16);
      bytes[6] = (bytes[6]! & 0x0f) | 0x80;
      bytes[8] = (bytes[8]! & 0x3f) | 0x80;
      const hex = bytes.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    const variants = new Set<string>();
    for (let index = 0; index < 400; index += 1) {
      const parts = [`run-${index}`, index % 3 === 0 ? undefined : `scorer-é-${index}`, String(index * 7)];
      const id = deterministicId('scorestream.test.v1', parts);
      expect(id).toBe(reference('scorestream.test.v1', parts));
      variants.add(id[19]!);
    }
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { replayGroupId, replayId, replayProgress, replayTimeOf } from '../../../service/replay-range.ts';

const request = { groupId: 'scorestream', topic: 'agent-runs', from: replayTimeOf(new Date('2026-12-01T00:00:00Z')), scorers: ['b', 'a'] };

describe('a replay’s identity', () => {
  it('is deterministic from what it replays: the same command continues the same replay', () => {
    expect(replayId(request)).toMatch(/^replay-[0-9a-f]{12}$/);
    expect(replayId({ ...request, scorers: ['a', 'b'] })).toBe(replayId(request));
    expect(replayId({ ...request, to: replayTimeOf(new Date('2026-12-01T01:00:00Z')) })).not.toBe(replayId(request));
    // A relative time by its words: the same command later is the same replay; another duration is another.
    const tenMinutes = (at: string) => ({ ...request, from: { spec: '10m ago', at: new Date(at) } });
    expect(replayId(tenMinutes('2026-12-01T10:00:00Z'))).toBe(replayId(tenMinutes('2026-12-02T18:30:00Z')));
    expect(replayId({ ...request, from: { spec: '20m ago', at: new Date('2026-12-01T10:00:00Z') } })).not.toBe(replayId(tenMinutes('2026-12-01T10:00:00Z')));
    // An absolute time keeps the id it had before times were named.
    expect(replayId(request)).toBe('replay-' + createHash('sha256').update(JSON.stringify(['scorestream', 'agent-runs', '2026-12-01T00:00:00.000Z', null, ['a', 'b']])).digest('hex').slice(0, 12));
    expect(replayId({ ...request, id: 'backfill-december' })).toBe('backfill-december');
    expect(replayId({ ...request, scorers: ['a'] })).not.toBe(replayId(request));
    expect(replayId({ ...request, groupId: 'other' })).not.toBe(replayId(request));
    expect(replayGroupId(request)).toBe(`scorestream.${replayId(request)}`);
  });
});

describe('replay progress', () => {
  const range = { id: 'r', groupId: 'g', total: 15, partitions: [{ partition: 0, start: 10, end: 20 }, { partition: 1, start: 5, end: 10 }, { partition: 2, start: 7, end: 7 }] };

  it('counts committed runs within each partition’s range and finishes when every partition reached its end', () => {
    expect(replayProgress(range, new Map())).toEqual({ done: 0, total: 15, finished: false });
    expect(replayProgress(range, new Map([[0, 15], [1, 10]]))).toEqual({ done: 10, total: 15, finished: false });
    expect(replayProgress(range, new Map([[0, 25], [1, 10]]))).toEqual({ done: 15, total: 15, finished: true });
  });
});

import { describe, expect, it } from 'vitest';
import { replayGroupId, replayId, replayProgress } from '../../../service/replay-range.ts';

const request = { groupId: 'scorestream', topic: 'agent-runs', from: new Date('2026-12-01T00:00:00Z'), scorers: ['b', 'a'] };

describe('a replay’s identity', () => {
  it('is deterministic from what it replays: the same command continues the same replay', () => {
    expect(replayId(request)).toMatch(/^replay-[0-9a-f]{12}$/);
    expect(replayId({ ...request, scorers: ['a', 'b'] })).toBe(replayId(request));
    expect(replayId({ ...request, to: new Date('2026-12-01T01:00:00Z') })).not.toBe(replayId(request));
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

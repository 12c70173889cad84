import { describe, expect, it } from 'vitest';
import { BoundedSet } from '../../../dashboard/bounded-set.ts';
import { RecordRing } from '../../../dashboard/record-ring.ts';
import { summarize } from '../../../dashboard/record-summary.ts';
import { RunIndex } from '../../../dashboard/run-index.ts';
import { scoreRecord } from '../../helpers/dashboard-records.ts';

const entry = (scoreId: string, bytes = 100) => {
  const record = scoreRecord({ status: 'scored', score: 0.5 }, { scoreId });
  return { record, summary: summarize(record, undefined), bytes };
};

describe('RecordRing', () => {
  it('keeps at most maxRecords, the oldest out first', () => {
    const ring = new RecordRing(3, 1_000_000);
    for (const id of ['a', 'b', 'c', 'd', 'e']) ring.add(entry(id));
    expect(ring.size).toBe(3);
    expect(ring.recent(10).map((summary) => summary.scoreId)).toEqual(['c', 'd', 'e']);
    expect(ring.get('a')).toBeUndefined();
  });

  it('keeps at most maxBytes of records', () => {
    const ring = new RecordRing(100, 250);
    for (const id of ['a', 'b', 'c', 'd']) ring.add(entry(id, 100));
    expect(ring.bytes).toBe(200);
    expect(ring.recent(10).map((summary) => summary.scoreId)).toEqual(['c', 'd']);
  });

  it('replaces a record arriving again with the same scoreId instead of keeping both', () => {
    const ring = new RecordRing(10, 1_000_000);
    ring.add(entry('a', 100));
    ring.add(entry('a', 150));
    expect(ring.size).toBe(1);
    expect(ring.bytes).toBe(150);
  });

  it('returns the newest summaries up to the limit', () => {
    const ring = new RecordRing(10, 1_000_000);
    for (const id of ['a', 'b', 'c']) ring.add(entry(id));
    expect(ring.recent(2).map((summary) => summary.scoreId)).toEqual(['b', 'c']);
  });
});

describe('RunIndex', () => {
  it('keeps at most maxRuns, the least recently touched out first', () => {
    const index = new RunIndex(2, 10);
    index.add('run-1', { kind: 'decision', scorer: 's', reason: 'sampling', at: 1 });
    index.add('run-2', { kind: 'decision', scorer: 's', reason: 'sampling', at: 1 });
    index.add('run-1', { kind: 'decision', scorer: 't', reason: 'filter', at: 2 });
    index.add('run-3', { kind: 'decision', scorer: 's', reason: 'sampling', at: 3 });
    expect(index.size).toBe(2);
    expect(index.get('run-2')).toBeUndefined();
    expect(index.get('run-1')).toHaveLength(2);
  });

  it('keeps at most maxEntriesPerRun entries and one per score id', () => {
    const index = new RunIndex(10, 2);
    index.add('run-1', { kind: 'score', scoreId: 'a', scorer: 's', status: 'failed', detail: '', at: 1 });
    index.add('run-1', { kind: 'score', scoreId: 'a', scorer: 's', status: 'scored', score: 1, detail: '', at: 2 });
    index.add('run-1', { kind: 'score', scoreId: 'b', scorer: 't', status: 'scored', score: 1, detail: '', at: 2 });
    index.add('run-1', { kind: 'score', scoreId: 'c', scorer: 'u', status: 'scored', score: 1, detail: '', at: 2 });
    expect(index.get('run-1')!.map((item) => (item.kind === 'score' ? `${item.scoreId}:${item.status}` : ''))).toEqual(['a:scored', 'b:scored']);
  });
});

describe('BoundedSet', () => {
  it('tells a duplicate and forgets the oldest key past its capacity', () => {
    const set = new BoundedSet(2);
    expect(set.add('a')).toBe(true);
    expect(set.add('a')).toBe(false);
    set.add('b');
    set.add('c');
    expect(set.size).toBe(2);
    expect(set.add('a')).toBe(true);
  });
});

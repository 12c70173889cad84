import { describe, expect, it } from 'vitest';
import type { DashboardEvent } from '../../../dashboard/dashboard-event.ts';
import type { DashboardLimits } from '../../../dashboard/dashboard-limits.ts';
import { DEFAULT_LIMITS } from '../../../dashboard/dashboard-limits.ts';
import { DashboardState } from '../../../dashboard/dashboard-state.ts';
import { jaegerLink } from '../../../dashboard/trace-link.ts';
import { decisionRecord, scoreRecord } from '../../helpers/dashboard-records.ts';

const minute = 60_000;
const now = 1_000 * minute;
const limits: DashboardLimits = { ...DEFAULT_LIMITS, windowMs: 60 * minute, bucketMs: minute, eventLog: 3 };
const state = (overrides: Partial<DashboardLimits> = {}) => new DashboardState({ ...limits, ...overrides }, { now: () => now, traceLink: jaegerLink() });

describe('DashboardState', () => {
  it('counts a record once per scoreId: a record of an aborted transaction and its re-run are one', () => {
    const dashboard = state();
    const events: DashboardEvent[] = [];
    dashboard.subscribe((event) => events.push(event));
    const record = scoreRecord({ status: 'scored', score: 0.4 }, { scoreId: 'same', at: now - minute });
    expect(dashboard.ingestScore(record, 100)).toBeDefined();
    expect(dashboard.ingestScore(record, 100)).toBeUndefined();
    const snapshot = dashboard.snapshot();
    expect(snapshot.buckets.buckets[0]!.series[0]![4]).toBe(1);
    expect(snapshot.counts).toMatchObject({ records: 1, duplicates: 1, ringRecords: 1 });
    expect(events).toHaveLength(1);
  });

  it('counts a repeated decision once', () => {
    const dashboard = state();
    dashboard.ingestDecision(decisionRecord({ at: now - minute }));
    dashboard.ingestDecision(decisionRecord({ at: now - minute }));
    const { names, buckets } = dashboard.snapshot().buckets;
    expect(buckets[0]!.skips.map(([scorer, agent, tenant, reason, count]) => [names[scorer!], names[agent!], names[tenant!], names[reason!], count])).toEqual([['completeness', '(not recorded)', '(not recorded)', 'sampling', 1]]);
  });

  it('leaves records older than the look-back out of everything', () => {
    const dashboard = state();
    expect(dashboard.ingestScore(scoreRecord({ status: 'scored', score: 1 }, { at: now - 2 * 60 * minute }), 10)).toBeUndefined();
    expect(dashboard.snapshot().counts).toMatchObject({ records: 0, outsideWindow: 1, ringRecords: 0, runs: 0 });
  });

  it('gives a reconnecting page the events after its last id, or undefined when only a snapshot will do', () => {
    const dashboard = state();
    const ids = [1, 2, 3, 4].map((index) => dashboard.ingestScore(scoreRecord({ status: 'scored', score: 0.5 }, { at: now - index }), 10)!.id);
    expect(dashboard.eventsAfter(ids[1]!)!.map((event) => event.id)).toEqual([ids[2], ids[3]]);
    expect(dashboard.eventsAfter(ids[3]!)).toEqual([]);
    // The log keeps 3 events: the first is gone, so resuming after it needs a snapshot…
    expect(dashboard.eventsAfter(`${dashboard.epoch}.0`)).toBeUndefined();
    expect(dashboard.eventsAfter(ids[0]!)!).toHaveLength(3);
    // …and so does an id from another server (restarted), from the future, or no id at all.
    expect(dashboard.eventsAfter(`ffff${dashboard.epoch}.1`)).toBeUndefined();
    expect(dashboard.eventsAfter(`${dashboard.epoch}.99`)).toBeUndefined();
    expect(dashboard.eventsAfter('garbage')).toBeUndefined();
  });

  it('replays the tally as it was sent, not as it is now', () => {
    const dashboard = state();
    const first = dashboard.ingestScore(scoreRecord({ status: 'scored', score: 0.5 }, { at: now - 1 }), 10)!;
    dashboard.ingestScore(scoreRecord({ status: 'scored', score: 0.5 }, { at: now - 1 }), 10);
    expect(first.type === 'record' && first.data.tally.scored).toBe(1);
    const replayed = dashboard.eventsAfter(`${dashboard.epoch}.0`)!;
    expect(replayed.map((event) => (event.type === 'record' ? event.data.tally.scored : -1))).toEqual([1, 2]);
  });

  it('answers "why no score?" with every record and decision of a run, and which records can still be opened', () => {
    const dashboard = state({ maxRecords: 1 });
    dashboard.ingestDecision(decisionRecord({ runId: 'run-9', scorerId: 'toxicity', reason: 'filter', at: now - 1 }));
    dashboard.ingestScore(scoreRecord({ status: 'failed' }, { runId: 'run-9', scoreId: 'a', at: now - 1 }), 10);
    dashboard.ingestScore(scoreRecord({ status: 'scored', score: 1 }, { runId: 'run-9', scoreId: 'b', at: now - 1 }), 10);
    const run = dashboard.run('run-9')!;
    expect(run.entries.map((entry) => entry.kind)).toEqual(['decision', 'score', 'score']);
    expect(run.kept).toEqual([undefined, undefined, 'b']);
    expect(dashboard.run('run-unknown')).toBeUndefined();
  });

  it('puts a trace link on summaries and details when one is configured', () => {
    const dashboard = state();
    const event = dashboard.ingestScore(scoreRecord({ status: 'scored', score: 1 }, { scoreId: 'x', at: now - 1, trace: { traceId: 'abc', spanId: 'def' } }), 10)!;
    expect(event.type === 'record' && event.data.summary.traceUrl).toBe('http://localhost:16686/trace/abc?uiFind=def');
    expect(dashboard.recordDetail('x')!.traceUrl).toBe('http://localhost:16686/trace/abc?uiFind=def');
    const plain = new DashboardState(limits, { now: () => now });
    plain.ingestScore(scoreRecord({ status: 'scored', score: 1 }, { scoreId: 'x', at: now - 1, trace: { traceId: 'abc' } }), 10);
    expect(plain.recordDetail('x')!.traceUrl).toBeUndefined();
    expect(plain.snapshot().recent[0]!.traceUrl).toBeUndefined();
  });
});

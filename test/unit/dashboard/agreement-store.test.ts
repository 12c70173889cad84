import { describe, expect, it } from 'vitest';
import { AgreementStore } from '../../../dashboard/agreement-store.ts';
import { DEFAULT_LIMITS } from '../../../dashboard/dashboard-limits.ts';
import { DashboardState } from '../../../dashboard/dashboard-state.ts';
import { agreementPair, agreementWindow } from '../../helpers/dashboard-records.ts';

const minute = 60_000;
const now = 1_000 * minute;

describe('AgreementStore', () => {
  const store = (maxWindows = 10, maxDisagreements = 3) => new AgreementStore({ maxWindows, maxDisagreements, windowMs: 60 * minute });

  it('keeps disagreeing pairs only, at most maxDisagreements of them, the oldest out first', () => {
    const agreements = store();
    expect(agreements.addPair(agreementPair({ agree: true, at: now - minute }), now)).toEqual({});
    for (const index of [1, 2, 3, 4]) agreements.addPair(agreementPair({ agreementId: `d-${index}`, at: now - (10 - index) * minute }), now);
    expect(agreements.view(now).disagreements.map((pair) => pair.agreementId)).toEqual(['d-2', 'd-3', 'd-4']);
  });

  it('replaces a pair published again under its agreementId with its later measurement, and takes it off once it agrees', () => {
    const agreements = store();
    agreements.addPair(agreementPair({ agreementId: 'vote', at: now - 10 * minute, human: { value: false } }), now);
    agreements.addPair(agreementPair({ agreementId: 'other', at: now - 9 * minute }), now);
    // A changed vote still disagreeing (say a correction): one entry, the later one, listed as the newest.
    const { disagreement } = agreements.addPair(agreementPair({ agreementId: 'vote', at: now - 5 * minute, human: { value: 0.1, label: 'fail' } }), now)!;
    expect(disagreement).toMatchObject({ agreementId: 'vote', at: now - 5 * minute, human: { value: 0.1 } });
    expect(agreements.view(now).disagreements.map((pair) => [pair.agreementId, pair.at])).toEqual([
      ['other', now - 9 * minute],
      ['vote', now - 5 * minute],
    ]);
    // An older measurement of it read late changes nothing.
    expect(agreements.addPair(agreementPair({ agreementId: 'vote', at: now - 7 * minute }), now)).toBeUndefined();
    // The same pair now agreeing: resolved, off the list.
    expect(agreements.addPair(agreementPair({ agreementId: 'vote', agree: true, at: now - minute }), now)).toEqual({ resolved: 'vote' });
    expect(agreements.view(now).disagreements.map((pair) => pair.agreementId)).toEqual(['other']);
  });

  it('summarises a disagreement with the names the filters use', () => {
    const { disagreement } = store().addPair(agreementPair({ version: '2', agent: 'support-agent', at: now - minute, human: { comment: 'wrong', value: 'no' } }), now)!;
    expect(disagreement).toMatchObject({ scorer: 'answer-relevancy', version: '2', agent: 'support-agent', tenant: '(none)', judge: { label: 'pass' }, human: { label: 'fail', value: 'no', comment: 'wrong' }, at: now - minute });
  });

  it('leaves out what is older than the look-back, and drops it once it leaves', () => {
    const agreements = store();
    expect(agreements.addPair(agreementPair({ at: now - 61 * minute }), now)).toBeUndefined();
    expect(agreements.addWindow(agreementWindow({ start: now - 90 * minute, end: now - 61 * minute, counts: [[1, 0], [0, 1]], kappa: 1, accuracy: 1 }), now)).toBeUndefined();
    agreements.addPair(agreementPair({ at: now - 30 * minute }), now);
    agreements.addWindow(agreementWindow({ start: now - 40 * minute, end: now - 30 * minute, counts: [[1, 0], [0, 1]], kappa: 1, accuracy: 1 }), now);
    expect(agreements.view(now + 31 * minute)).toEqual({ windows: [], disagreements: [] });
  });

  it('replaces a window published again with a later measurement, never with an earlier one', () => {
    const agreements = store();
    const window = (n: number, measuredAt: number) => agreementWindow({ start: now - 20 * minute, end: now - 10 * minute, counts: [[n, 0], [0, 0]], kappa: null, accuracy: 1, measuredAt });
    agreements.addWindow(window(3, now - 10 * minute), now);
    agreements.addWindow(window(5, now - 5 * minute), now);
    expect(agreements.addWindow(window(4, now - 8 * minute), now)).toBeUndefined();
    expect(agreements.view(now).windows.map((summary) => summary.n)).toEqual([5]);
  });

  it('keeps at most maxWindows windows', () => {
    const agreements = store(2);
    for (const index of [1, 2, 3]) agreements.addWindow(agreementWindow({ scorerId: `s-${index}`, start: now - 20 * minute, end: now - 10 * minute, counts: [[1]], labels: ['pass'], kappa: null, accuracy: 1 }), now);
    expect(agreements.view(now).windows.map((summary) => summary.scorer)).toEqual(['s-2', 's-3']);
  });
});

describe('DashboardState agreements', () => {
  const state = () => new DashboardState({ ...DEFAULT_LIMITS, windowMs: 60 * minute, bucketMs: minute }, { now: () => now });

  it('counts a pair once by its agreementId, emits disagreements and windows, and says where they come from', () => {
    const dashboard = state();
    dashboard.setAgreementsSource({ topic: 'agreements', state: 'reading' });
    const pair = agreementPair({ agreementId: 'same', at: now - minute });
    expect(dashboard.ingestAgreement(pair)?.type).toBe('agreement');
    expect(dashboard.ingestAgreement(pair)).toBeUndefined();
    expect(dashboard.ingestAgreement(agreementPair({ agree: true, at: now - minute }))).toBeUndefined();
    expect(dashboard.ingestAgreement(agreementWindow({ start: now - 10 * minute, end: now - minute, counts: [[1, 1], [0, 2]], kappa: 0.5, accuracy: 0.75 }))?.data).toMatchObject({ window: { n: 4, kappa: 0.5 } });
    const snapshot = dashboard.snapshot();
    expect(snapshot.agreements).toMatchObject({ topic: 'agreements', state: 'reading', windows: [{ n: 4 }], disagreements: [{ agreementId: 'same' }] });
    expect(snapshot.counts).toMatchObject({ agreements: 3, duplicates: 1, agreementWindows: 1, disagreements: 1 });
  });

  it('emits a pair published again (a later measuredAt) as a replacement, and its agreeing version as resolved', () => {
    const dashboard = state();
    expect(dashboard.ingestAgreement(agreementPair({ agreementId: 'moved', at: now - 3 * minute }))?.data).toMatchObject({ disagreement: { agreementId: 'moved', at: now - 3 * minute } });
    expect(dashboard.ingestAgreement(agreementPair({ agreementId: 'moved', at: now - 2 * minute }))?.data).toMatchObject({ disagreement: { agreementId: 'moved', at: now - 2 * minute } });
    expect(dashboard.ingestAgreement(agreementPair({ agreementId: 'moved', agree: true, at: now - minute }))?.data).toEqual({ resolved: 'moved' });
    expect(dashboard.snapshot().agreements.disagreements).toEqual([]);
  });

  it('tells a page when no agreements topic is read', () => {
    expect(state().snapshot().agreements).toEqual({ state: 'off', windows: [], disagreements: [] });
  });
});

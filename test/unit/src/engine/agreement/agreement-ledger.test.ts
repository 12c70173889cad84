import { describe, expect, it } from 'vitest';
import type { AgreementPair } from '../../../../../src/kit/contracts/agreement-record.ts';
import { AgreementLedger } from '../../../../../src/engine/agreement/agreement-ledger.ts';
import { buildAgreementPair } from '../../../../../src/engine/agreement/build-agreement-pair.ts';
import { feedbackApplies, humanLabel, judgeLabel } from '../../../../../src/engine/agreement/agreement-labels.ts';
import { agreementRecordKey } from '../../../../../src/kit/contracts/agreement-id.ts';

const HOUR = 3_600_000;
const options = { windowMs: HOUR, retentionMs: 2 * HOUR, maxPairs: 100, maxWindows: 10 };

function pair(runId: string, up: boolean, judgeScore: number, atMs: number, scorerVersion = '1'): AgreementPair {
  const built = buildAgreementPair(
    {
      feedback: { schemaVersion: 1, feedbackId: `f-${runId}`, target: { type: 'run', runId }, source: 'end_user', name: 'thumbs', value: up, submittedAt: new Date(atMs).toISOString() },
      score: { scoreId: `s-${runId}`, runId, scorerId: 'completeness', scorerVersion, score: judgeScore },
    },
    new Date(atMs).toISOString(),
  );
  if (built === undefined) throw new Error('unlabelled');
  return built;
}

describe('the agreement scale', () => {
  it('reads a judge by its verdict, else its score against the threshold', () => {
    expect(judgeLabel({ score: 0.9, verdict: 'fail' })).toBe('fail');
    expect(judgeLabel({ score: 0.5 })).toBe('pass');
    expect(judgeLabel({ score: 0.49 })).toBe('fail');
    expect(judgeLabel({ score: 0.7 }, 0.8)).toBe('fail');
  });

  it('reads a person by thumbs, a [0, 1] number, pass/fail, or the correction; nothing else', () => {
    expect(humanLabel({ value: true })).toBe('pass');
    expect(humanLabel({ value: false })).toBe('fail');
    expect(humanLabel({ value: 0.2 })).toBe('fail');
    expect(humanLabel({ value: 4 })).toBeUndefined();
    expect(humanLabel({ value: 'great' })).toBeUndefined();
    expect(humanLabel({ value: true, correction: { scorerId: 'x', score: 0.1 } })).toBe('fail');
    expect(humanLabel({ value: true, correction: { scorerId: 'x', label: 'meh' } })).toBeUndefined();
    expect(feedbackApplies({ correction: { scorerId: 'x' } as never }, { scorerId: 'y' })).toBe(false);
  });

  it('keys a pair by its id and a window by scorer, version and start', () => {
    expect(agreementRecordKey({ kind: 'pair', agreementId: 'a1' })).toBe('a1');
    expect(agreementRecordKey({ kind: 'window', scorerId: 'c', scorerVersion: '2', windowStart: 'T' })).toBe('["c","2","T"]');
  });
});

describe('AgreementLedger', () => {
  it('counts a pair once, takes back a changed vote, and publishes only changed windows', () => {
    const ledger = new AgreementLedger(options);
    const now = 10 * HOUR;
    expect(ledger.record(pair('a', true, 0.9, now), now)).toBe('new');
    expect(ledger.record(pair('b', false, 0.9, now), now)).toBe('new');
    expect(ledger.record(pair('a', true, 0.9, now + 5), now), 'the same pair measured again').toBe('same');
    const [window] = ledger.takeChangedWindows('2026-01-01T00:00:00.000Z');
    expect(window).toMatchObject({ n: 2, agreements: 1, accuracy: 0.5, kappa: 0, confusion: { labels: ['fail', 'pass'], counts: [[0, 1], [0, 1]] }, windowStart: new Date(now).toISOString(), windowEnd: new Date(now + HOUR).toISOString() });
    expect(ledger.takeChangedWindows('x')).toEqual([]);
    expect(ledger.record(pair('b', true, 0.9, now + 10), now), 'b changed their vote').toBe('changed');
    expect(ledger.takeChangedWindows('x')[0]).toMatchObject({ n: 2, agreements: 2, confusion: { counts: [[0, 0], [0, 2]] } });
  });

  it('gives κ and weighted κ per scorer version and window', () => {
    const ledger = new AgreementLedger(options);
    const now = 10 * HOUR;
    // 20 pass/pass, 5 pass/fail, 10 fail/pass, 15 fail/fail: κ = 0.4, accuracy 0.7.
    const cells: [boolean, number, number][] = [[true, 0.9, 20], [true, 0.1, 5], [false, 0.9, 10], [false, 0.1, 15]];
    let index = 0;
    for (const [up, judge, count] of cells) for (let i = 0; i < count; i += 1) ledger.record(pair(`r${index++}`, up, judge, now), now);
    ledger.record(pair('other-version', true, 0.9, now, '2'), now);
    const windows = ledger.takeChangedWindows('x');
    const v1 = windows.find((window) => window.scorerVersion === '1');
    expect(v1).toMatchObject({ n: 50, agreements: 35, accuracy: 0.7 });
    expect(v1?.kappa).toBeCloseTo(0.4, 12);
    expect(v1?.weightedKappa?.quadratic).toBeCloseTo(0.4, 12);
    expect(windows.find((window) => window.scorerVersion === '2')).toMatchObject({ n: 1, kappa: null });
    expect(ledger.latestWindows().map((window) => window.scorerVersion).sort()).toEqual(['1', '2']);
  });

  it('forgets what is older than its retention and holds at most maxPairs and maxWindows', () => {
    const ledger = new AgreementLedger({ ...options, maxPairs: 3, maxWindows: 2 });
    expect(ledger.record(pair('old', true, 0.9, 0), 3 * HOUR)).toBe('too_old');
    for (const [runId, atMs] of [['h1', HOUR], ['h2', 2 * HOUR], ['h3', 3 * HOUR], ['h3b', 3 * HOUR + 1]] as const) expect(ledger.record(pair(runId, true, 0.9, atMs), 3 * HOUR)).toBe('new');
    expect(ledger.stats()).toMatchObject({ pairs: 3, windows: 2, forgottenPairs: 1, forgottenWindows: 1 });
    ledger.prune(6 * HOUR + 1);
    expect(ledger.stats()).toMatchObject({ pairs: 0, windows: 0 });
  });

  it("replaces a thread pair by a later version's (changed, even with the same labels), and leaves it for an earlier one (stale)", () => {
    const ledger = new AgreementLedger(options);
    const now = 10 * HOUR;
    const threadPair = (version: number, judgeScore: number, atMs = now) =>
      buildAgreementPair(
        {
          feedback: { schemaVersion: 1, feedbackId: 'f-t', target: { type: 'thread', threadId: '42' }, source: 'end_user', name: 'thumbs', value: true, submittedAt: new Date(now).toISOString() },
          score: { scoreId: `v${version}`, runId: `run-${version}`, scorerId: 'resolution', score: judgeScore, thread: { id: '42', key: 'acme:42', version, scoredAtMs: now } },
        },
        new Date(atMs).toISOString(),
      )!;
    expect(ledger.record(threadPair(1, 0.9), now)).toBe('new');
    expect(ledger.record(threadPair(1, 0.9, now + 1), now)).toBe('same');
    expect(threadPair(2, 0.9).agreementId).toBe(threadPair(1, 0.9).agreementId);
    expect(ledger.record(threadPair(2, 0.9), now), 'the same labels, a later version: re-published naming it').toBe('changed');
    expect(ledger.record(threadPair(1, 0.1), now), 'an earlier version: a replay passing through').toBe('stale');
    expect(ledger.record(threadPair(3, 0.1), now)).toBe('changed');
    expect(ledger.takeChangedWindows('x')[0]).toMatchObject({ scorerId: 'resolution', n: 1, agreements: 0 });
  });

  it('refuses a retention shorter than a window', () => {
    expect(() => new AgreementLedger({ ...options, retentionMs: 1 })).toThrow(/retentionMs/);
  });
});

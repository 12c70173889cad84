// Thread feedback through the join and the ledger together, as service/agreement-join.ts runs them
// (docs/feedback.md, feedback on a thread): each (feedback, thread scorer) is counted once, a later
// version that becomes the compared one replaces the pair (same agreementId, re-published naming
// it), an earlier one seen again is stale — and whatever order the records arrive in, and across a
// restart that rebuilds the ledger from what was published and replays the topics, the published
// pairs end the same and the window counts each pair once.
import { describe, expect, it } from 'vitest';
import { AgreementLedger } from '../../../../../src/engine/agreement/agreement-ledger.ts';
import type { PairOutcome } from '../../../../../src/engine/agreement/agreement-ledger.ts';
import { buildAgreementPair } from '../../../../../src/engine/agreement/build-agreement-pair.ts';
import { FeedbackJoin } from '../../../../../src/engine/agreement/feedback-join.ts';
import type { JoinedPair, JoinScore } from '../../../../../src/engine/agreement/feedback-join.ts';
import { threadAgreementIdFor } from '../../../../../src/kit/contracts/agreement-id.ts';
import type { AgreementPair } from '../../../../../src/kit/contracts/agreement-record.ts';
import type { FeedbackRecord } from '../../../../../src/kit/contracts/feedback-record.ts';

const HOUR = 3_600_000;
const base = Date.parse('2026-12-01T10:00:00.000Z');
const minute = (count: number) => base + count * 60_000;
const now = minute(120);

const version = (number: number, scoredAtMinute: number, score: number): JoinScore => ({
  scoreId: `resolution-v${number}`,
  runId: `t-run-${number}`,
  scorerId: 'resolution',
  score,
  thread: { id: '42', key: 'acme:42', version: number, scoredAtMs: minute(scoredAtMinute) },
});
const thumbs = (feedbackId: string, atMinute: number, up: boolean): FeedbackRecord => ({
  schemaVersion: 1,
  feedbackId,
  target: { type: 'thread', threadId: '42' },
  source: 'end_user',
  name: 'thumbs',
  value: up,
  metadata: { tenantId: 'acme' },
  submittedAt: new Date(minute(atMinute)).toISOString(),
});

type Item = { kind: 'score'; score: JoinScore } | { kind: 'feedback'; feedback: FeedbackRecord };

/** The join and the ledger as the service runs them: pairs built, recorded, published unless same or stale. */
function run(items: readonly Item[], ledger = new AgreementLedger({ windowMs: HOUR, retentionMs: 24 * HOUR, maxPairs: 100, maxWindows: 10 })) {
  const join = new FeedbackJoin({ ttlMs: 24 * HOUR, maxRuns: 10, maxPerRun: 8 });
  const published: AgreementPair[] = [];
  const outcomes: PairOutcome[] = [];
  for (const item of items) {
    const pairs: JoinedPair[] = item.kind === 'score' ? join.addScore(item.score, now, now) : join.addFeedback(item.feedback, now, now);
    for (const joined of pairs) {
      const pair = buildAgreementPair(joined, new Date(now).toISOString())!;
      const outcome = ledger.record(pair, now);
      outcomes.push(outcome);
      if (outcome === 'new' || outcome === 'changed') published.push(pair);
    }
  }
  return { ledger, published, outcomes };
}

/** The last published pair per agreementId: what a compacted agreements topic keeps. */
const compacted = (pairs: readonly AgreementPair[]) => new Map(pairs.map((pair) => [pair.agreementId, pair]));

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));
}

// v1 scored at minute 15 (pass), v2 at 40 (fail), v3 at 60 (fail). Feedback A at minute 5 (before
// v1: compared with v1), B at 20 (after v1: with v2 once scored), C at 70 (after all: with v3).
const v1 = version(1, 15, 0.9);
const v2 = version(2, 40, 0.2);
const v3 = version(3, 60, 0.3);
const a = thumbs('fb-a', 5, false);
const b = thumbs('fb-b', 20, false);
const c = thumbs('fb-c', 70, true);
// On Kafka a thread's versions share a partition, so they arrive in order; feedback can come anywhere.
const versionsInOrder: Item[] = [v1, v2, v3].map((score) => ({ kind: 'score', score }));
const feedbackItems: Item[] = [a, b, c].map((feedback) => ({ kind: 'feedback', feedback }));

function interleavings(): Item[][] {
  const result: Item[][] = [];
  for (const order of permutations(feedbackItems)) {
    // Every way to place the three feedback among the three versions, keeping each order.
    for (let mask = 0; mask < 1 << 6; mask += 1) {
      if ([...Array(6).keys()].filter((bit) => (mask >> bit) & 1).length !== 3) continue;
      const merged: Item[] = [];
      let scores = 0;
      let feedback = 0;
      for (let bit = 0; bit < 6; bit += 1) merged.push((mask >> bit) & 1 ? order[feedback++]! : versionsInOrder[scores++]!);
      result.push(merged);
    }
  }
  return result;
}

describe('thread feedback through the join and the ledger', () => {
  it('compares each feedback with the version documented, and counts each (feedback, scorer) once', () => {
    const { published, ledger } = run([...versionsInOrder, ...feedbackItems]);
    expect([...compacted(published).values()].map((pair) => [pair.feedbackId, pair.thread?.version, pair.human.label, pair.judge.label])).toEqual([
      ['fb-a', 1, 'fail', 'pass'],
      ['fb-b', 2, 'fail', 'fail'],
      ['fb-c', 3, 'pass', 'fail'],
    ]);
    expect(ledger.takeChangedWindows('x')[0]).toMatchObject({ n: 3, agreements: 1 });
  });

  it('ends with the same pairs and the same window in every arrival order, a replaced pair re-published under its agreementId', () => {
    const orders = interleavings();
    expect(orders).toHaveLength(120);
    const expected = run([...versionsInOrder, ...feedbackItems]);
    for (const order of orders) {
      const { published, ledger } = run(order);
      expect(compacted(published)).toEqual(compacted(expected.published));
      expect(ledger.takeChangedWindows('x')[0]).toMatchObject({ n: 3, agreements: 1, confusion: { counts: [[1, 1], [1, 0]] } });
    }
    // B before v2: compared with v1 first, then replaced by v2 under the same id.
    const { published, outcomes } = run([versionsInOrder[0]!, feedbackItems[1]!, versionsInOrder[1]!, versionsInOrder[2]!]);
    expect(published.map((pair) => [pair.thread?.version, pair.agreementId])).toEqual([
      [1, threadAgreementIdFor({ feedbackId: 'fb-b', threadKey: 'acme:42', scorerId: 'resolution' })],
      [2, threadAgreementIdFor({ feedbackId: 'fb-b', threadKey: 'acme:42', scorerId: 'resolution' })],
    ]);
    expect(outcomes).toEqual(['new', 'changed']);
  });

  it('publishes nothing again after a restart: the ledger rebuilt from the published pairs, the topics replayed in any order', () => {
    const first = run([...versionsInOrder, ...feedbackItems]);
    for (const order of interleavings()) {
      const ledger = new AgreementLedger({ windowMs: HOUR, retentionMs: 24 * HOUR, maxPairs: 100, maxWindows: 10 });
      for (const pair of first.published) ledger.record(pair, now);
      const replay = run(order, ledger);
      expect(replay.published).toEqual([]);
      expect(replay.outcomes.every((outcome) => outcome === 'same' || outcome === 'stale')).toBe(true);
      expect(ledger.latestWindows()[0]).toMatchObject({ n: 3, agreements: 1 });
    }
  });

  it('treats a changed vote on thread feedback as for a run: the new labels replace the old, once', () => {
    const changed = { ...b, value: true };
    const { published, ledger } = run([...versionsInOrder, { kind: 'feedback', feedback: b }, { kind: 'feedback', feedback: changed }, { kind: 'feedback', feedback: changed }]);
    expect(published.map((pair) => pair.human.label)).toEqual(['fail', 'pass']);
    expect(ledger.takeChangedWindows('x')[0]).toMatchObject({ n: 1, agreements: 0 });
  });
});

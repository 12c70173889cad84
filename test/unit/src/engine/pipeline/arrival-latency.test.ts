import { describe, expect, it } from 'vitest';
import { latencyBeforeScoring, retryWayIn, runWayIn, threadWayIn, untimedWayIn } from '../../../../../src/engine/pipeline/arrival-latency.ts';
import { latencyStages, recordLatencySchema, sumLatency } from '../../../../../src/kit/contracts/record-latency.ts';

const at = (iso: string) => Date.parse(iso);

describe('runWayIn', () => {
  it("splits a run's way in at each reading: event → fetched (kafka) → slot held (runSlot)", () => {
    expect(runWayIn({ eventTimeMs: at('2026-12-07T10:00:00.000Z'), fetchedAt: at('2026-12-07T10:00:00.120Z'), slotAt: at('2026-12-07T10:00:00.125Z') }).stages).toEqual({ kafkaMs: 120, runSlotMs: 5 });
  });

  it("an OTLP run: from its trace's first spans holding a slot to the trace complete is its assembly", () => {
    const wayIn = runWayIn({ eventTimeMs: 1_000, fetchedAt: 1_400, slotAt: 1_450, assembledAt: 6_450 });
    expect(wayIn).toEqual({ stages: { kafkaMs: 400, runSlotMs: 50, assemblyMs: 5_000 }, endedAt: 6_450 });
  });

  it("starts no stage before the event: an OTLP trace's first spans fetched before its agent span ended, a producer clock ahead of ours", () => {
    // Spans fetched at 1,000 and holding a slot at 1,010; the agent span ended at 3,000; the trace complete at 3,500.
    expect(runWayIn({ eventTimeMs: 3_000, fetchedAt: 1_000, slotAt: 1_010, assembledAt: 3_500 }).stages).toEqual({ kafkaMs: 0, runSlotMs: 0, assemblyMs: 500 });
    expect(runWayIn({ eventTimeMs: 2_000, fetchedAt: 1_900, slotAt: 2_001 }).stages).toEqual({ kafkaMs: 0, runSlotMs: 1 });
  });

  it('leaves out a stage whose readings are unknown', () => {
    expect(runWayIn({ eventTimeMs: Number.NaN, fetchedAt: 1_900, slotAt: 1_901 }).stages).toEqual({ runSlotMs: 1 });
    expect(runWayIn({ eventTimeMs: 1_000 }).stages).toEqual({});
  });
});

describe('retryWayIn', () => {
  it("adds the wait since the last failed attempt to what the retry message carried", () => {
    const carried = { kafkaMs: 80, runSlotMs: 2, scoringMs: 3, judgeMs: 1_200 };
    const attempts = [{ failedAt: '2026-12-07T10:00:01.000Z' }, { failedAt: '2026-12-07T10:00:31.000Z' }];
    const wayIn = retryWayIn({ latency: carried, attempts: attempts as never, dueAt: '2026-12-07T10:01:31.000Z' }, at('2026-12-07T10:01:31.250Z'));
    expect(wayIn).toEqual({ stages: { ...carried, retryWaitMs: 60_250 }, endedAt: at('2026-12-07T10:01:31.250Z') });
  });

  it('without a carried latency (a retry message written before it existed) has only the wait', () => {
    expect(retryWayIn({ attempts: [{ failedAt: '2026-12-07T10:00:01.000Z' }] as never, dueAt: '2026-12-07T10:00:01.500Z' }, at('2026-12-07T10:00:02.000Z')).stages).toEqual({ retryWaitMs: 1_000 });
  });

  it('a pair back from the batch tier waited since it was deferred to its batch (its dueAt), not since a failure', () => {
    const wayIn = retryWayIn({ attempts: [], dueAt: '2026-12-07T10:00:01.000Z' }, at('2026-12-07T10:07:01.000Z'), true);
    expect(wayIn.stages).toEqual({ retryWaitMs: 420_000 });
  });
});

describe('threadWayIn', () => {
  it("splits a thread score's way in at its last turn joining the state", () => {
    expect(threadWayIn(1_000, 1_700, 31_700)).toEqual({ stages: { kafkaMs: 700, threadWaitMs: 30_000 }, endedAt: 31_700 });
  });
});

describe('latencyBeforeScoring', () => {
  it("adds the scorer's wait to start, timed from the way in's end, to its stages", () => {
    const wayIn = runWayIn({ eventTimeMs: 1_000, fetchedAt: 1_100, slotAt: 1_104 });
    expect(wayIn.endedAt).toBe(1_104);
    expect(latencyBeforeScoring(wayIn, 1_130)).toEqual({ kafkaMs: 100, runSlotMs: 4, dispatchMs: 26 });
  });

  it("times only the wait to start where the way in is not timed (a re-score's run read back, a replay), and nothing without readings", () => {
    expect(latencyBeforeScoring(untimedWayIn(5_000), 5_040)).toEqual({ dispatchMs: 40 });
    expect(latencyBeforeScoring(untimedWayIn(undefined), 5_040)).toEqual({});
    expect(latencyBeforeScoring(undefined, 5_040)).toBeUndefined();
  });
});

describe('the record latency contract', () => {
  it('adds stage by stage and lists the stages in the order time passes through them', () => {
    const summed = sumLatency({ kafkaMs: 5, retryWaitMs: 10, scoringMs: 1 }, { runSlotMs: 2, retryWaitMs: 20, scoringMs: 4, judgeMs: 7 });
    expect(summed).toEqual({ kafkaMs: 5, runSlotMs: 2, retryWaitMs: 30, scoringMs: 5, judgeMs: 7 });
    expect(latencyStages({ scoringMs: 5, ...summed })).toEqual([['kafka', 5], ['runSlot', 2], ['retryWait', 30], ['scoring', 5], ['judge', 7]]);
  });

  it('refuses fractions and negatives: whole milliseconds only', () => {
    expect(recordLatencySchema.safeParse({ scoringMs: 1.5 }).success).toBe(false);
    expect(recordLatencySchema.safeParse({ scoringMs: 1, kafkaMs: -1 }).success).toBe(false);
    expect(recordLatencySchema.safeParse({ kafkaMs: 1 }).success).toBe(false);
  });
});

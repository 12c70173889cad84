import { describe, expect, it } from 'vitest';
import { createEventPool } from '../../../../bench/pipeline/bench-events.ts';
import { createCodeScorers } from '../../../../bench/pipeline/bench-scorers.ts';
import { measureFloors } from '../../../../bench/pipeline/floors.ts';

describe('measureFloors', () => {
  it('measures decode, scorers and records over the counted passes, and serialises the spans the service records', async () => {
    const result = await measureFloors({ pool: createEventPool(20), scorers: createCodeScorers(), passes: 3, tracedEvents: 5 });
    expect(result.events).toBe(40); // two counted passes over 20 events
    // CPU clocks advance in coarse steps: a few microseconds of work may read as zero here.
    for (const seconds of [result.decodeSeconds, result.scorersSeconds, result.recordsSeconds, result.spans.serializeSecondsPerSpan, result.spans.sdkSecondsPerEvent]) {
      expect(Number.isFinite(seconds) && seconds >= 0).toBe(true);
    }
    expect(result.recordsPerEvent).toBe(3);
    // Per event: one `score run` span holding the three code scorers' evaluations (the span contract);
    // no process span (the consumer's default), and the code scorers' function steps have none.
    expect(result.spans.events).toBe(5);
    expect(result.spans.perEvent).toBe(1);
    expect(result.spans.bytesPerSpan).toBeGreaterThan(50);
  });
});

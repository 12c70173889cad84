import { describe, expect, it } from 'vitest';
import { createEventPool } from '../../../../bench/pipeline/bench-events.ts';
import { createCodeScorers } from '../../../../bench/pipeline/bench-scorers.ts';
import { measurePipelineAlone } from '../../../../bench/pipeline/pipeline-alone.ts';

describe('measurePipelineAlone', () => {
  it('scores every pooled event with every scorer on the counted passes only', async () => {
    const pool = createEventPool(20);
    const result = await measurePipelineAlone({ pool, scorers: createCodeScorers(), inFlight: 8, passes: 3 });
    expect(result.events).toBe(40); // two counted passes over 20 events; the first pass warms up
    expect(result.records).toBe(120); // three scorers each
    expect(result.failedRecords).toBe(0);
    expect(result.eventsPerSecond).toBeCloseTo(result.events / result.seconds);
    expect(result.cores.node).toBeGreaterThan(0);
  });
});

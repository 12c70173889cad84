// Publish with retry: a failed publish is retried with doubling pauses (capped) until it is
// acknowledged; only the hard stop ends the retries. The pauses are recorded, never waited.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { defaultPublishRetry, publishUntilAcknowledged } from '../../../consumers/publish-until-acknowledged.ts';
import { fakeOutput, recordedPacing, source } from './message-fixtures.ts';

const record = { topic: 'scores', key: 'run-1', value: '{}' };

function setup(onWait?: (delayMs: number) => void) {
  const hardStop = new AbortController();
  const { publishRetry, delays } = recordedPacing(onWait);
  const stats = { publishRetries: 0 };
  const context = { hardStop: hardStop.signal, publishRetry, stats, logger: pino({ level: 'silent' }) };
  return { context, hardStop, delays, stats };
}

describe('publishUntilAcknowledged', () => {
  it('publishes once when the output accepts', async () => {
    const { context, delays, stats } = setup();
    const output = fakeOutput();
    await publishUntilAcknowledged(output.output, [record], source, context);
    expect(output.records()).toEqual([record]);
    expect(output.attempts()).toBe(1);
    expect(delays).toEqual([]);
    expect(stats.publishRetries).toBe(0);
  });

  it('retries a failing publish with doubling pauses, up to the cap, until it is acknowledged', async () => {
    const { context, delays, stats } = setup();
    const output = fakeOutput();
    output.fail(8);
    await publishUntilAcknowledged(output.output, [record], source, context);
    expect(output.records()).toEqual([record]);
    expect(output.attempts()).toBe(9);
    expect(delays).toEqual([200, 400, 800, 1600, 3200, 6400, 10_000, 10_000]);
    expect(stats.publishRetries).toBe(8);
  });

  it('gives up with the error when a publish fails after the hard stop (the offset stays uncommitted)', async () => {
    const { context, hardStop, delays } = setup();
    const output = fakeOutput();
    output.fail(1);
    hardStop.abort();
    await expect(publishUntilAcknowledged(output.output, [record], source, context)).rejects.toThrow('broker unavailable');
    expect(output.attempts()).toBe(1);
    expect(delays).toEqual([]);
  });

  it('stops retrying once the hard stop comes during a pause', async () => {
    const { context, hardStop, delays } = setup(() => hardStop.abort());
    const output = fakeOutput();
    output.fail(5);
    await expect(publishUntilAcknowledged(output.output, [record], source, context)).rejects.toThrow('broker unavailable');
    expect(output.attempts()).toBe(2);
    expect(delays).toEqual([200]);
  });

  it('waits 200 ms after the first failure by default, up to 10 s', () => {
    expect(defaultPublishRetry).toMatchObject({ firstDelayMs: 200, maxDelayMs: 10_000 });
  });
});

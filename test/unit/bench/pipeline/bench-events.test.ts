import { describe, expect, it } from 'vitest';
import { createEventPool } from '../../../../bench/pipeline/bench-events.ts';

const text = (value: unknown) => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value));

describe('createEventPool', () => {
  it('builds the same events from the same seed', () => {
    const first = createEventPool(5);
    const second = createEventPool(5);
    expect(second.events).toEqual(first.events);
    expect(first.averageBytes).toBeGreaterThan(500);
  });

  it('samples every trace, so no scenario skips an event', () => {
    for (const event of createEventPool(50).events) expect(event.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('keys each message by runId and carries its traceparent header', () => {
    const pool = createEventPool(3);
    const message = pool.message(1);
    expect(message.key).toBe(pool.events[1]!.runId);
    expect(message.headers).toEqual({ traceparent: pool.events[1]!.traceparent });
    expect(JSON.parse(text(message.value)).runId).toBe(pool.events[1]!.runId);
  });

  it('gives every lap of the pool its own runIds, in the key and in the body', () => {
    const pool = createEventPool(3);
    const runIds = Array.from({ length: 9 }, (_, index) => {
      const message = pool.message(index);
      const body = JSON.parse(text(message.value)) as { runId: string };
      expect(body.runId).toBe(message.key);
      return body.runId;
    });
    expect(new Set(runIds).size).toBe(9);
    expect(runIds[4]).toBe(`${pool.events[1]!.runId}-1`);
  });

  it('stamps the event timestamp for the latency run and leaves the rest alone', () => {
    const pool = createEventPool(2);
    const at = new Date('2031-05-06T07:08:09.010Z');
    const stamped = JSON.parse(text(pool.timedMessage(3, at).value)) as Record<string, unknown>;
    const original = JSON.parse(pool.events[1]!.value) as Record<string, unknown>;
    expect(stamped.timestamp).toBe('2031-05-06T07:08:09.010Z');
    expect(stamped.runId).toBe(`${original.runId}-1`);
    expect({ ...stamped, timestamp: undefined, runId: undefined }).toEqual({ ...original, timestamp: undefined, runId: undefined });
  });
});

import { describe, expect, it } from 'vitest';
import { isLeaderNotYetKnown, whileLeadersSettle } from '../../../kafka/while-leaders-settle.ts';

/** Shaped like kafkajs' errors (matched by name, as the module does). */
function kafkaError(name: string, message: string, retriable: boolean): Error {
  return Object.assign(new Error(message), { name, retriable });
}
const notLeader = () => kafkaError('KafkaJSProtocolError', 'This server is not the leader for that topic-partition', true);

function fakeClock() {
  let time = 0;
  const pauses: number[] = [];
  return { pauses, now: () => time, sleep: async (ms: number) => void (pauses.push(ms), (time += ms)) };
}

describe('whileLeadersSettle', () => {
  it('retries "not the leader" with growing pauses until the request succeeds', async () => {
    const clock = fakeClock();
    let attempts = 0;
    const offsets = await whileLeadersSettle(async () => {
      attempts += 1;
      if (attempts < 5) throw notLeader();
      return [{ partition: 0, offset: '42' }];
    }, clock);
    expect(offsets).toEqual([{ partition: 0, offset: '42' }]);
    expect(clock.pauses).toEqual([50, 100, 200, 400]);
  });

  it('gives up with the last leader error once the wait would pass the deadline', async () => {
    const clock = fakeClock();
    await expect(whileLeadersSettle(() => Promise.reject(notLeader()), { ...clock, timeoutMs: 2_000 })).rejects.toThrow(/not the leader/);
    expect(clock.pauses.reduce((sum, pause) => sum + pause, 0)).toBeLessThanOrEqual(2_000);
    expect(clock.pauses.length).toBeGreaterThan(3);
  });

  it('throws any other error at once', async () => {
    const clock = fakeClock();
    const denied = kafkaError('KafkaJSProtocolError', 'Not authorized to access topics: [Topic authorization failed]', false);
    await expect(whileLeadersSettle(() => Promise.reject(denied), clock)).rejects.toBe(denied);
    await expect(whileLeadersSettle(() => Promise.reject(new TypeError('bad')), clock)).rejects.toThrow(TypeError);
    expect(clock.pauses).toEqual([]);
  });

  it('knows kafkajs leader errors by name, not class', () => {
    expect(isLeaderNotYetKnown(notLeader())).toBe(true);
    expect(isLeaderNotYetKnown(kafkaError('KafkaJSNumberOfRetriesExceeded', 'retries exceeded', false))).toBe(true);
    expect(isLeaderNotYetKnown(kafkaError('KafkaJSProtocolError', 'denied', false))).toBe(false);
    expect(isLeaderNotYetKnown(undefined)).toBe(false);
  });
});

// Reading @platformatic/kafka's errors (kafka/platformatic-errors.ts) and retrying while leaders
// settle (kafka/platformatic-leaders-settle.ts), on the library's own error classes nested the
// way it nests them: protocol errors in a ResponseError in the MultipleErrors of a retried request.
import { MultipleErrors, NetworkError, ProtocolError, ResponseError, UserError } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { describePlatformaticError, fetchResponseOfError, hasPlatformaticErrorId, isRetriablePlatformaticError, platformaticErrorIds } from '../../../kafka/platformatic-errors.ts';
import { whilePlatformaticLeadersSettle } from '../../../kafka/platformatic-leaders-settle.ts';

const FETCH = 1;
const fetchResponse = { throttleTimeMs: 0, errorCode: 0, sessionId: 0, responses: [{ topicId: 'id', partitions: [{ partitionIndex: 0, errorCode: 6 }] }] };
/** What a fetch retried three times on a partition whose leader moved throws. */
const notLeaderAfterRetries = () =>
  new MultipleErrors('fetch failed 3 times.', [1, 2, 3].map(() => new ResponseError(FETCH, 17, { '/responses/0/partitions/0': [6, null] }, fetchResponse)));

function fakeClock() {
  let time = 0;
  const pauses: number[] = [];
  return { pauses, now: () => time, sleep: async (ms: number) => void (pauses.push(ms), (time += ms)) };
}

describe('platformatic errors', () => {
  it('finds the broker’s error id nested in retries, and calls it retriable', () => {
    const error = notLeaderAfterRetries();
    expect(isRetriablePlatformaticError(error)).toBe(true);
    expect(hasPlatformaticErrorId(error, 'NOT_LEADER_OR_FOLLOWER')).toBe(true);
    expect(platformaticErrorIds(error)).toEqual(['NOT_LEADER_OR_FOLLOWER']);
    expect(describePlatformaticError(error)).toMatch(/^fetch failed 3 times\. .*not the current leader.* \(NOT_LEADER_OR_FOLLOWER\)$/);
  });

  it('calls nothing retriable that anything in it says must not be retried', () => {
    const denied = new MultipleErrors('Describing groups failed.', [new NetworkError('Connection closed'), new ProtocolError('GROUP_AUTHORIZATION_FAILED')]);
    expect(isRetriablePlatformaticError(denied)).toBe(false);
    expect(isRetriablePlatformaticError(new ProtocolError('OFFSET_OUT_OF_RANGE'))).toBe(false);
    expect(isRetriablePlatformaticError(new UserError('Unknown topic t.'))).toBe(false);
    expect(isRetriablePlatformaticError(new TypeError('bad'))).toBe(false);
    expect(isRetriablePlatformaticError(new NetworkError('Connection refused'))).toBe(true);
  });

  it('gives the fetch response a failed fetch carries, the last attempt’s', () => {
    expect(fetchResponseOfError(notLeaderAfterRetries())).toBe(fetchResponse);
    expect(fetchResponseOfError(new NetworkError('Connection refused'))).toBeUndefined();
  });
});

describe('whilePlatformaticLeadersSettle', () => {
  it('retries a leader not yet known with growing pauses until the request succeeds', async () => {
    const clock = fakeClock();
    let attempts = 0;
    const result = await whilePlatformaticLeadersSettle(async () => {
      attempts += 1;
      if (attempts < 4) throw notLeaderAfterRetries();
      return 'offsets';
    }, clock);
    expect(result).toBe('offsets');
    expect(clock.pauses).toEqual([50, 100, 200]);
  });

  it('gives up with the last error once the next pause would pass the deadline', async () => {
    const clock = fakeClock();
    await expect(whilePlatformaticLeadersSettle(() => Promise.reject(notLeaderAfterRetries()), { ...clock, timeoutMs: 1_000 })).rejects.toThrow(/fetch failed 3 times/);
    expect(clock.pauses.reduce((sum, pause) => sum + pause, 0)).toBeLessThanOrEqual(1_000);
  });

  it('throws an error that retrying cannot mend at once', async () => {
    const clock = fakeClock();
    const denied = new ProtocolError('TOPIC_AUTHORIZATION_FAILED');
    await expect(whilePlatformaticLeadersSettle(() => Promise.reject(denied), clock)).rejects.toBe(denied);
    expect(clock.pauses).toEqual([]);
  });
});

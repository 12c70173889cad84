// sendRecords: requests within maxRequestBytes; a refused request sent again one record at a time
// so only the refused record fails, replaced by its stand-ins in turn; a transient error fails its
// request's records for the caller to retry; in a transaction, a refused request rejects instead.
import { describe, expect, it } from 'vitest';
import type { OutgoingRecord } from '../../../kafka/kafka-records.ts';
import type { PublishRefusal } from '../../../kafka/publish-refusal.ts';
import { recordBytes, sendRecords, splitRequests } from '../../../producers/send-records.ts';

const tooLarge = () => Object.assign(new Error('The request included a message larger than the max message size the server will accept'), { name: 'KafkaJSProtocolError', type: 'MESSAGE_TOO_LARGE', retriable: false });
const record = (key: string, bytes = 10, fallback?: OutgoingRecord['fallback']): OutgoingRecord => ({ topic: 'scores', key, value: 'x'.repeat(bytes), ...(fallback === undefined ? {} : { fallback }) });

/** A broker that refuses any request holding a record over `limit` bytes of value. */
function broker(limit: number, transient = new Set<string>()) {
  const requests: string[][] = [];
  const send = async (records: OutgoingRecord[]) => {
    requests.push(records.map((candidate) => candidate.key!));
    if (records.some((candidate) => transient.has(candidate.key!))) throw Object.assign(new Error('Connection closed'), { name: 'KafkaJSConnectionError', retriable: true });
    if (records.some((candidate) => String(candidate.value).length > limit)) throw tooLarge();
  };
  return { send, requests };
}

const refusedLog = () => {
  const log: Array<[string, string, string | undefined]> = [];
  return { log, onRefused: (refused: OutgoingRecord, refusal: PublishRefusal, replacement: OutgoingRecord | undefined) => void log.push([refused.key!, refusal.type, replacement?.key ?? undefined]) };
};

describe('sendRecords', () => {
  it('cuts requests at maxRequestBytes (a larger record alone) and maxRequestRecords', () => {
    const entries = [record('a', 400), record('b', 400), record('c', 900), record('d', 10), record('e', 10), record('f', 10)].map((candidate) => ({ record: candidate }));
    const requests = splitRequests(entries, 1_000, 2).map((request) => request.map((entry) => entry.record.key));
    expect(requests).toEqual([['a', 'b'], ['c'], ['d', 'e'], ['f']]);
    expect(recordBytes(record('k', 100))).toBeGreaterThan(100);
  });

  it('sends a refused request again record by record: only the culprit is replaced, by its stand-ins in turn', async () => {
    const { send, requests } = broker(100);
    const { log, onRefused } = refusedLog();
    const smallest = record('big-3', 50);
    const smaller = record('big-2', 200, () => smallest);
    const big = record('big', 1_000, () => smaller);
    const results = await sendRecords(send, [record('a'), big, record('b')], { maxRequestBytes: 1_000_000, maxRequestRecords: 100, onRefused });
    expect(results).toEqual([undefined, undefined, undefined]);
    expect(requests).toEqual([['a', 'big', 'b'], ['a'], ['big'], ['big-2'], ['big-3'], ['b']]);
    expect(log).toEqual([
      ['big', 'MESSAGE_TOO_LARGE', 'big-2'],
      ['big-2', 'MESSAGE_TOO_LARGE', 'big-3'],
    ]);
  });

  it('drops, and reports, a refused record with no stand-in left, so the others still go', async () => {
    const { send } = broker(100);
    const { log, onRefused } = refusedLog();
    const results = await sendRecords(send, [record('big', 1_000), record('a')], { maxRequestBytes: 1_000_000, maxRequestRecords: 100, onRefused });
    expect(results).toEqual([undefined, undefined]);
    expect(log).toEqual([['big', 'MESSAGE_TOO_LARGE', undefined]]);
  });

  it('fails the records of a request that met a transient error, for the caller to retry', async () => {
    const { send } = broker(100, new Set(['b']));
    const results = await sendRecords(send, [record('a'), record('b'), record('c', 10)], { maxRequestBytes: 1_000_000, maxRequestRecords: 2, onRefused: () => undefined });
    expect(results.map((result) => (result instanceof Error ? result.name : result))).toEqual(['KafkaJSConnectionError', 'KafkaJSConnectionError', undefined]);
  });

  it('in a transaction rejects a refused request of several records instead (it is redone one by one), and sends one by one when asked', async () => {
    const { send, requests } = broker(100);
    await expect(sendRecords(send, [record('a'), record('big', 1_000)], { maxRequestBytes: 1_000_000, maxRequestRecords: 100, onRefused: () => undefined, rejectRefusedRequest: true })).rejects.toMatchObject({ type: 'MESSAGE_TOO_LARGE' });
    requests.length = 0;
    const { log, onRefused } = refusedLog();
    expect(await sendRecords(send, [record('a'), record('big', 1_000, () => record('small'))], { maxRequestBytes: 1_000_000, maxRequestRecords: 100, onRefused, rejectRefusedRequest: true, oneByOne: true })).toEqual([undefined, undefined]);
    expect(requests).toEqual([['a'], ['big'], ['small']]);
    expect(log).toEqual([['big', 'MESSAGE_TOO_LARGE', 'small']]);
  });
});

// readRunBack: a re-score's run event read back from the runs topic is retried while Kafka cannot
// be read, and given up only on the hard stop (the request is then read again after a restart);
// an answer that the message is not there is returned as it is.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { FetchMessage } from '../../../consumers/read-run-back.ts';
import { readRunBack } from '../../../consumers/read-run-back.ts';

const run = { topic: 'agent-runs', partition: 0, offset: '7' };
const owner = { topic: 'agent-runs-rescore', partition: 0, offset: '3' };
const message = { key: null, value: Buffer.from('{}'), offset: '7', timestamp: '0' };

function context(hardStop = new AbortController()) {
  const waits: number[] = [];
  return { waits, hardStop, value: { hardStop: hardStop.signal, logger: pino({ level: 'silent' }), publishRetry: { firstDelayMs: 10, maxDelayMs: 25, wait: async (delayMs: number) => void waits.push(delayMs) } } };
}

describe('readRunBack', () => {
  it('retries a read that failed, with growing pauses, until it succeeds', async () => {
    let calls = 0;
    const fetchRun: FetchMessage = async () => {
      calls += 1;
      if (calls < 4) throw new Error('the leader moved');
      return { found: true, message };
    };
    const { waits, value } = context();
    expect(await readRunBack(fetchRun, run, owner, value)).toEqual({ found: true, message });
    expect(waits).toEqual([10, 20, 25]);
  });

  it('returns "not there" at once, and gives up only on the hard stop', async () => {
    const { value } = context();
    expect(await readRunBack(async () => ({ found: false, detail: 'retention deleted it' }), run, owner, value)).toEqual({ found: false, detail: 'retention deleted it' });
    const stopped = context();
    const failing: FetchMessage = async () => {
      stopped.hardStop.abort();
      throw new Error('GROUP_AUTHORIZATION_FAILED');
    };
    await expect(readRunBack(failing, run, owner, stopped.value)).rejects.toThrow('GROUP_AUTHORIZATION_FAILED');
  });
});

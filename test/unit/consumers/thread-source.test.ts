// The `{runs}-by-thread` source, one claimed partition at a time: its messages wait for the
// restore, the ones that arrive while a batch is being acknowledged are carried out as the next
// batch (one changelog publish), each message is done only once its writes were acknowledged,
// a timer's closes follow the messages before it, and a claim's end abandons what waits. Fakes at
// the seams: the changelog read, the job runner (holding each job until released) and the claim.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { untracedMessage } from '../../../consumers/message-trace.ts';
import type { MessageOutput } from '../../../consumers/record-sink.ts';
import { ClaimEndedError } from '../../../consumers/run-source.ts';
import type { MessageHandle, PerformJob, SourceJob } from '../../../consumers/run-source.ts';
import { ServiceStats } from '../../../consumers/service-stats.ts';
import { createThreadSource } from '../../../consumers/thread-source.ts';
import type { ReadChangelog } from '../../../consumers/thread-source.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createTurnCountScorer } from '../../../src/kit/scorers/code/turn-count/index.ts';
import { turnOf } from '../src/engine/threads/fixtures.ts';
import { consumedMessage } from './message-fixtures.ts';

const topic = 'agent-runs-by-thread';
const output: MessageOutput = { publish: async () => undefined };

type Logged = { kind: SourceJob['kind']; offset: string; keys?: string[]; closedBy?: string };

function harness(options: { idleMs?: number; readChangelog?: ReadChangelog } = {}) {
  const config = resolveConfig({
    kafka: { brokers: ['127.0.0.1:9'] },
    groupId: 'unit',
    topics: { runs: 'agent-runs', results: 'scores', deadLetter: 'dead-letters' },
    scorers: [{ scorer: createTurnCountScorer(), level: 'thread', thread: { idleMs: options.idleMs ?? 3_600_000 } }],
  });
  const stats = new ServiceStats();
  const source = createThreadSource({
    context: { config, stats, logger: pino({ level: 'silent' }), now: Date.now },
    readChangelog: options.readChangelog ?? (async () => 0),
  });
  const jobs: Logged[] = [];
  const writes: Array<{ key: string; value: string | null }> = [];
  const waiting: Array<() => void> = [];
  let holding = false;
  const perform: PerformJob = async (job, owner) => {
    jobs.push({
      kind: job.kind,
      offset: owner.source.offset,
      ...(job.kind === 'thread-state' ? { keys: job.writes.map((write) => write.key) } : {}),
      ...(job.kind === 'thread-close' ? { closedBy: job.closedBy } : {}),
    });
    if (job.kind === 'thread-state') writes.push(...job.writes);
    if (holding) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const detachedAfter: Array<string | undefined> = [];
  const partition = source.claim(perform, {
    topic,
    partition: 0,
    detached: (after) => {
      detachedAfter.push(after);
      return output;
    },
  });
  const take = (offset: number, runId: string, threadId = 't-1') => {
    const { turn, json } = turnOf({ runId, threadId, timestamp: new Date(Date.parse('2026-11-29T12:00:00.000Z') + offset * 1_000).toISOString() });
    const decoded = source.decode(Buffer.from(json));
    if (!decoded.success) throw new Error('the test turn does not decode');
    expect(decoded.data).toMatchObject({ kind: 'turn', turn: { run: { runId: turn.run.runId } } });
    const message: MessageHandle = { source: { topic, partition: 0, offset: String(offset) }, output, trace: untracedMessage(consumedMessage({ value: json, offset: String(offset) })) };
    const settled = { done: false, error: undefined as unknown };
    const taking = partition.take(decoded.data, message).then(
      () => void (settled.done = true),
      (error: unknown) => void ((settled.done = true), (settled.error = error)),
    );
    return { settled, taking };
  };
  return {
    source,
    partition,
    stats,
    jobs,
    take,
    detachedAfter,
    writes: () => [...writes],
    hold: () => void (holding = true),
    /** Lets every job waiting for its acknowledgement go (and later ones through while still holding). */
    acknowledge: () => waiting.splice(0).forEach((resolve) => resolve()),
    waitingJobs: () => waiting.length,
  };
}

describe('thread source', () => {
  it('carries out the turns that arrived while a batch was being acknowledged as the next batch: one changelog publish for all', async () => {
    const { jobs, take, hold, acknowledge, waitingJobs } = harness();
    hold();
    const first = take(1, 'run-1', 't-1');
    await expect.poll(waitingJobs).toBe(1);
    const rest = [take(2, 'run-2', 't-1'), take(3, 'run-3', 't-2'), take(4, 'run-4', 't-3')];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(jobs).toEqual([{ kind: 'thread-state', offset: '1', keys: ['u:0:acme:t-1', 't:acme:t-1'] }]);
    expect(first.settled.done).toBe(false); // its offset may not be committed before its write is acknowledged
    acknowledge();
    await first.taking;
    await expect.poll(waitingJobs).toBe(1);
    expect(jobs.at(-1)).toEqual({ kind: 'thread-state', offset: '4', keys: ['u:1:acme:t-1', 't:acme:t-1', 'u:0:acme:t-2', 't:acme:t-2', 'u:0:acme:t-3', 't:acme:t-3'] });
    expect(jobs).toHaveLength(2);
    expect(rest.map(({ settled }) => settled.done)).toEqual([false, false, false]);
    acknowledge();
    await Promise.all(rest.map(({ taking }) => taking));
    expect(rest.map(({ settled }) => settled.error)).toEqual([undefined, undefined, undefined]);
  });

  it('applies no message before the state is restored, and recognises a restored turn as a duplicate (nothing to write)', async () => {
    const earlier = harness();
    await earlier.take(1, 'run-1').taking;
    const written = earlier.writes();
    expect(written.map((write) => write.key)).toEqual(['u:0:acme:t-1', 't:acme:t-1']);
    // The next claim reads back what the first one wrote, once the test lets the read finish.
    let finishRead!: () => void;
    const readDone = new Promise<void>((resolve) => (finishRead = resolve));
    const next = harness({
      readChangelog: async (_partition, onRecord) => {
        await readDone;
        for (const write of written) onRecord(write);
        return written.length;
      },
    });
    const redelivered = next.take(1, 'run-1');
    const resumed = next.take(2, 'run-2');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(next.jobs).toEqual([]);
    finishRead();
    await Promise.all([redelivered.taking, resumed.taking]);
    expect(next.stats.threads.restores).toBe(1);
    expect(next.jobs).toEqual([{ kind: 'thread-state', offset: '2', keys: ['u:1:acme:t-1', 't:acme:t-1'] }]);
  });

  it('abandons the messages still waiting when its claim ends (ClaimEndedError: read again by the next claim)', async () => {
    const { partition, take, hold, waitingJobs } = harness();
    hold();
    const first = take(1, 'run-1');
    await expect.poll(waitingJobs).toBe(1);
    const second = take(2, 'run-2');
    partition.end();
    await second.taking;
    expect(second.settled.error).toBeInstanceOf(ClaimEndedError);
    const third = take(3, 'run-3');
    await third.taking;
    expect(third.settled.error).toBeInstanceOf(ClaimEndedError);
    expect(first.settled.done).toBe(false); // its write was handed over: it settles with its acknowledgement
  });

  it('closes an idle thread on its timer, through the detached output after the last message it followed', async () => {
    const { jobs, take, detachedAfter, stats } = harness({ idleMs: 30 });
    await take(5, 'run-1').taking;
    await take(6, 'run-2').taking;
    await expect.poll(() => jobs.filter((job) => job.kind === 'thread-close').length, { timeout: 2_000 }).toBe(1);
    await expect.poll(() => jobs.length).toBe(4);
    expect(jobs.slice(2)).toEqual([
      { kind: 'thread-close', offset: '6', closedBy: 'idle' },
      { kind: 'thread-state', offset: '6', keys: expect.arrayContaining(['t:acme:t-1']) as unknown as string[] },
    ]);
    expect(detachedAfter.at(-1)).toBe('6');
    expect(stats.threads.closesByReason.get('idle')).toBeUndefined(); // counted by the job runner, a fake here
  });
});

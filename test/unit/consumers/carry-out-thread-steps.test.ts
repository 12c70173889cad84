// A by-thread partition's steps that were ready together, carried out together: every close's
// record first, then the steps' changelog writes in call order — one publish for the steps that
// share an output — and nothing of a step whose records were not accepted. A fake job runner at
// the seam records what it was asked, in order, and holds each job until the test lets it go.
import { describe, expect, it } from 'vitest';
import { carryOutThreadSteps } from '../../../consumers/carry-out-thread-steps.ts';
import type { ThreadStepWork } from '../../../consumers/carry-out-thread-steps.ts';
import { untracedMessage } from '../../../consumers/message-trace.ts';
import type { JobOwner, PerformJob, SourceJob } from '../../../consumers/run-source.ts';
import type { MessageOutput } from '../../../consumers/record-sink.ts';
import type { ThreadClose } from '../../../src/engine/threads/thread-effects.ts';
import type { ChangelogWrite, ThreadOutcome } from '../../../src/engine/threads/thread-stage.ts';
import { consumedMessage } from './message-fixtures.ts';

const sharedOutput: MessageOutput = { publish: async () => undefined };

function handle(offset: number, output: MessageOutput = sharedOutput): JobOwner {
  return { source: { topic: 'runs-by-thread', partition: 2, offset: String(offset) }, output, trace: untracedMessage(consumedMessage({ value: '{}', offset: String(offset) })) };
}

function close(threadKey: string, scorerId: string, version = 1): ThreadClose {
  return { type: 'close', key: threadKey, threadId: threadKey.split(':')[1]!, scorerId, closedBy: 'ended', version, versionId: `${threadKey}-v${version}`, scope: 'conversation', turns: [{ runId: 'run-1', json: '{}' }], lastJoinedAt: 0, closedAt: 0 };
}

/** A step with the given closes (their work, scored by the fake runner) and changelog writes. */
function step(options: { closes?: ThreadClose[]; writes?: string[] } = {}): ThreadOutcome {
  const closes = options.closes ?? [];
  return {
    effects: [...closes, ...(options.writes ?? []).map((key) => ({ type: 'write' as const, key, value: 'v' }))],
    changelog: (options.writes ?? []).map((key): ChangelogWrite => ({ key, value: 'v' })),
    closes: closes.map((entry) => ({ kind: 'score' as const, close: entry, parsed: new Map() })),
  };
}

/** A job runner that logs each job as it starts and as it is accepted; `hold` keeps jobs pending until released. */
function fakeRunner(options: { holdRecords?: boolean; failStateAt?: number; failing?: string[] } = {}) {
  const log: string[] = [];
  const held: Array<() => void> = [];
  let stateJobs = 0;
  const describe = async (job: SourceJob, owner: JobOwner) => {
    if (job.kind === 'thread-close') {
      if (job.work.kind !== 'score') return `decision @${owner.source.offset}`;
      if (options.failing?.includes(job.work.close.versionId)) throw new Error(`scoring ${job.work.close.versionId} failed`);
      return `record ${job.work.close.versionId} @${owner.source.offset}`;
    }
    if (job.kind === 'thread-state') return `changelog ${job.writes.map((write) => write.key).join(',')} @${owner.source.offset}`;
    return job.kind;
  };
  const perform: PerformJob = async (job, owner) => {
    const what = await describe(job, owner);
    log.push(`start ${what}`);
    if (job.kind === 'thread-state') {
      stateJobs += 1;
      if (stateJobs === options.failStateAt) throw new Error('the hard stop came');
    }
    if (job.kind === 'thread-close' && options.holdRecords === true) await new Promise<void>((resolve) => held.push(resolve));
    log.push(`accepted ${what}`);
  };
  return { perform, log, release: () => held.splice(0).forEach((resolve) => resolve()), held: () => held.length };
}

const statuses = (results: PromiseSettledResult<void>[]) => results.map((result) => result.status);

describe('carryOutThreadSteps', () => {
  it('publishes every step’s records, then all their changelog writes in call order as one publish (one acknowledgement)', async () => {
    const runner = fakeRunner();
    const steps: ThreadStepWork[] = [
      { step: step({ writes: ['u:1:acme:a', 't:acme:a'] }), owner: handle(10) },
      { step: step({ closes: [close('acme:b', 'turn-count')], writes: ['t:acme:b'] }), owner: handle(11) },
      { step: step(), owner: handle(12) }, // a duplicate turn: nothing to write
      { step: step({ writes: ['u:2:acme:a', 't:acme:a'] }), owner: handle(13) },
    ];
    const results = await carryOutThreadSteps(steps, 2, runner.perform);
    expect(statuses(results)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(runner.log).toEqual(['start record acme:b-v1 @11', 'accepted record acme:b-v1 @11', 'start changelog u:1:acme:a,t:acme:a,t:acme:b,u:2:acme:a,t:acme:a @13', 'accepted changelog u:1:acme:a,t:acme:a,t:acme:b,u:2:acme:a,t:acme:a @13']);
  });

  it('writes no changelog record before every record of the batch was accepted', async () => {
    const runner = fakeRunner({ holdRecords: true });
    const steps: ThreadStepWork[] = [
      { step: step({ closes: [close('acme:a', 'turn-count'), close('acme:a', 'mean')], writes: ['t:acme:a'] }), owner: handle(1) },
      { step: step({ closes: [close('acme:b', 'turn-count')], writes: ['t:acme:b'] }), owner: handle(2) },
    ];
    const carrying = carryOutThreadSteps(steps, 2, runner.perform);
    await expect.poll(() => runner.held()).toBe(3);
    expect(runner.log.filter((line) => line.includes('changelog'))).toEqual([]);
    runner.release();
    await carrying;
    expect(runner.log.slice(-2)).toEqual(['start changelog t:acme:a,t:acme:b @2', 'accepted changelog t:acme:a,t:acme:b @2']);
  });

  it('publishes closes of the same thread and binding one after another, in step order (the latest-score view keeps the last)', async () => {
    const runner = fakeRunner({ holdRecords: true });
    const steps: ThreadStepWork[] = [
      { step: step({ closes: [close('acme:a', 'turn-count', 1)], writes: ['t:acme:a'] }), owner: handle(1) },
      { step: step({ closes: [close('acme:b', 'turn-count', 1)], writes: ['t:acme:b'] }), owner: handle(2) },
      { step: step({ closes: [close('acme:a', 'turn-count', 2)], writes: ['t:acme:a'] }), owner: handle(3) },
    ];
    const carrying = carryOutThreadSteps(steps, 2, runner.perform);
    await expect.poll(() => runner.held()).toBe(2);
    expect(runner.log).toEqual(['start record acme:a-v1 @1', 'start record acme:b-v1 @2']);
    runner.release();
    await expect.poll(() => runner.held()).toBe(1);
    expect(runner.log.at(-1)).toBe('start record acme:a-v2 @3');
    runner.release();
    await carrying;
  });

  it('writes nothing of a step whose records were not accepted, and fails it alone', async () => {
    const runner = fakeRunner({ failing: ['acme:b-v1'] });
    const steps: ThreadStepWork[] = [
      { step: step({ writes: ['t:acme:a'] }), owner: handle(1) },
      { step: step({ closes: [close('acme:b', 'turn-count')], writes: ['t:acme:b'] }), owner: handle(2) },
      { step: step({ writes: ['t:acme:c'] }), owner: handle(3) },
    ];
    const results = await carryOutThreadSteps(steps, 2, runner.perform);
    expect(statuses(results)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'scoring acme:b-v1 failed' });
    expect(runner.log.filter((line) => line.startsWith('start changelog'))).toEqual(['start changelog t:acme:a,t:acme:c @3']);
  });

  it('publishes each output’s writes separately, in call order, when the steps’ outputs differ (exactly-once: one per message)', async () => {
    const runner = fakeRunner();
    const own = (): MessageOutput => ({ publish: async () => undefined });
    const steps: ThreadStepWork[] = [
      { step: step({ writes: ['t:acme:a'] }), owner: handle(1, own()) },
      { step: step({ writes: ['t:acme:b'] }), owner: handle(2, own()) },
    ];
    await carryOutThreadSteps(steps, 2, runner.perform);
    expect(runner.log).toEqual(['start changelog t:acme:a @1', 'accepted changelog t:acme:a @1', 'start changelog t:acme:b @2', 'accepted changelog t:acme:b @2']);
  });

  it('writes nothing after a changelog publish failed, and fails the steps it and the later ones carried', async () => {
    const runner = fakeRunner({ failStateAt: 1 });
    const steps: ThreadStepWork[] = [
      { step: step({ writes: ['t:acme:a'] }), owner: handle(1, { publish: async () => undefined }) },
      { step: step({ writes: ['t:acme:b'] }), owner: handle(2, { publish: async () => undefined }) },
    ];
    const results = await carryOutThreadSteps(steps, 2, runner.perform);
    expect(statuses(results)).toEqual(['rejected', 'rejected']);
    expect(runner.log).toEqual(['start changelog t:acme:a @1']);
  });
});

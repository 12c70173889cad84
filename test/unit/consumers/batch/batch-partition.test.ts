// A claimed batch-tier partition's faults (consumers/batch/batch-partition.ts), against a provider
// that does what each test says: a submit that fails transiently is tried again with the next
// submit; one refused for good fails its pairs as the live call would have failed; a batch that
// can no longer be polled has its requests submitted again; a request larger than a batch fails
// its pair with 413; a batch whose state record could not be written is polled all the same; an open batch restored from the state topic is polled, never submitted
// again, and a state record that cannot be read is left out; the claim's end abandons the held
// pairs. The jobs the partition asks for are recorded, not run.
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { BatchPartition } from '../../../../consumers/batch/batch-partition.ts';
import type { BatchPartitionOptions } from '../../../../consumers/batch/batch-partition.ts';
import { ClaimEndedError } from '../../../../consumers/run-source.ts';
import type { MessageHandle, SourceJob } from '../../../../consumers/run-source.ts';
import { ServiceStats } from '../../../../consumers/service-stats.ts';
import type { BatchAnswers, BatchProvider } from '../../../../src/engine/judge-batch/batch-provider.ts';
import { batchRequestOf } from '../../../../src/engine/judge-batch/batch-request.ts';
import type { BatchRequest } from '../../../../src/engine/judge-batch/batch-request.ts';
import { BatchCallError } from '../../../../src/engine/judge-batch/judge-batch-errors.ts';
import type { RetryMessage } from '../../../../src/kit/contracts/retry-message.ts';

type Submitted = { id: string; requests: readonly BatchRequest[] };

/** A provider whose batches end at once and answer every request, unless told otherwise. */
function fakeProvider(overrides: Partial<Pick<BatchProvider, 'submit' | 'poll' | 'answers'>> = {}) {
  const submitted: Submitted[] = [];
  const provider: BatchProvider = {
    name: 'openai',
    caps: { maxRequests: 50_000, maxBytes: 10_000 },
    probe: async () => undefined,
    submit:
      overrides.submit ??
      (async (requests) => {
        const id = `batch_${submitted.length + 1}`;
        submitted.push({ id, requests });
        return { id, phase: 'in_progress', providerStatus: 'validating' };
      }),
    poll: overrides.poll ?? (async (id) => ({ id, phase: 'ended', providerStatus: 'completed' })),
    answers:
      overrides.answers ??
      (async (id): Promise<BatchAnswers> => new Map((submitted.find((batch) => batch.id === id)?.requests ?? []).map((request) => [request.customId, { status: 'succeeded', body: { answer: request.customId } }]))),
    cancel: async () => undefined,
  };
  return { provider, submitted };
}

function harness(provider: BatchProvider, state: Array<{ key: string; value: string | null }> = [], stateWrites: 'ok' | 'fail' = 'ok') {
  const jobs: SourceJob[] = [];
  const stats = new ServiceStats();
  const options: BatchPartitionOptions = {
    context: { stats, logger: pino({ level: 'silent' }), now: Date.now },
    settings: { maxRequests: 100, maxBytes: 1_000_000, maxWaitMs: 5, pollMs: 5, maxPollMs: 10, answersGraceMs: 60_000 },
    provider,
    readState: async (_partition, onRecord) => {
      for (const record of state) onRecord(record);
      return state.length;
    },
  };
  const perform = async (job: SourceJob) => {
    if (job.kind === 'batch-state' && stateWrites === 'fail') throw new Error('the partition claim ended: records of no message are not written under it');
    jobs.push(job);
  };
  const claimed = { topic: 'scorestream.retry-batch', partition: 0, detached: () => ({ publish: async () => undefined }) };
  const partition = new BatchPartition(options, perform, claimed, () => undefined);
  return { partition, jobs, stats };
}

const request = (text: string) => batchRequestOf('/chat/completions', JSON.stringify({ model: 'judge', messages: [{ role: 'user', content: text }] }));

function pair(runId: string, requests: readonly BatchRequest[]): RetryMessage {
  return {
    schemaVersion: 1,
    runId,
    scorerId: 'polite',
    attempt: 0,
    dueAt: '2026-12-07T12:00:00.000Z',
    source: { topic: 'runs', partition: 0, offset: '1' },
    trace: {},
    attempts: [],
    event: {} as never,
    batch: { deferredAt: '2026-12-07T12:00:00.000Z', requests: [...requests], answers: [] },
  };
}

const handle = (offset: number): MessageHandle => ({ source: { topic: 'scorestream.retry-batch', partition: 0, offset: String(offset) }, output: { publish: async () => undefined }, trace: { span: undefined, fromHeaders: undefined } as never });

/** The answers a resumed pair's retry job carries. */
const answersOf = (jobs: readonly SourceJob[]) => jobs.flatMap((job) => (job.kind === 'retry' ? (job.retry.batch?.answers ?? []) : []));

describe('a batch-tier partition', () => {
  it('tries a submit that failed transiently again with the next one, and resumes the pair once answered', async () => {
    let failures = 1;
    const fake = fakeProvider();
    const submit = fake.provider.submit;
    fake.provider.submit = async (requests) => {
      if (failures-- > 0) throw new BatchCallError('the batch endpoint answered 503', true);
      return submit(requests);
    };
    const { partition, jobs } = harness(fake.provider);
    await partition.take(pair('r1', [request('a')]), handle(1));
    expect(fake.submitted).toHaveLength(1);
    expect(answersOf(jobs)).toMatchObject([{ status: 'succeeded' }]);
  });

  it('fails the pairs of a batch the provider refuses for good, as the live call would have failed', async () => {
    const { provider } = fakeProvider({
      submit: async () => {
        throw new BatchCallError('the batch endpoint answered 401 (invalid key): check the judge credentials', false);
      },
    });
    const { partition, jobs } = harness(provider);
    await partition.take(pair('r1', [request('a')]), handle(1));
    expect(answersOf(jobs)).toMatchObject([{ status: 'failed', statusCode: 400, error: expect.stringMatching(/401/) }]);
  });

  it('submits again the requests of a batch that can no longer be polled', async () => {
    let polls = 0;
    const fake = fakeProvider();
    fake.provider.poll = async (id) => {
      if (id === 'batch_1' && polls++ === 0) throw new BatchCallError('GET /batches/batch_1 answered 404', false);
      return { id, phase: 'ended', providerStatus: 'completed' };
    };
    const { partition, jobs, stats } = harness(fake.provider);
    await partition.take(pair('r1', [request('a')]), handle(1));
    expect(fake.submitted.map((batch) => batch.id)).toEqual(['batch_1', 'batch_2']);
    expect(stats.batch.unanswered).toBe(1);
    expect(answersOf(jobs)).toMatchObject([{ status: 'succeeded' }]);
  });

  it('polls a submitted batch whose state record could not be written, and answers its pairs (not failing them)', async () => {
    const { provider, submitted } = fakeProvider();
    const { partition, jobs } = harness(provider, [], 'fail');
    await partition.take(pair('r1', [request('a')]), handle(1));
    expect(submitted).toHaveLength(1);
    expect(answersOf(jobs)).toMatchObject([{ status: 'succeeded' }]);
  });

  it('fails with 413 a request larger than a whole batch may be', async () => {
    const { provider, submitted } = fakeProvider();
    const { partition, jobs } = harness(provider);
    await partition.take(pair('r1', [request('x'.repeat(20_000))]), handle(1));
    expect(submitted).toEqual([]);
    expect(answersOf(jobs)).toMatchObject([{ status: 'failed', statusCode: 413 }]);
  });

  it('polls an open batch restored from the state topic instead of submitting its requests again; an unreadable state record is left out', async () => {
    const restored = request('a');
    const fake = fakeProvider({ answers: async () => new Map([[restored.customId, { status: 'succeeded', body: { answer: 'restored' } }]]) });
    const state = [
      { key: 'batch_0', value: JSON.stringify({ batchId: 'batch_0', api: 'openai', submittedAt: '2026-12-07T12:00:00.000Z', customIds: [restored.customId] }) },
      { key: 'batch_bad', value: '{"batchId":' },
      { key: 'batch_gone', value: JSON.stringify({ batchId: 'batch_gone', api: 'openai', submittedAt: '2026-12-07T12:00:00.000Z', customIds: ['x'] }) },
      { key: 'batch_gone', value: null },
    ];
    const { partition, jobs, stats } = harness(fake.provider, state);
    await partition.take(pair('r1', [restored]), handle(1));
    expect(fake.submitted).toEqual([]);
    expect(stats.batch.restoredBatches).toBe(1);
    expect(answersOf(jobs)).toEqual([{ customId: restored.customId, status: 'succeeded', body: { answer: 'restored' } }]);
  });

  it('abandons its held pairs when the claim ends, and asks for nothing more', async () => {
    const { provider, submitted } = fakeProvider({ poll: async (id) => ({ id, phase: 'in_progress', providerStatus: 'in_progress' }) });
    const { partition, jobs } = harness(provider);
    const waiting = partition.take(pair('r1', [request('a')]), handle(1));
    await vi.waitFor(() => expect(submitted).toHaveLength(1));
    partition.end();
    await expect(waiting).rejects.toBeInstanceOf(ClaimEndedError);
    await expect(partition.take(pair('r2', [request('b')]), handle(2))).rejects.toBeInstanceOf(ClaimEndedError);
    expect(jobs.filter((job) => job.kind === 'retry')).toEqual([]);
  });
});

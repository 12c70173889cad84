// What goes wrong with batches, on the repo's mock batch server in both providers' shapes: a
// request that fails inside a batch is a failed answer with the status a live call would have had
// (so the ordinary retry tiers classify it), one that expired or was cancelled has no answer (to be
// submitted again, and only it), a batch OpenAI's validation refuses fails the lines it names and
// leaves the rest to go again, requests are split by the provider's caps, a server without a batch
// API is refused at the probe with a line that says what to do, and a poll that fails transiently
// is tried again while one that cannot succeed ends the wait.
import { setTimeout as sleep } from 'node:timers/promises';
import { APICallError } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createBatchFetch } from '../../../../../src/engine/judge-batch/batch-fetch.ts';
import { batchRequestOf } from '../../../../../src/engine/judge-batch/batch-request.ts';
import type { BatchRequest } from '../../../../../src/engine/judge-batch/batch-request.ts';
import type { BatchProvider } from '../../../../../src/engine/judge-batch/batch-provider.ts';
import { createAnthropicBatches } from '../../../../../src/engine/judge-batch/anthropic-batches.ts';
import { createOpenAIBatches } from '../../../../../src/engine/judge-batch/openai-batches.ts';
import { BatchEndpointRefusedError, JudgeDeferredToBatchError } from '../../../../../src/engine/judge-batch/judge-batch-errors.ts';
import { splitBatches } from '../../../../../src/engine/judge-batch/split-batches.ts';
import { waitForBatch } from '../../../../../src/engine/judge-batch/wait-for-batch.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../../../src/kit/judge/openai-compatible.ts';
import { generateText } from 'ai';
import { startMockBatchServer } from '../../../../helpers/mock-batch-server.ts';
import type { MockBatchServer, MockBatchServerOptions } from '../../../../helpers/mock-batch-server.ts';

const servers: MockBatchServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function server(options: MockBatchServerOptions = {}) {
  const started = await startMockBatchServer(options);
  servers.push(started);
  return started;
}

const requestsFor = (path: string, count: number, size = 0): BatchRequest[] =>
  Array.from({ length: count }, (_, index) => batchRequestOf(path, path === '/messages' ? JSON.stringify({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: `question ${index} ${'x'.repeat(size)}` }] }) : JSON.stringify({ model: 'judge', messages: [{ role: 'user', content: `question ${index} ${'x'.repeat(size)}` }] })));

const providers: Array<[string, (baseURL: string) => BatchProvider, string]> = [
  ['openai', (baseURL) => createOpenAIBatches({ baseURL, apiKey: 'sk' }), '/chat/completions'],
  ['anthropic', (baseURL) => createAnthropicBatches({ baseURL, apiKey: 'k' }), '/messages'],
];
const fast = { backoff: { firstDelayMs: 5, maxDelayMs: 20 }, wait: (ms: number) => sleep(ms) };

describe('batch faults', () => {
  it.each(providers)('%s: 3 requests in 100 fail inside the batch — failed answers with a live status; the rest succeed', async (_name, make, path) => {
    const mock = await server({ fails: (_id, index) => index % 33 === 32 });
    const provider = make(mock.baseURL);
    const requests = requestsFor(path, 100);
    const submitted = await provider.submit(requests);
    await waitForBatch(provider, submitted.id, fast);
    const answers = await provider.answers(submitted.id);
    const failed = [...answers.values()].filter((answer) => answer.status === 'failed');
    expect(answers.size).toBe(100);
    expect(failed).toHaveLength(3);
    expect(failed[0]).toMatchObject({ status: 'failed', statusCode: 400, error: expect.stringContaining('Invalid request inside the batch') });
  });

  it.each(providers)('%s: expired and cancelled requests have no answer, and only they are submitted again', async (_name, make, path) => {
    const mock = await server({ expires: (_id, index) => index < 5 });
    const provider = make(mock.baseURL);
    const requests = requestsFor(path, 20);
    const first = await provider.submit(requests);
    await waitForBatch(provider, first.id, fast);
    const answers = new Map(await provider.answers(first.id));
    const unanswered = requests.filter((request) => !answers.has(request.customId));
    expect(unanswered).toHaveLength(5);
    const again = await provider.submit(unanswered);
    await waitForBatch(provider, again.id, fast);
    for (const [id, answer] of await provider.answers(again.id)) answers.set(id, answer);
    expect(answers.size).toBe(20);
    expect([...mock.submissions.values()].filter((count) => count === 2)).toHaveLength(5);
    // A batch cancelled before it ended: none of it answered.
    const manual = await server({ completeAfterMs: 'manual' });
    const cancelling = make(manual.baseURL);
    const open = await cancelling.submit(requests.slice(0, 3));
    expect((await cancelling.poll(open.id)).phase).toBe('in_progress');
    await cancelling.cancel(open.id);
    expect((await cancelling.poll(open.id)).phase).toBe('ended');
    expect((await cancelling.answers(open.id)).size).toBe(0);
  });

  it("openai: a batch its validation refuses fails the lines it names; the others were not run and go again", async () => {
    const requests = requestsFor('/chat/completions', 4);
    const mock = await server({ rejects: (id) => id === requests[2]!.customId });
    const provider = createOpenAIBatches({ baseURL: mock.baseURL });
    const submitted = await provider.submit(requests);
    expect((await provider.poll(submitted.id)).providerStatus).toBe('failed');
    const answers = await provider.answers(submitted.id);
    expect([...answers.keys()]).toEqual([requests[2]!.customId]);
    expect(answers.get(requests[2]!.customId)).toMatchObject({ status: 'failed', statusCode: 400, error: 'invalid_request: the line is not a valid request' });
  });

  it('splits by the caps, one endpoint a batch, and sets apart a request larger than any batch', () => {
    const chat = requestsFor('/chat/completions', 10);
    const split = splitBatches([...chat, ...requestsFor('/responses', 2)], { maxRequests: 4, maxBytes: 10_000 });
    expect(split.batches.map((batch) => batch.length)).toEqual([4, 4, 2, 2]);
    expect(split.batches.every((batch) => batch.every((request) => request.path === batch[0]!.path))).toBe(true);
    const bySize = splitBatches([...requestsFor('/chat/completions', 3, 300), ...requestsFor('/chat/completions', 1, 5_000)], { maxRequests: 100, maxBytes: 1_300 });
    expect(bySize.batches.map((batch) => batch.length)).toEqual([2, 1]);
    expect(bySize.tooLarge).toHaveLength(1);
  });

  it.each(providers)('%s: a server without a batch API is refused at the probe, saying what to do; one with it passes', async (name, make) => {
    const plain = await server({ refuse: true });
    const refused = await make(plain.baseURL).probe().catch((error: unknown) => error);
    expect(BatchEndpointRefusedError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toMatch(new RegExp(`the ${name} batch endpoint GET .* answered 404.*set the binding's judge mode to 'live'`));
    await expect(make((await server()).baseURL).probe()).resolves.toBeUndefined();
  });

  it('a poll that fails transiently is tried again; one that cannot succeed ends the wait', async () => {
    const mock = await server({ completeAfterMs: 40 });
    let failures = 2;
    const flaky: typeof globalThis.fetch = async (input, init) => (String(input).includes('/batches/') && failures-- > 0 ? new Response('busy', { status: 503 }) : fetch(input, init));
    const provider = createOpenAIBatches({ baseURL: mock.baseURL, fetch: flaky });
    const submitted = await provider.submit(requestsFor('/chat/completions', 2));
    const seen: unknown[] = [];
    const ended = await waitForBatch(provider, submitted.id, { ...fast, onPoll: (_state, error) => seen.push(error) });
    expect(ended.phase).toBe('ended');
    expect(seen.filter((error) => error !== undefined)).toHaveLength(2);
    const locked: typeof globalThis.fetch = async () => new Response('{"error":{"message":"bad key"}}', { status: 401 });
    await expect(waitForBatch(createOpenAIBatches({ baseURL: mock.baseURL, fetch: locked }), submitted.id, fast)).rejects.toThrow(/answered 401.*check the API key/);
  });

  it('a failed answer reaches the judge as the HTTP error a live call would have raised; a request without an answer is deferred', async () => {
    const answers = new Map<string, { status: 'failed'; statusCode: number; error: string }>();
    const deferred: BatchRequest[] = [];
    const baseURL = 'http://batch.invalid/v1';
    const fetch = createBatchFetch({ baseURL, answerOf: (request) => answers.get(request.customId), onDeferred: (request) => deferred.push(request) });
    const model = createOpenAICompatibleJudgeProvider({ baseURL, fetch }).languageModel('judge');
    const first = await generateText({ model, prompt: 'Is it polite?', maxRetries: 0 }).catch((error: unknown) => error);
    expect(JudgeDeferredToBatchError.isInstance(first)).toBe(true);
    expect(deferred).toHaveLength(1);
    expect(deferred[0]!.path).toBe('/chat/completions');
    answers.set(deferred[0]!.customId, { status: 'failed', statusCode: 400, error: 'Invalid request inside the batch' });
    const second = await generateText({ model, prompt: 'Is it polite?', maxRetries: 0 }).catch((error: unknown) => error);
    expect(APICallError.isInstance(second)).toBe(true);
    expect(second).toMatchObject({ statusCode: 400, isRetryable: false });
    expect(deferred).toHaveLength(1);
    await expect(fetch('http://elsewhere.invalid/v1/x', { method: 'POST', body: '{}' })).rejects.toThrow(/only POSTs below http:\/\/batch.invalid\/v1\//);
  });
});

// The seam between a judge and the batch tier: a `fetch` for the AI SDK provider of a binding
// whose judge mode is 'batch' (createOpenAICompatibleJudgeProvider({ fetch }), createOpenAI,
// createAnthropic — every AI SDK provider takes one). A POST it has an answer for is answered
// from the batch, as the live endpoint would have answered it, so the provider, the judge and
// the scorer run exactly as they do live and reach the same score; a POST it has no answer for is
// captured and deferred (JudgeDeferredToBatchError). A multi-step scorer defers at its first
// judge call without an answer: each batch round answers one more step. A binding with a live
// fallback has a request its batch failed sent live instead, through the real transport.
import { batchRequestOf } from './batch-request.ts';
import type { BatchAnswer, BatchRequest } from './batch-request.ts';
import { JudgeDeferredToBatchError } from './judge-batch-errors.ts';

export type BatchFetchOptions = {
  /** The provider's base URL, as configured for the live judge (e.g. https://api.openai.com/v1): the request's path is read below it. */
  baseURL: string;
  /** The batch's answer to a request, when it has one. */
  answerOf(request: BatchRequest): BatchAnswer | undefined;
  /** Told of each request deferred (before the error is thrown). */
  onDeferred?(request: BatchRequest): void;
  /** A binding's live fallback: a request its batch failed is sent live through this transport instead of failing. */
  live?: typeof globalThis.fetch;
  /** Told of each request sent live, with a copy of its response. */
  onLive?(request: BatchRequest, response: Response): void;
};

export function createBatchFetch(options: BatchFetchOptions): typeof globalThis.fetch {
  const base = new URL(options.baseURL.endsWith('/') ? options.baseURL : `${options.baseURL}/`);
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method !== 'POST' || !url.href.startsWith(base.href)) {
      throw new TypeError(`a judge in batch mode sends only POSTs below ${base.href}; it was asked for ${method} ${url.href}`);
    }
    const body = typeof init?.body === 'string' ? init.body : input instanceof Request ? await input.text() : await new Response(init?.body ?? null).text();
    const request = batchRequestOf(`/${url.href.slice(base.href.length)}`, body);
    const answer = options.answerOf(request);
    if (answer === undefined) {
      options.onDeferred?.(request);
      throw new JudgeDeferredToBatchError(request);
    }
    if (answer.status === 'succeeded') return Response.json(answer.body, { status: 200 });
    if (options.live !== undefined) {
      const response = await options.live(url, { ...init, method, body });
      options.onLive?.(request, response.clone());
      return response;
    }
    return Response.json({ error: { message: answer.error, type: 'batch_request_failed' } }, { status: answer.statusCode });
  };
}

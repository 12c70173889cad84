// The HTTP calls of the batch APIs, on the injected fetch: JSON in and out, JSONL read, and a
// refusal classified as the rest of the project classifies it — 429 and 5xx (and a network error)
// can be retried, anything else cannot; a missing endpoint at the probe is BatchEndpointRefusedError.
import { BatchCallError, BatchEndpointRefusedError } from './judge-batch-errors.ts';

export type BatchHttp = {
  json<T>(method: 'GET' | 'POST', path: string, body?: string | FormData, contentType?: string): Promise<T>;
  text(method: 'GET', pathOrUrl: string): Promise<string>;
  /** GET `path`; a 404, 405 or 501 is a refusal of the batch API itself. */
  probe(path: string): Promise<void>;
};

export type BatchHttpOptions = {
  provider: string;
  baseURL: string;
  headers: Readonly<Record<string, string>>;
  fetch?: typeof globalThis.fetch;
};

const REFUSING = new Set([404, 405, 501]);

export function createBatchHttp(options: BatchHttpOptions): BatchHttp {
  const base = options.baseURL.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  /** The response, whatever its status; a network failure as a BatchCallError that can be retried. */
  const send = async (method: string, url: string, body?: string | FormData, contentType?: string): Promise<Response> => {
    try {
      return await doFetch(url, { method, headers: { ...options.headers, ...(contentType === undefined ? {} : { 'content-type': contentType }) }, ...(body === undefined ? {} : { body }) });
    } catch (error) {
      throw new BatchCallError(`${options.provider} batch API: ${method} ${url} could not be reached (${error instanceof Error ? error.message : String(error)})`, true, error);
    }
  };
  /** A refusal as the rest of the project classifies it: 429 and 5xx can be retried; a refused key says what to check. */
  const refusal = async (method: string, url: string, response: Response): Promise<BatchCallError> => {
    const detail = (await response.text().catch(() => '')).slice(0, 300);
    const hint = response.status === 401 || response.status === 403 ? '; check the API key the judge uses' : '';
    return new BatchCallError(`${options.provider} batch API: ${method} ${url} answered ${response.status}${detail === '' ? '' : `: ${detail}`}${hint}`, response.status === 429 || response.status >= 500);
  };
  const call = async (method: string, pathOrUrl: string, body?: string | FormData, contentType?: string): Promise<Response> => {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${base}${pathOrUrl}`;
    const response = await send(method, url, body, contentType);
    if (response.ok) return response;
    throw await refusal(method, url, response);
  };
  return {
    async json<T>(method: 'GET' | 'POST', path: string, body?: string | FormData, contentType?: string) {
      return (await (await call(method, path, body, contentType)).json()) as T;
    },
    async text(method: 'GET', pathOrUrl: string) {
      return (await call(method, pathOrUrl)).text();
    },
    async probe(path: string) {
      const url = `${base}${path}`;
      const response = await send('GET', url);
      if (response.ok) return;
      if (REFUSING.has(response.status)) throw new BatchEndpointRefusedError(options.provider, `GET ${url}`, response.status, (await response.text().catch(() => '')).slice(0, 200));
      throw await refusal('GET', url, response);
    },
  };
}

/** The JSON objects of a JSONL text, blank lines skipped. */
export function jsonLines(text: string): unknown[] {
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown);
}

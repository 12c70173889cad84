// The batch tier's unit of work (docs/spend-and-replay.md, "The batch tier"): one judge request
// exactly as its provider would have received it live — the path the AI SDK's provider POSTs to
// (`/chat/completions`, `/responses`, `/messages`) and the JSON body it built — and the answer a
// batch gives it. Captured at the provider's fetch (batch-fetch.ts), so the batch tier needs no
// knowledge of any provider's request format: the body a batch line carries is the body the live
// call would have sent, and the answer is fed back to the same provider code, which reads it as
// it reads a live response. The same scorer, prompt and model give the same body, so the same id.
import { createHash } from 'node:crypto';

export type BatchRequest = {
  /**
   * The request's id in a batch and in the answers: a hash of its path and body (64 hex
   * characters, inside Anthropic's custom_id rule `^[a-zA-Z0-9_-]{1,64}$`). Two pairs that ask
   * the very same question share it, and one batch line answers both.
   */
  readonly customId: string;
  /** The provider endpoint's path below its base URL, e.g. `/chat/completions` or `/messages`. */
  readonly path: string;
  /** The JSON body as the provider serialised it. */
  readonly body: string;
};

/** What a batch said of one request. */
export type BatchAnswer =
  /** The provider's response body, as a live call would have received it. */
  | { readonly status: 'succeeded'; readonly body: unknown }
  /** The provider refused or failed the request inside the batch: an HTTP status as a live call would have seen, and its error. */
  | { readonly status: 'failed'; readonly statusCode: number; readonly error: string };

export function batchRequestOf(path: string, body: string): BatchRequest {
  const customId = createHash('sha256').update(`${path}\n${body}`).digest('hex');
  return { customId, path, body };
}

/** A request's size in a batch: its body's UTF-8 bytes (what the providers' caps count, with the line's framing). */
export function batchRequestBytes(request: BatchRequest): number {
  return Buffer.byteLength(request.body, 'utf8') + request.customId.length + request.path.length + 64;
}

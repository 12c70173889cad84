// Requests into batches a provider accepts (BatchCaps: OpenAI 50,000 requests or 200 MB,
// Anthropic 100,000 or 256 MB): one endpoint per batch (a batch names its endpoint once), in
// order, each batch as full as the caps allow (chunksInOrder). A request larger than a whole batch
// may be cannot go in any: it is set apart, for the live tier or a failed record, never silently
// dropped.
import { chunksInOrder } from '../../kit/chunks-in-order.ts';
import { batchRequestBytes } from './batch-request.ts';
import type { BatchRequest } from './batch-request.ts';
import type { BatchCaps } from './batch-provider.ts';

export type SplitBatches = { batches: BatchRequest[][]; tooLarge: BatchRequest[] };

export function splitBatches(requests: readonly BatchRequest[], caps: BatchCaps): SplitBatches {
  const byPath = new Map<string, BatchRequest[]>();
  const tooLarge: BatchRequest[] = [];
  for (const request of requests) {
    if (batchRequestBytes(request) > caps.maxBytes) tooLarge.push(request);
    else byPath.set(request.path, [...(byPath.get(request.path) ?? []), request]);
  }
  const batches = [...byPath.values()].flatMap((group) => chunksInOrder(group, batchRequestBytes, caps.maxBytes, caps.maxRequests));
  return { batches, tooLarge };
}

/** What a provider's `submit` checks before it sends: one endpoint, within the caps (splitBatches makes such batches). */
export function assertOneBatch(requests: readonly BatchRequest[], caps: BatchCaps): BatchRequest {
  const [first] = requests;
  if (first === undefined) throw new TypeError('a batch needs at least one request');
  if (requests.some((request) => request.path !== first.path)) throw new TypeError('one batch, one endpoint: split the requests by path first (splitBatches)');
  const bytes = requests.reduce((sum, request) => sum + batchRequestBytes(request), 0);
  if (requests.length > caps.maxRequests || bytes > caps.maxBytes) throw new TypeError(`the batch passes the provider's caps (${requests.length} requests, ${bytes} bytes): split it first (splitBatches)`);
  return first;
}

// Requests into batches a provider accepts (BatchCaps: OpenAI 50,000 requests or 200 MB,
// Anthropic 100,000 or 256 MB): one endpoint per batch (a batch names its endpoint once), in
// order, each batch as full as the caps allow. A request larger than a whole batch may be cannot
// go in any: it is set apart, for the live tier or a failed record, never silently dropped.
import { batchRequestBytes } from './batch-request.ts';
import type { BatchRequest } from './batch-request.ts';
import type { BatchCaps } from './batch-provider.ts';

export type SplitBatches = { batches: BatchRequest[][]; tooLarge: BatchRequest[] };

export function splitBatches(requests: readonly BatchRequest[], caps: BatchCaps): SplitBatches {
  const byPath = new Map<string, BatchRequest[]>();
  for (const request of requests) byPath.set(request.path, [...(byPath.get(request.path) ?? []), request]);
  const batches: BatchRequest[][] = [];
  const tooLarge: BatchRequest[] = [];
  for (const group of byPath.values()) {
    let current: BatchRequest[] = [];
    let bytes = 0;
    for (const request of group) {
      const size = batchRequestBytes(request);
      if (size > caps.maxBytes) {
        tooLarge.push(request);
        continue;
      }
      if (current.length === caps.maxRequests || bytes + size > caps.maxBytes) {
        batches.push(current);
        current = [];
        bytes = 0;
      }
      current.push(request);
      bytes += size;
    }
    if (current.length > 0) batches.push(current);
  }
  return { batches, tooLarge };
}

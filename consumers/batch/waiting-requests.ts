// The judge requests of a batch-tier partition that no open batch carries yet (batch-partition.ts):
// what the next submit takes, how many bytes they make, and since when the oldest has waited —
// what decides when to submit (`maxRequests`, `maxBytes`, `maxWaitMs`).
import { batchRequestBytes } from '../../src/engine/judge-batch/batch-request.ts';
import type { BatchRequest } from '../../src/engine/judge-batch/batch-request.ts';

export class WaitingRequests {
  readonly #requests = new Map<string, BatchRequest>();
  #bytes = 0;
  #since: number | undefined;

  get size(): number {
    return this.#requests.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** When the oldest waiting request began to wait; undefined when none waits. */
  get since(): number | undefined {
    return this.#since;
  }

  has(customId: string): boolean {
    return this.#requests.has(customId);
  }

  add(request: BatchRequest, now: number): void {
    if (this.#requests.has(request.customId)) return;
    this.#requests.set(request.customId, request);
    this.#bytes += batchRequestBytes(request);
    this.#since ??= now;
  }

  /** Every waiting request, in arrival order; none waits afterwards. */
  takeAll(): BatchRequest[] {
    const requests = [...this.#requests.values()];
    this.#requests.clear();
    this.#bytes = 0;
    this.#since = undefined;
    return requests;
  }
}

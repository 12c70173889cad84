// The batch tier's errors. A judge call with no batch answer yet is deferred, not failed: the
// provider's fetch throws JudgeDeferredToBatchError with the request it captured, which passes the
// AI SDK untouched (it wraps only network errors) and tells the caller to wait for the batch, as
// a budget's refusal tells it to wait for the window. A provider that has no batch endpoint fails
// the binding's start with BatchEndpointRefusedError, naming the endpoint and what to do.
import { hasErrorMarker, ScorestreamError } from '../../kit/errors.ts';
import type { BatchRequest } from './batch-request.ts';

const deferredMarker = Symbol.for('scorestream.error.JudgeDeferredToBatchError');
const refusedMarker = Symbol.for('scorestream.error.BatchEndpointRefusedError');
const callMarker = Symbol.for('scorestream.error.BatchCallError');

export class JudgeDeferredToBatchError extends ScorestreamError {
  readonly [deferredMarker] = true;
  readonly request: BatchRequest;

  constructor(request: BatchRequest) {
    super(`the judge request ${request.customId.slice(0, 12)}… (POST ${request.path}) waits for a batch`, { code: 'judge_deferred_to_batch', canRetry: true });
    this.name = 'JudgeDeferredToBatchError';
    this.request = request;
  }

  /** True for a JudgeDeferredToBatchError from any copy of this library. */
  static override isInstance(value: unknown): value is JudgeDeferredToBatchError {
    return hasErrorMarker(value, deferredMarker);
  }
}

export class BatchEndpointRefusedError extends ScorestreamError {
  readonly [refusedMarker] = true;

  constructor(provider: string, endpoint: string, status: number, detail: string) {
    super(
      `the ${provider} batch endpoint ${endpoint} answered ${status}${detail === '' ? '' : ` (${detail})`}: this server offers no batch API to these credentials; set the binding's judge mode to 'live', or point it at a provider with a batch API`,
      { code: 'batch_endpoint_refused', canRetry: false },
    );
    this.name = 'BatchEndpointRefusedError';
  }

  /** True for a BatchEndpointRefusedError from any copy of this library. */
  static override isInstance(value: unknown): value is BatchEndpointRefusedError {
    return hasErrorMarker(value, refusedMarker);
  }
}

/** A batch call that failed: `canRetry` when trying again may cure it (a 429, a 5xx, a network error). */
export class BatchCallError extends ScorestreamError {
  readonly [callMarker] = true;

  constructor(message: string, canRetry: boolean, cause?: unknown) {
    super(message, { code: 'batch_call_failed', canRetry, cause });
    this.name = 'BatchCallError';
  }

  /** True for a BatchCallError from any copy of this library. */
  static override isInstance(value: unknown): value is BatchCallError {
    return hasErrorMarker(value, callMarker);
  }
}

// Bounds one model request (one HTTP attempt) with a timeout: the request gets its own abort
// signal, and the call is raced so that a model ignoring its signal still cannot hang the caller.
// A timed-out request rejects with JudgeTimeoutError, an APICallError marked retryable, so the AI
// SDK's retry loop above it tries again like after a 5xx. Used twice: the per-step request timeout
// (`modelSettings.timeout`, call-tally.ts) and the service's per-attempt timeout inside the judge
// slot (`judge.callTimeoutMs`, src/engine/pipeline/limit-judge-concurrency.ts).
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { JudgeTimeoutError } from './judge-errors.ts';

/** `setting` names the option that sets `timeoutMs`, for the error message. */
export async function generateWithTimeout(
  model: LanguageModelV4,
  params: LanguageModelV4CallOptions,
  timeoutMs: number,
  setting?: string,
): Promise<LanguageModelV4GenerateResult> {
  const parent = params.abortSignal;
  parent?.throwIfAborted();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new JudgeTimeoutError({ modelId: model.modelId, timeoutMs, ...(setting === undefined ? {} : { setting }) });
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    if (parent !== undefined) {
      onAbort = () => {
        controller.abort(parent.reason);
        reject(parent.reason);
      };
      parent.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([model.doGenerate({ ...params, abortSignal: controller.signal }), interrupted]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) parent?.removeEventListener('abort', onAbort);
  }
}

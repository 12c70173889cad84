// Polls a batch until it ends, pausing by the project's one backoff (from a first delay to a cap:
// a batch usually ends within minutes and may take a day). A poll that fails in a way trying again
// may cure is tried again on the same schedule; any other failure ends the wait.
import { backoffDelayMs } from '../../kit/backoff.ts';
import type { Backoff } from '../../kit/backoff.ts';
import { ScorestreamError } from '../../kit/errors.ts';
import type { BatchProvider, BatchState } from './batch-provider.ts';

export type WaitForBatchOptions = {
  backoff: Backoff;
  /** Pauses for `delayMs` (injected in tests). */
  wait(delayMs: number): Promise<unknown>;
  /** Told of each poll that did not end the wait: its state, or the retried error. */
  onPoll?(state: BatchState | undefined, error: unknown): void;
};

export async function waitForBatch(provider: BatchProvider, batchId: string, options: WaitForBatchOptions): Promise<BatchState> {
  for (let polls = 1; ; polls += 1) {
    try {
      const state = await provider.poll(batchId);
      if (state.phase === 'ended') return state;
      options.onPoll?.(state, undefined);
    } catch (error) {
      if (!ScorestreamError.isInstance(error) || !error.canRetry) throw error;
      options.onPoll?.(undefined, error);
    }
    await options.wait(backoffDelayMs(options.backoff, polls));
  }
}

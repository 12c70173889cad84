// What a partition's thread state (thread-state.ts) is made with: the thread bindings' policies,
// the per-partition limits of the `threads` config, and the instance's byte budget that every
// partition's state shares (docs/threads.md, bounds decided, never dropped).
import type { ThreadPolicy } from './thread-part.ts';
import type { ThreadsConfig } from './threads-schema.ts';

export type ThreadLimits = Pick<ThreadsConfig, 'maxThreads' | 'maxStateBytes' | 'maxThreadBytes' | 'stateTtlMs'>;

/**
 * The held turns' bytes of every partition state of one service instance: `maxStateBytes` bounds
 * their sum, so an instance's memory does not grow with the number of partitions it owns. Shared
 * by the states (one per claimed by-thread partition); each returns its bytes when cleared.
 */
export class StateBudget {
  used = 0;
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }
}

export type ThreadStateOptions = {
  policies: readonly ThreadPolicy[];
  limits: ThreadLimits;
  /** The instance's budget, shared with its other partitions' states; without one, this state has `limits.maxStateBytes` to itself. */
  budget?: StateBudget;
};

// The `{runs}-by-thread` source (docs/threads.md, the transport): one thread state per claimed
// partition (src/engine/threads/thread-stage.ts), so every turn of a thread — re-keyed by tenant + thread —
// meets the others in one place. For each claim:
//   restore  before the partition's first message is applied, the state is read back from the
//            partition of `{runs}-thread-state` with the same number (kafka/read-changelog-partition.ts),
//            to the end it had; orphan turn records found are tombstoned. A failed read is tried
//            again with backoff (KAFKA_DEFAULTS.groupLessReads.restoreRetry; the claim's messages
//            wait, holding their run slots) until the claim ends;
//   messages each turn or end event is one step of the state; its closes are scored at once;
//   timer    one timer at the state's next deadline (idle, maxAge, a postponed re-score, state TTL)
//            on the injected clock; what it closes belongs to no message, so it goes out through the
//            claim's detached output (at-least-once: at once; exactly-once: in the partition's next
//            transaction, after the messages before it);
//   batches  the steps that are ready together — the messages (and a timer's step) that arrived
//            while the batch before was carried out — are applied in order and carried out
//            together: every close's record, then, once a step's records were accepted, the steps'
//            changelog writes in order, one publish where they share an output, so a batch waits
//            for one acknowledgement rather than each turn for its own (carry-out-thread-steps.ts).
//            A message's offset is committed only once its step's writes were accepted;
//   end      the claim ended (rebalance, a new join, an aborted transaction): the state is dropped,
//            the timer cleared, waiting messages are abandoned; the next claim restores afresh.
// The topic is the service's own (`internal`): its records carry the origin header by design.
import type { Logger } from 'pino';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import { retryUntilDone } from '../src/kit/backoff.ts';
import type { Source } from '../src/kit/contracts/common.ts';
import { decodeThreadMessage } from '../src/engine/threads/decode-thread-message.ts';
import type { ThreadMessage } from '../src/engine/threads/decode-thread-message.ts';
import { createThreadStage } from '../src/engine/threads/thread-stage.ts';
import { StateBudget } from '../src/engine/threads/thread-state.ts';
import type { ThreadStage } from '../src/engine/threads/thread-stage.ts';
import { carryOutThreadSteps } from './carry-out-thread-steps.ts';
import type { ThreadStepWork } from './carry-out-thread-steps.ts';
import type { MessageContext } from './message-context.ts';
import { ClaimEndedError } from './run-source.ts';
import type { ClaimedPartition, Decoding, JobOwner, MessageHandle, PerformJob, RunSource, SourcePartition } from './run-source.ts';

type DecodedThreadMessage = ThreadMessage;

/** Reads changelog partition `partition` to its end, record by record; resolves with how many were read. */
export type ReadChangelog = (partition: number, onRecord: (record: { key: string; value: string | null }) => void) => Promise<number>;

export type ThreadSourceOptions = {
  context: Pick<MessageContext, 'config' | 'stats' | 'logger' | 'now'>;
  readChangelog: ReadChangelog;
  /** The first pause before a failed restore is tried again (default KAFKA_DEFAULTS.groupLessReads.restoreRetry's 2 s), doubled after each further failure. */
  restoreRetryMs?: number;
};

export type ThreadSource = RunSource<DecodedThreadMessage> & { close(): void };

/** setTimeout's longest delay: a deadline further away is re-armed when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createThreadSource(options: ThreadSourceOptions): ThreadSource {
  const live = new Set<ThreadPartition>();
  // One budget for every partition this instance claims: threads.maxStateBytes bounds the instance.
  const budget = new StateBudget(options.context.config.threads.maxStateBytes);
  return {
    name: 'thread',
    internal: true,
    decode: (value): Decoding<DecodedThreadMessage> => decodeThreadMessage(value),
    claim(perform, claimed) {
      if (claimed === undefined) throw new TypeError('the thread source needs its claimed partition (topic, partition, detached output)');
      const partition = new ThreadPartition(options, perform, claimed, budget, () => live.delete(partition));
      live.add(partition);
      return partition;
    },
    close() {
      for (const partition of [...live]) partition.end();
    },
  };
}

/** A message waiting for its step, or the timer's step (which no message owns). */
type Pending = { kind: 'message'; decoded: DecodedThreadMessage; message: MessageHandle; resolve: () => void; reject: (error: unknown) => void } | { kind: 'timer' };

class ThreadPartition implements SourcePartition<DecodedThreadMessage> {
  readonly #options: ThreadSourceOptions;
  readonly #perform: PerformJob;
  readonly #claimed: ClaimedPartition;
  readonly #stage: ThreadStage;
  readonly #logger: Logger;
  readonly #statsKey: string;
  readonly #onEnd: () => void;
  readonly #restored: Promise<void>;
  /** Messages (and at most one timer step) not yet applied, in arrival order: the next batch. */
  #pending: Pending[] = [];
  #draining = false;
  #timerPending = false;
  #timer: NodeJS.Timeout | undefined;
  #ended = false;
  /** Tries the restore took so far (logged when it succeeds). */
  #restoreAttempts = 1;
  /** The last message whose step was applied: detached work follows it. */
  #lastSource: Source | undefined;

  constructor(options: ThreadSourceOptions, perform: PerformJob, claimed: ClaimedPartition, budget: StateBudget, onEnd: () => void) {
    const { config, now, logger, stats } = options.context;
    this.#options = options;
    this.#perform = perform;
    this.#claimed = claimed;
    this.#onEnd = onEnd;
    this.#logger = logger;
    this.#stage = createThreadStage({ bindings: config.threadScorers, threads: config.threads, now, budget });
    this.#statsKey = `${claimed.topic}[${claimed.partition}]`;
    stats.threads.byPartition.set(this.#statsKey, () => this.#stage.stats());
    this.#restored = this.#restore();
    this.#restored.then(() => this.#rearm(), () => undefined);
  }

  take(decoded: DecodedThreadMessage, message: MessageHandle): Promise<void> {
    if (this.#ended) return Promise.reject(new ClaimEndedError('the thread state of its partition was dropped'));
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ kind: 'message', decoded, message, resolve, reject });
      this.#drain();
    });
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#stage.clear();
    for (const entry of this.#pending.splice(0)) if (entry.kind === 'message') entry.reject(new ClaimEndedError('the thread state of its partition was dropped'));
    this.#options.context.stats.threads.byPartition.delete(this.#statsKey);
    this.#onEnd();
  }

  /** Carries out what is pending, one batch at a time, until nothing is (a batch's steps are those that arrived while the one before was carried out). */
  #drain(): void {
    if (this.#draining || this.#ended) return;
    this.#draining = true;
    const run = async () => {
      await this.#restored;
      while (this.#pending.length > 0 && !this.#ended) {
        await this.#carryOut(this.#pending.splice(0));
        this.#rearm();
      }
    };
    void run()
      .catch(() => undefined) // a restore that ended with the claim: end() rejected the messages
      .finally(() => {
        this.#draining = false;
        if (this.#pending.length > 0) this.#drain();
      });
  }

  /** Applies the batch's steps in order, then carries them out together (carry-out-thread-steps.ts); settles each message. */
  async #carryOut(batch: readonly Pending[]): Promise<void> {
    // Each step's owner is fixed as it is applied: a timer's follows the message applied before it.
    const applied = batch.map((entry) => {
      if (entry.kind === 'timer') {
        this.#timerPending = false;
        return { entry, owner: this.#detached(), step: this.#stage.advance() };
      }
      this.#lastSource = entry.message.source;
      const { decoded } = entry;
      return { entry, owner: entry.message, step: decoded.kind === 'turn' ? this.#stage.turn(decoded.turn, decoded.json) : this.#stage.end(decoded.end, decoded.key) };
    });
    const steps = await Promise.allSettled(applied.map(({ step }) => step));
    const work: Array<{ entry: Pending } & ThreadStepWork> = [];
    const results = new Map<Pending, PromiseSettledResult<void>>();
    for (const [index, settled] of steps.entries()) {
      const { entry, owner } = applied[index]!;
      if (settled.status === 'rejected') {
        results.set(entry, settled);
      } else if (this.#ended) {
        results.set(entry, { status: 'rejected', reason: new ClaimEndedError('the thread state of its partition was dropped') });
      } else {
        work.push({ entry, owner, step: settled.value });
      }
    }
    const carried = await carryOutThreadSteps(work, this.#claimed.partition, this.#perform);
    work.forEach(({ entry }, index) => results.set(entry, carried[index]!));
    for (const [entry, result] of results) {
      if (entry.kind === 'message') {
        if (result.status === 'fulfilled') entry.resolve();
        else entry.reject(result.reason);
      } else if (result.status === 'rejected' && !(result.reason instanceof ClaimEndedError) && !this.#ended) {
        this.#logger.warn({ err: result.reason, partition: this.#claimed.partition }, 'carrying out the thread timer’s closes failed; they are scored again after the state is restored');
      }
    }
  }

  /** Work no message owns (restore tombstones, timer closes): the claim's detached output. */
  #detached(): JobOwner {
    const source = this.#lastSource ?? { topic: this.#claimed.topic, partition: this.#claimed.partition, offset: '0' };
    return { source, output: this.#claimed.detached(this.#lastSource?.offset) };
  }

  async #restore(): Promise<void> {
    const { logger } = this.#options.context;
    const { partition } = this.#claimed;
    const startedAt = this.#options.context.now();
    const { restoreRetry } = KAFKA_DEFAULTS.groupLessReads;
    await retryUntilDone(() => this.#restoreOnce(startedAt), {
      backoff: this.#options.restoreRetryMs === undefined ? restoreRetry : { ...restoreRetry, firstDelayMs: this.#options.restoreRetryMs },
      wait: (delayMs) => new Promise((resolve) => setTimeout(resolve, delayMs).unref()),
      onFailure: (error, attempt) => {
        if (this.#ended || error instanceof ClaimEndedError) throw new ClaimEndedError('the thread state of its partition was dropped before it was restored');
        this.#stage.clear();
        this.#restoreAttempts = attempt + 1;
        logger.warn({ err: error, partition, attempt }, 'restoring the thread state failed; trying again (the partition’s messages wait)');
      },
    });
  }

  /** One try at restoring the partition's state from its changelog partition. */
  async #restoreOnce(startedAt: number): Promise<void> {
    const { stats, logger } = this.#options.context;
    const { partition } = this.#claimed;
    if (this.#ended) throw new ClaimEndedError('the thread state of its partition was dropped before it was restored');
    const problems: string[] = [];
    const read = await this.#options.readChangelog(partition, ({ key, value }) => {
      const outcome = this.#stage.restore(key, value);
      if (!outcome.restored) problems.push(outcome.problem);
    });
    if (this.#ended) throw new ClaimEndedError('the thread state of its partition was dropped while it was restored');
    const restored = this.#stage.restored();
    for (const problem of [...problems, ...restored.problems.map((entry) => `${entry.key}: ${entry.problem}`)]) logger.warn({ partition, problem }, 'a thread state record could not be restored; its thread starts afresh');
    const durationMs = Math.max(0, this.#options.context.now() - startedAt);
    stats.threads.restores += 1;
    stats.threads.restoredRecords += read;
    stats.threads.restoreMs += durationMs;
    stats.threads.lastRestoreMs = durationMs;
    logger.info({ partition, records: read, durationMs, attempts: this.#restoreAttempts, ...this.#stage.stats() }, 'restored the thread state of a by-thread partition');
    if (restored.changelog.length > 0) await this.#perform({ kind: 'thread-state', writes: restored.changelog, partition }, this.#detached());
  }

  #rearm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#ended || this.#timerPending) return;
    const at = this.#stage.nextDeadline();
    if (at === undefined) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, at - this.#options.context.now()));
    this.#timer = setTimeout(() => this.#fire(), delay);
    this.#timer.unref();
  }

  /** The deadline came: the timer's step joins the pending ones (one at a time), after the messages before it. */
  #fire(): void {
    this.#timer = undefined;
    if (this.#ended || this.#timerPending) return;
    this.#timerPending = true;
    this.#pending.push({ kind: 'timer' });
    this.#drain();
  }
}

// The `{runs}-by-thread` source (docs/threads.md, the transport): one thread state per claimed
// partition (src/threads/thread-stage.ts), so every turn of a thread — re-keyed by tenant + thread —
// meets the others in one place. For each claim:
//   restore  before the partition's first message is applied, the state is read back from the
//            partition of `{runs}-thread-state` with the same number (kafka/read-changelog-partition.ts),
//            to the end it had; orphan turn records found are tombstoned. A failed read is tried
//            again (the claim's messages wait, holding their run slots) until the claim ends;
//   messages each turn or end event is one step of the state; its closes are scored at once;
//   timer    one timer at the state's next deadline (idle, maxAge, a postponed re-score, state TTL)
//            on the injected clock; what it closes belongs to no message, so it goes out through the
//            claim's detached output (at-least-once: at once; exactly-once: in the partition's next
//            transaction, after the messages before it);
//   order    steps are carried out one after another in the order they were made: a step's close
//            outcomes, then — once those were accepted — its changelog writes (perform-job.ts);
//   end      the claim ended (rebalance, a new join, an aborted transaction): the state is dropped,
//            the timer cleared, waiting messages are abandoned; the next claim restores afresh.
// The topic is the service's own (`internal`): its records carry the origin header by design.
import type { Logger } from 'pino';
import { extractHeaderTraceContext } from '../otel/run-trace-context.ts';
import type { Source } from '../src/contracts/common.ts';
import { decodeThreadMessage } from '../src/threads/decode-thread-message.ts';
import type { ThreadMessage } from '../src/threads/decode-thread-message.ts';
import { createThreadStage } from '../src/threads/thread-stage.ts';
import { StateBudget } from '../src/threads/thread-state.ts';
import type { ThreadOutcome, ThreadStage } from '../src/threads/thread-stage.ts';
import type { MessageContext } from './message-context.ts';
import { ClaimEndedError } from './run-source.ts';
import type { ClaimedPartition, Decoding, MessageHandle, PerformJob, RunSource, SourcePartition } from './run-source.ts';

type DecodedThreadMessage = Extract<ThreadMessage, { success: true }>;

/** Reads changelog partition `partition` to its end, record by record; resolves with how many were read. */
export type ReadChangelog = (partition: number, onRecord: (record: { key: string; value: string | null }) => void) => Promise<number>;

export type ThreadSourceOptions = {
  context: Pick<MessageContext, 'config' | 'stats' | 'logger' | 'now' | 'tracer' | 'services' | 'spend' | 'hardStop'>;
  readChangelog: ReadChangelog;
  /** Pause before a failed restore is tried again (default 2 s). */
  restoreRetryMs?: number;
};

export type ThreadSource = RunSource<DecodedThreadMessage> & { close(): void };

const noTrace = { span: undefined, fromHeaders: extractHeaderTraceContext(undefined) };
/** setTimeout's longest delay: a deadline further away is re-armed when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createThreadSource(options: ThreadSourceOptions): ThreadSource {
  const live = new Set<ThreadPartition>();
  // One budget for every partition this instance claims: threads.maxStateBytes bounds the instance.
  const budget = new StateBudget(options.context.config.threads.maxStateBytes);
  return {
    name: 'thread',
    internal: true,
    decode(value): Decoding<DecodedThreadMessage> {
      const decoded = decodeThreadMessage(value);
      if (decoded.success) return { success: true, decoded };
      return { success: false, reason: { code: decoded.code, message: decoded.message, ...(decoded.problems.length === 0 ? {} : { problems: decoded.problems }) } };
    },
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

class ThreadPartition implements SourcePartition<DecodedThreadMessage> {
  readonly #options: ThreadSourceOptions;
  readonly #perform: PerformJob;
  readonly #claimed: ClaimedPartition;
  readonly #stage: ThreadStage;
  readonly #logger: Logger;
  readonly #statsKey: string;
  readonly #onEnd: () => void;
  #chain: Promise<unknown>;
  #timer: NodeJS.Timeout | undefined;
  #ended = false;
  /** The last message whose step was carried out: detached work follows it. */
  #lastSource: Source | undefined;

  constructor(options: ThreadSourceOptions, perform: PerformJob, claimed: ClaimedPartition, budget: StateBudget, onEnd: () => void) {
    const { config, tracer, services, spend, hardStop, now, logger, stats } = options.context;
    this.#options = options;
    this.#perform = perform;
    this.#claimed = claimed;
    this.#onEnd = onEnd;
    this.#logger = logger;
    this.#stage = createThreadStage({ bindings: config.threadScorers, threads: config.threads, scoring: { tracer, services, spend, signal: hardStop }, now, budget });
    this.#statsKey = `${claimed.topic}[${claimed.partition}]`;
    stats.threads.byPartition.set(this.#statsKey, () => this.#stage.stats());
    this.#chain = this.#restore();
    this.#chain.then(() => this.#rearm(), () => undefined);
  }

  take(decoded: DecodedThreadMessage, message: MessageHandle): Promise<void> {
    const done = this.#chain.then(async () => {
      if (this.#ended) throw new ClaimEndedError('the thread state of its partition was dropped');
      this.#lastSource = message.source;
      const step = decoded.kind === 'turn' ? this.#stage.turn(decoded.turn, decoded.json) : this.#stage.end(decoded.end, decoded.key);
      await this.#carryOut(await step, message);
    });
    this.#chain = done.catch(() => undefined).finally(() => this.#rearm());
    return done;
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#stage.clear();
    this.#options.context.stats.threads.byPartition.delete(this.#statsKey);
    this.#onEnd();
  }

  async #carryOut(step: ThreadOutcome, owner: MessageHandle): Promise<void> {
    if (this.#ended) throw new ClaimEndedError('the thread state of its partition was dropped');
    if (step.effects.length === 0 && step.changelog.length === 0) return; // a duplicate turn: nothing to write
    await this.#perform({ kind: 'thread', step, partition: this.#claimed.partition }, owner);
  }

  /** Work no message owns (restore tombstones, timer closes): the claim's detached output. */
  #detached(): MessageHandle {
    const source = this.#lastSource ?? { topic: this.#claimed.topic, partition: this.#claimed.partition, offset: '0' };
    return { source, output: this.#claimed.detached(this.#lastSource?.offset), trace: noTrace };
  }

  async #restore(): Promise<void> {
    const { stats, logger } = this.#options.context;
    const { partition } = this.#claimed;
    const startedAt = this.#options.context.now();
    for (let attempt = 1; ; attempt += 1) {
      if (this.#ended) throw new ClaimEndedError('the thread state of its partition was dropped before it was restored');
      const problems: string[] = [];
      try {
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
        logger.info({ partition, records: read, durationMs, attempts: attempt, ...this.#stage.stats() }, 'restored the thread state of a by-thread partition');
        if (restored.changelog.length > 0) await this.#perform({ kind: 'thread', step: { effects: [], changelog: restored.changelog, outcomes: [] }, partition }, this.#detached());
        return;
      } catch (error) {
        if (this.#ended || error instanceof ClaimEndedError) throw new ClaimEndedError('the thread state of its partition was dropped before it was restored');
        this.#stage.clear();
        logger.warn({ err: error, partition, attempt }, 'restoring the thread state failed; trying again (the partition’s messages wait)');
        await new Promise((resolve) => setTimeout(resolve, this.#options.restoreRetryMs ?? 2_000).unref());
      }
    }
  }

  #rearm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#ended) return;
    const at = this.#stage.nextDeadline();
    if (at === undefined) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, at - this.#options.context.now()));
    this.#timer = setTimeout(() => this.#fire(), delay);
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    const done = this.#chain.then(async () => {
      if (this.#ended) return;
      await this.#carryOut(await this.#stage.advance(), this.#detached());
    });
    this.#chain = done
      .catch((error: unknown) => {
        if (!(error instanceof ClaimEndedError) && !this.#ended) this.#logger.warn({ err: error, partition: this.#claimed.partition }, 'carrying out the thread timer’s closes failed; they are scored again after the state is restored');
      })
      .finally(() => this.#rearm());
  }
}

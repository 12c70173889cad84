// One claimed partition of the batch tier (`{topics.retry}-batch`; docs/spend-and-replay.md, the
// batch tier). Its messages are pairs waiting on judge requests; the partition
//   restores  before its first message, the batches open at the provider, from the partition of
//             `{retry}-batch-state` with the same number (a failed read is tried again with
//             backoff; the messages wait). Their requests are polled for, never submitted again;
//   holds     each pair until every request it waits on has an answer (its offset uncommitted,
//             so a crash or a rebalance reads it again);
//   submits   the requests no open batch carries, once `maxRequests` or `maxBytes` of them wait,
//             or the oldest has waited `maxWaitMs`, split to the provider's caps — and records
//             each batch in the state topic as soon as the provider accepted it;
//   polls     each open batch on the backoff (`pollMs` doubling to `maxPollMs`); once it ended,
//             its answers go to the pairs that wait on them, a request it did not answer
//             (expired, cancelled) waits for the next batch, and a pair with every answer is
//             scored again as a retry job with them (src/engine/pipeline/score-retry.ts) —
//             through the ordinary pipeline and the one emitter, with the live path's score id;
//   fails     what the provider refuses for good (a submit trying again cannot cure, a request
//             larger than a batch) as a failed answer: the attempt meets it as a live HTTP error;
//   forgets   an ended batch once no held pair needs its answers and `answersGraceMs` passed (a
//             pair read again after a crash finds them until then): a tombstone in the state topic;
//   ends      with its claim: timers and polls stop, held pairs are abandoned (the next claim restores).
import type { Logger } from 'pino';
import type { RetryMessage } from '../../src/kit/contracts/retry-message.ts';
import type { KeyedBatchAnswer } from '../../src/engine/judge-batch/batch-judge.ts';
import type { BatchAnswers, BatchProvider } from '../../src/engine/judge-batch/batch-provider.ts';
import { pollOpenBatch } from './poll-open-batch.ts';
import { restoreOpenBatches } from './restore-open-batches.ts';
import { WaitingRequests } from './waiting-requests.ts';
import { heldByBinding } from './held-by-binding.ts';
import type { BatchRequest } from '../../src/engine/judge-batch/batch-request.ts';
import type { JudgeBatchConfig } from '../../src/engine/judge-batch/batch-schema.ts';
import type { OpenBatch } from '../../src/engine/judge-batch/open-batch.ts';
import { splitBatches } from '../../src/engine/judge-batch/split-batches.ts';
import { ScorestreamError } from '../../src/kit/errors.ts';
import type { BatchPartitionGauges, ServiceStats } from '../service-stats.ts';
import { ClaimEndedError } from '../run-source.ts';
import type { ClaimedPartition, JobOwner, MessageHandle, PerformJob, SourcePartition } from '../run-source.ts';
import type { ReadChangelog } from '../thread-source.ts';

export type BatchTierSettings = Pick<JudgeBatchConfig, 'maxRequests' | 'maxBytes' | 'maxWaitMs' | 'pollMs' | 'maxPollMs' | 'answersGraceMs'>;

export type BatchPartitionOptions = {
  context: { stats: ServiceStats; logger: Logger; now: () => number };
  settings: BatchTierSettings;
  provider: BatchProvider;
  /** Reads partition n of `{retry}-batch-state` to its end (kafka/read-changelog-partition.ts). */
  readState: ReadChangelog;
  setTimer?: (callback: () => void, delayMs: number) => { clear(): void }; // injected in tests
};

type Held = { readonly retry: RetryMessage & { batch: NonNullable<RetryMessage['batch']> }; readonly message: MessageHandle; readonly since: number; resolve(): void; reject(error: unknown): void };
const [CLAIM_ENDED, SUBMITTING] = ['the batch tier’s partition claim ended', ''];
const defaultSetTimer = (callback: () => void, delayMs: number) => {
  const timer = setTimeout(callback, delayMs);
  timer.unref();
  return { clear: () => clearTimeout(timer) };
};

export class BatchPartition implements SourcePartition<RetryMessage> {
  readonly #options: BatchPartitionOptions;
  readonly #perform: PerformJob;
  readonly #claimed: ClaimedPartition;
  readonly #setTimer: NonNullable<BatchPartitionOptions['setTimer']>;
  readonly #restored: Promise<void>;
  readonly #onEnd: () => void;
  /** Pairs waiting for answers, in arrival order. */
  readonly #held = new Set<Held>();
  readonly #waiting = new WaitingRequests(); // requests no open batch carries, waiting to be submitted
  /** The batches open at the provider, and which one carries each request. */
  readonly #open = new Map<string, OpenBatch>();
  readonly #carriedBy = new Map<string, string>();
  /** Answers of ended batches, and the batches whose answers are kept until no held pair needs them. */
  readonly #answers = new Map<string, KeyedBatchAnswer>();
  readonly #ended = new Map<string, { customIds: readonly string[]; forget?: { clear(): void } }>();
  readonly #timers = new Set<{ clear(): void }>();
  #submitTimer: { clear(): void } | undefined;
  #submitting = false;
  #lastSource: MessageHandle['source'] | undefined;
  #gone = false;

  constructor(options: BatchPartitionOptions, perform: PerformJob, claimed: ClaimedPartition, onEnd: () => void) {
    this.#options = options;
    this.#perform = perform;
    this.#claimed = claimed;
    this.#onEnd = onEnd;
    this.#setTimer = options.setTimer ?? defaultSetTimer;
    (this.#restored = this.#restore()).catch(() => undefined);
  }

  /** For the gauges: requests waiting, batches open, and per binding the pairs held and the oldest one's wait. */
  gauges(): BatchPartitionGauges {
    return { waitingRequests: this.#waiting.size, openBatches: this.#open.size, byScorer: heldByBinding(this.#held, this.#options.context.now()) };
  }

  async take(retry: RetryMessage, message: MessageHandle): Promise<void> {
    await this.#restored;
    if (this.#gone) throw new ClaimEndedError(CLAIM_ENDED);
    this.#lastSource = message.source;
    if (retry.batch === undefined || retry.batch.requests.length === 0) {
      // Nothing to wait on (not written by the batch tier): scored again as it is.
      return this.#perform({ kind: 'retry', retry, fromBatch: true }, message);
    }
    return new Promise<void>((resolve, reject) => {
      const held: Held = { retry: retry as Held['retry'], message, since: this.#options.context.now(), resolve, reject };
      this.#held.add(held);
      for (const request of held.retry.batch.requests) this.#want(request);
      this.#resumeAnswered([held]);
      this.#scheduleSubmit();
    });
  }

  end(): void {
    if (this.#gone) return;
    this.#gone = true;
    for (const timer of this.#timers) timer.clear();
    this.#submitTimer?.clear();
    for (const ended of this.#ended.values()) ended.forget?.clear();
    for (const held of this.#held) held.reject(new ClaimEndedError(CLAIM_ENDED));
    this.#held.clear();
    this.#onEnd();
  }

  /** A request a held pair waits on: answered, carried by an open batch, already waiting, or now waiting. */
  #want(request: BatchRequest): void {
    // A failed answer went to the pairs held when it came; a pair asking again (its retry) asks the provider again.
    if (this.#answers.get(request.customId)?.status === 'failed') this.#answers.delete(request.customId);
    if (this.#answers.has(request.customId) || this.#carriedBy.has(request.customId) || this.#waiting.has(request.customId)) return;
    this.#waiting.add(request, this.#options.context.now());
  }

  /** Every held pair (of `candidates`) whose requests all have answers is scored again with them. */
  #resumeAnswered(candidates: Iterable<Held> = this.#held): void {
    for (const held of [...candidates]) {
      if (!held.retry.batch.requests.every((request) => this.#answers.has(request.customId))) continue;
      this.#held.delete(held);
      const answers = new Map(held.retry.batch.answers.map((answer) => [answer.customId, answer]));
      for (const request of held.retry.batch.requests) answers.set(request.customId, this.#answers.get(request.customId)!);
      const retry: RetryMessage = { ...held.retry, batch: { ...held.retry.batch, requests: [], answers: [...answers.values()] } };
      this.#perform({ kind: 'retry', retry, fromBatch: true }, held.message).then(held.resolve, held.reject);
    }
    this.#forgetUnneeded();
  }

  #scheduleSubmit(): void {
    if (this.#gone || this.#submitting || this.#waiting.size === 0) return;
    const { settings, context } = this.#options;
    const dueIn = (this.#waiting.since ?? context.now()) + settings.maxWaitMs - context.now();
    if (this.#waiting.size >= settings.maxRequests || this.#waiting.bytes >= settings.maxBytes || dueIn <= 0) {
      this.#submitTimer?.clear();
      this.#submitTimer = undefined;
      void this.#submitWaiting();
      return;
    }
    if (this.#submitTimer !== undefined) return;
    this.#submitTimer = this.#setTimer(() => {
      this.#submitTimer = undefined;
      this.#scheduleSubmit();
    }, dueIn);
  }

  /** Submits every waiting request, in batches within the caps; each batch recorded in the state topic once accepted, then polled. */
  async #submitWaiting(): Promise<void> {
    this.#submitting = true;
    const { provider, settings, context } = this.#options;
    const requests = this.#waiting.takeAll();
    const caps = { maxRequests: Math.min(settings.maxRequests, provider.caps.maxRequests), maxBytes: Math.min(settings.maxBytes, provider.caps.maxBytes) };
    const { batches, tooLarge } = splitBatches(requests, caps);
    // Being submitted: a pair taken meanwhile waits for this submit rather than queueing its request again.
    for (const request of requests) this.#carriedBy.set(request.customId, SUBMITTING);
    this.#fail(tooLarge, 413, `the judge request is larger than a whole batch may be (${caps.maxBytes} bytes): lower the prompt's size, or judge this binding live`);
    try {
      for (const batch of batches) {
        if (this.#gone) return;
        try {
          const state = await provider.submit(batch);
          const open: OpenBatch = { batchId: state.id, api: provider.name, submittedAt: new Date(context.now()).toISOString(), customIds: batch.map((request) => request.customId) };
          this.#opened(open);
          context.stats.batch.batchesSubmitted += 1;
          context.stats.batch.requestsSubmitted += batch.length;
          context.logger.info({ partition: this.#claimed.partition, batchId: state.id, requests: batch.length }, 'submitted a judge batch');
          await this.#writeState([{ key: open.batchId, value: JSON.stringify(open) }]).catch((error: unknown) => context.logger.warn({ err: error, batchId: state.id }, 'the state record of a submitted judge batch could not be written: it is polled all the same, but a crash before its answers would submit it again'));
        } catch (error) {
          if (this.#gone) return;
          for (const request of batch) this.#carriedBy.delete(request.customId);
          if (ScorestreamError.isInstance(error) && error.canRetry) {
            context.logger.warn({ err: error, partition: this.#claimed.partition, requests: batch.length }, 'submitting a judge batch failed; its requests wait for the next submit');
            for (const request of batch) this.#want(request);
          } else {
            context.logger.error({ err: error, partition: this.#claimed.partition, requests: batch.length }, 'the provider refused a judge batch; its pairs fail as their judge calls would have live');
            this.#fail(batch, statusOf(error), error instanceof Error ? error.message : String(error));
          }
        }
      }
    } finally {
      this.#submitting = false;
      this.#scheduleSubmit();
    }
  }

  #opened(open: OpenBatch): void {
    this.#open.set(open.batchId, open);
    for (const customId of open.customIds) this.#carriedBy.set(customId, open.batchId);
    void this.#pollUntilEnded(open);
  }

  /** Polls the batch until it ends (or the claim does), then hands out its answers. */
  async #pollUntilEnded(open: OpenBatch): Promise<void> {
    const { provider, settings, context } = this.#options;
    try {
      const answers = await pollOpenBatch(open, { provider, backoff: { firstDelayMs: settings.pollMs, maxDelayMs: settings.maxPollMs }, sleep: (delayMs) => this.#sleep(delayMs), logger: context.logger, stats: context.stats.batch });
      if (!this.#gone) this.#closed(open, answers);
    } catch (error) {
      if (this.#gone || error instanceof ClaimEndedError) return;
      // The batch is lost to us (unknown to the provider, credentials refused): its requests go again.
      context.logger.error({ err: error, batchId: open.batchId }, 'a judge batch cannot be polled or read; its requests are submitted again');
      this.#closed(open, new Map());
    }
  }

  /** An ended batch: its answers kept, its unanswered requests waiting again, the pairs with every answer resumed. */
  #closed(open: OpenBatch, answers: BatchAnswers): void {
    const stats = this.#options.context.stats.batch;
    this.#open.delete(open.batchId);
    const requestsOf = new Map([...this.#held].flatMap((held) => held.retry.batch.requests.map((request) => [request.customId, request] as const)));
    for (const customId of open.customIds) {
      this.#carriedBy.delete(customId);
      const answer = answers.get(customId);
      if (answer === undefined) {
        stats.unanswered += 1;
        const request = requestsOf.get(customId);
        if (request !== undefined) this.#want(request);
        continue;
      }
      if (answer.status === 'succeeded') stats.answered += 1;
      else stats.failedAnswers += 1;
      this.#answers.set(customId, { ...answer, customId });
    }
    this.#ended.set(open.batchId, { customIds: open.customIds });
    this.#resumeAnswered();
    this.#scheduleSubmit();
  }

  /** Requests the provider refused for good: failed answers, as the live call would have failed. */
  #fail(requests: readonly BatchRequest[], statusCode: number, error: string): void {
    if (requests.length === 0) return;
    for (const request of requests) {
      this.#carriedBy.delete(request.customId);
      this.#answers.set(request.customId, { customId: request.customId, status: 'failed', statusCode, error });
    }
    this.#ended.set(`failed:${requests[0]!.customId}`, { customIds: requests.map((request) => request.customId) });
    this.#resumeAnswered();
  }

  /** Ended batches no held pair needs: forgotten (and tombstoned) after answersGraceMs. */
  #forgetUnneeded(): void {
    if (this.#gone || [...this.#ended.values()].every((ended) => ended.forget !== undefined)) return;
    const needed = new Set([...this.#held].flatMap((held) => held.retry.batch.requests.map((request) => request.customId)));
    for (const [batchId, ended] of this.#ended) {
      if (ended.forget !== undefined || ended.customIds.some((customId) => needed.has(customId))) continue;
      ended.forget = this.#setTimer(() => {
        this.#ended.delete(batchId);
        for (const customId of ended.customIds) this.#answers.delete(customId);
        if (!batchId.startsWith('failed:')) void this.#writeState([{ key: batchId, value: null }]).catch(() => undefined);
      }, this.#options.settings.answersGraceMs);
    }
  }

  /** A batch's state is the provider's fact, no message's: it goes at once (exactly-once: in the partition's next transaction, whatever its messages). */
  #writeState(writes: Array<{ key: string; value: string | null }>): Promise<void> {
    const source = this.#lastSource ?? { topic: this.#claimed.topic, partition: this.#claimed.partition, offset: '0' };
    const owner: JobOwner = { source, output: this.#claimed.detached(undefined) };
    return this.#perform({ kind: 'batch-state', writes, partition: this.#claimed.partition }, owner);
  }

  #sleep(delayMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#gone) return reject(new ClaimEndedError(CLAIM_ENDED));
      const timer = this.#setTimer(() => {
        this.#timers.delete(timer);
        (this.#gone ? () => reject(new ClaimEndedError(CLAIM_ENDED)) : resolve)();
      }, delayMs);
      this.#timers.add(timer);
    });
  }

  async #restore(): Promise<void> {
    const { context, provider, readState } = this.#options;
    const { partition } = this.#claimed;
    const found = await restoreOpenBatches({ readState, partition, logger: context.logger, sleep: (delayMs) => this.#sleep(delayMs), gone: () => this.#gone });
    // Polled by the API it was submitted to; another API's batch is left (its requests go again).
    for (const open of found.values()) if (open.api === provider.name) this.#opened(open);
    context.stats.batch.restoredBatches += found.size;
    if (found.size > 0) context.logger.info({ partition, openBatches: found.size }, 'restored the open judge batches of a batch-tier partition: polling them');
  }
}

function statusOf(error: unknown): number {
  const status = (error as { statusCode?: unknown; status?: unknown } | undefined)?.statusCode ?? (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 400;
}

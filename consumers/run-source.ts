// The one way in: every way a consumed message becomes work — run events, OTLP traces assembled
// into runs, the retry tiers, the feedback join's re-score requests — is a source behind this interface (docs/architecture.md, where new
// inputs join). A source is
//   - a pure decoder: a message's value → what it carries, or why it cannot be read (its dead letter);
//   - where it needs one, state per claimed partition (`claim`): it lives exactly as long as the
//     claim, and is ended with it (a rebalance, a new join, a transaction abort that resets the
//     partition), so that what it holds is always rebuilt from the partition's committed offset.
// The consumer owns everything before and after: the message's trace context, counting, the loop
// guard, the size check and the dead letter (message-path.ts, once for every source), and a job's
// way through the core to the emitter (perform-job.ts).
import type { AgentRunEvent } from '../src/kit/contracts/agent-run-event.ts';
import type { Source } from '../src/kit/contracts/common.ts';
import type { SkipReason } from '../src/kit/contracts/decision-record.ts';
import type { RescoreRequest } from '../src/kit/contracts/rescore-request.ts';
import type { RetryMessage } from '../src/kit/contracts/retry-message.ts';
import type { ThreadCloseReason } from '../src/kit/contracts/thread-ref.ts';
import type { ChangelogWrite, ThreadCloseWork } from '../src/engine/threads/thread-stage.ts';
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import type { RunTraceContext } from '../otel/run-trace-context.ts';
import type { Decoded } from '../src/kit/contracts/decode-record.ts';
import type { DeadLetterCode } from '../src/kit/contracts/dead-letter.ts';
import type { MessageTrace } from './message-trace.ts';
import type { MessageOutput } from './record-sink.ts';

/** A task's decoder's answer: the one Decoded<T> of every input, its failure codes a dead letter's. */
export type Decoding<T> = Decoded<T, DeadLetterCode>;

/**
 * When a consumed message reached the service, epoch ms on the records' clock: its batch fetched,
 * then a run slot held. A job's first latency stages (src/engine/pipeline/arrival-latency.ts).
 */
export type Arrival = { readonly fetchedAt: number; readonly slotAt: number };

/** What a source asks the consumer to do for a message. */
export type SourceJob =
  /**
   * Score a run with every binding; `trace` is the run's context, `source` where its event came
   * from; `assembled` for a run put together from several messages (an OTLP trace): the first
   * one's arrival (its assembly ends as the job starts), else the owner's arrival is the run's.
   */
  | { readonly kind: 'run'; readonly event: AgentRunEvent; readonly trace: RunTraceContext; readonly source: Source; readonly assembled?: { readonly first: Arrival | undefined } }
  /** Score a deferred pair again, its binding decided the first time; `fromBatch`: a pair back from the batch tier with its answers (batch-source.ts). */
  | { readonly kind: 'retry'; readonly retry: RetryMessage; readonly fromBatch?: true }
  /** Score a pair again for a feedback that disagrees with it (the feedback join's request), its run event read back from the runs topic. */
  | { readonly kind: 'rescore'; readonly request: RescoreRequest }
  /** A trace that yielded no run: one skip decision per binding, with the trace id as run id. */
  | { readonly kind: 'no-run'; readonly traceId: string; readonly reason: SkipReason; readonly detail: string; readonly source: Source }
  /** An explicit end of a conversation (ThreadEnded) read beside the runs: forwarded to `{runs}-by-thread` under its thread key. */
  | { readonly kind: 'thread-end'; readonly key: string; readonly json: string }
  /** A close of a by-thread partition's thread state (thread-source.ts): its version to score, or its decision. */
  | { readonly kind: 'thread-close'; readonly closedBy: ThreadCloseReason; readonly work: ThreadCloseWork }
  /** Changelog writes of by-thread partition `partition`'s thread state, in order (written only after the records of the steps that made them). */
  | { readonly kind: 'thread-state'; readonly writes: readonly ChangelogWrite[]; readonly partition: number }
  /** State writes of batch-tier partition `partition`: its batches opened at the provider, and tombstones once their answers were used. */
  | { readonly kind: 'batch-state'; readonly writes: readonly ChangelogWrite[]; readonly partition: number };

/** One consumed message on its way: where it came from, where its records go, its trace context and process span. */
export type MessageHandle = { readonly source: Source; readonly output: MessageOutput; readonly trace: MessageTrace; readonly arrival?: Arrival | undefined };

/**
 * Whose a job's records are: a consumed message's, or — for work no message owns (a thread closed
 * by its idle timer, restore tombstones) — the claim's detached output after the message before
 * it, which has no trace context of its own.
 */
export type JobOwner = { readonly source: Source; readonly output: MessageOutput; readonly trace?: MessageTrace | undefined; readonly arrival?: Arrival | undefined };

/** The consumer's way to do a job: resolves once every record of it was accepted by `owner.output`; rejects only on the hard stop. */
export type PerformJob = (job: SourceJob, owner: JobOwner) => Promise<void>;

/**
 * The claimed partition, as a source with state sees it: which one (a thread source reads the
 * changelog partition of the same number), and where work that no message owns goes, after the
 * work of message `after` (a thread closed by its idle timer: at-least-once the publisher,
 * exactly-once the partition's next transaction; PartitionClaim.detached, record-sink.ts).
 */
export type ClaimedPartition = { readonly topic: string; readonly partition: number; detached(after: string | undefined): MessageOutput };

export type SourcePartition<Decoded> = {
  /**
   * A decoded message: resolves once everything it carries is done — its jobs, and any other job it
   * waits for (an OTLP message waits for every trace it fed spans to) — which is what lets its
   * offset be committed.
   */
  take(decoded: Decoded, message: MessageHandle): Promise<void>;
  /**
   * The claim ended: the partition will be read again from its committed offset, by this instance
   * or another. State is dropped; messages still waiting are abandoned (their claim ended, so they are
   * not committed: RecordSink.assignmentEnded) by rejecting with ClaimEndedError.
   */
  end(): void;
};

export type RunSource<Decoded = unknown> = {
  /** For logs and spans: 'run-event', 'otlp', 'retry'. */
  readonly name: string;
  /**
   * A topic of the service's own records (the retry tiers): the loop guard, the consumed count and
   * the size check are for agents' input and do not apply.
   */
  readonly internal?: boolean;
  /** Pure: the value (null for a tombstone) → what it carries, or why not. */
  decode(value: Buffer | null): Decoding<Decoded>;
  /** When a message is due, epoch ms (the retry tiers): until then its partition is held (retry-gate.ts). */
  dueAt?(message: Pick<ConsumedMessage, 'headers'>): number;
  /** The source's state for one claimed partition, doing its jobs through `perform`. */
  claim(perform: PerformJob, partition?: ClaimedPartition): SourcePartition<Decoded>;
  /** The consumer stopped. */
  close?(): void;
};

/** Rejects a message still waiting when its claim's state is dropped: it is abandoned, never dead-lettered. */
export class ClaimEndedError extends Error {
  constructor(what: string) {
    super(`the message's partition claim ended: ${what}`);
    this.name = 'ClaimEndedError';
  }
}

/** A source without state: every message is one job, done at once. */
export function statelessSource<Decoded>(source: Omit<RunSource<Decoded>, 'claim'> & { job(decoded: Decoded, message: MessageHandle): SourceJob }): RunSource<Decoded> {
  const { job, ...rest } = source;
  return {
    ...rest,
    claim: (perform) => ({ take: (decoded, message) => perform(job(decoded, message), message), end: () => undefined }),
  };
}

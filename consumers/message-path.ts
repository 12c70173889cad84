// One consumed message, start to finish, the same for every source (run-source.ts):
//   count → loop guard (our own records) → size check → decode → (dead letter) → the source,
// which hands its jobs to the job runner (perform-job.ts) → core → emitter (record-emitter.ts).
// The message's trace context is read once, by the scoring consumer, before it gets here
// (message-trace.ts). `process` resolves with how the message ended:
//   finished   everything it produced was accepted by its output (at-least-once: acknowledged by
//              Kafka; exactly-once: held for the partition's next transaction), so its offset may
//              be committed once all before it are;
//   abandoned  it will never finish — the hard stop came, or its claim's state was dropped — so
//              its offset stays uncommitted and it is read again after a restart or rebalance.
// Processing that throws for any other reason is a bug, not the message's fault: the message is
// dead-lettered (`processing_failed`) so the partition keeps moving.
import { SpanStatusCode } from '@opentelemetry/api';
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import { isOwnOutput } from './loop-guard.ts';
import { deadLetterReasonOf } from './dead-letter-reason.ts';
import type { DeadLetterReason } from './dead-letter-reason.ts';
import type { MessageContext } from './message-context.ts';
import { createJobRunner } from './perform-job.ts';
import { createRecordEmitter } from './emitter/record-emitter.ts';
import type { RecordEmitter } from './emitter/record-emitter.ts';
import { ClaimEndedError } from './run-source.ts';
import type { ClaimedPartition, MessageHandle, RunSource, SourcePartition } from './run-source.ts';

export type MessageEnd = 'finished' | 'abandoned';

/** A claimed partition of one source, as the consumer drives it. */
export type PathPartition = {
  process(message: ConsumedMessage, handle: MessageHandle): Promise<MessageEnd>;
  /** The claim ended: the source drops its state for the partition. */
  end(): void;
};

export type MessagePath = {
  readonly emitter: RecordEmitter;
  /** The path of one claimed partition of `source`. */
  partition<Decoded>(source: RunSource<Decoded>, claimed?: ClaimedPartition): PathPartition;
};

/** What the message path needs besides the message: the shared context and the one way out. */
export type PathDependencies = { readonly context: MessageContext; readonly emitter: RecordEmitter };

export function createMessagePath(context: MessageContext): MessagePath {
  const emitter = createRecordEmitter(context);
  const perform = createJobRunner(context, emitter);
  const dependencies = { context, emitter };
  return {
    emitter,
    partition(source, claimed) {
      const partition = source.claim(perform, claimed);
      return { process: (message, handle) => processMessage(message, handle, source, partition, dependencies), end: () => partition.end() };
    },
  };
}

/** One message of `source` down the path; resolves with how it ended, never rejects. */
export function processMessage<Decoded>(message: ConsumedMessage, handle: MessageHandle, source: RunSource<Decoded>, partition: SourcePartition<Decoded>, dependencies: PathDependencies): Promise<MessageEnd> {
  return prologue(message, handle, source, partition, dependencies).then(
    (): MessageEnd => 'finished',
    (error: unknown) => deadLetterUnexpected(message, handle, error, dependencies),
  );
}

/** Count, loop guard, size, decode, dead letter — once for every source — then the source takes it. */
async function prologue<Decoded>(message: ConsumedMessage, handle: MessageHandle, source: RunSource<Decoded>, partition: SourcePartition<Decoded>, dependencies: PathDependencies): Promise<void> {
  const { config, stats } = dependencies.context;
  const span = handle.trace.span?.isRecording() === true ? handle.trace.span : undefined;
  if (source.internal !== true) {
    stats.consumed += 1;
    if (isOwnOutput(message.headers)) {
      stats.countSkip('own_output');
      span?.setAttribute('scorestream.skip.reason', 'own_output');
      return;
    }
    const size = message.value?.length ?? 0;
    if (size > config.maxMessageBytes) {
      await deadLetter(message, handle, { code: 'oversized', message: `the message value is ${size} bytes, over the limit of ${config.maxMessageBytes} bytes (maxMessageBytes)` }, dependencies);
      return;
    }
  }
  const decoded = source.decode(message.value);
  if (!decoded.success) {
    await deadLetter(message, handle, deadLetterReasonOf(decoded), dependencies);
    return;
  }
  await partition.take(decoded.data, handle);
}

async function deadLetter(message: ConsumedMessage, handle: MessageHandle, reason: DeadLetterReason, { context, emitter }: PathDependencies): Promise<void> {
  context.logger.warn({ source: handle.source, code: reason.code }, `dead-lettered: ${reason.message.split('\n')[0]}`);
  handle.trace.span?.setAttribute('scorestream.dead_letter.reason', reason.code);
  await emitter.deadLetter(message, handle.source, reason, handle.output);
}

/** Processing threw: a bug, dead-lettered as processing_failed — unless the message will never finish anyway. */
async function deadLetterUnexpected(message: ConsumedMessage, handle: MessageHandle, error: unknown, { context, emitter }: PathDependencies): Promise<MessageEnd> {
  // After the hard stop the error is most likely the stop's own (a publish that gave up): the
  // message is fine, and its offset stays uncommitted so that it is scored after the restart. A
  // message whose claim's state was dropped (ClaimEndedError) is read again by the next claim.
  if (context.hardStop.aborted || error instanceof ClaimEndedError) return 'abandoned';
  const span = handle.trace.span;
  span?.recordException(error instanceof Error ? error : String(error));
  span?.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  context.logger.error({ err: error, source: handle.source }, 'processing a message failed unexpectedly; dead-lettering it');
  try {
    await emitter.deadLetter(message, handle.source, { code: 'processing_failed', message: error instanceof Error ? error.message : String(error) }, handle.output);
    return 'finished';
  } catch (publishError) {
    context.logger.error({ err: publishError, source: handle.source }, 'could not dead-letter the message; its offset stays uncommitted');
    return 'abandoned';
  }
}

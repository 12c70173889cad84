// The scoring consumer's handling of one fetched batch (scoring-consumer.ts): each message of the
// batch is dispatched down its claim's path (message-path.ts) without waiting for it to finish,
// so many messages — of several partitions, and within one partition — are scored at once, under
// three rules:
//   - a message takes a run slot (task-routes.ts: the runs' slots, or the by-thread topic's own);
//     when none is free the partition's fetching pauses until one is, the heartbeat going on;
//   - a retry tier's message goes only once due (retry-gate.ts): until then the partition pauses;
//   - nothing is dispatched under a claim that ended, past a replay's end offset, or below what the
//     partition's previous owner committed.
// Each message runs inside its consumer `process {topic}` span when those are on
// (startMessageTrace), and settles its ticket — finished, or abandoned — when its path is done.
import { context as otelContext, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import type { BatchControl, ConsumedBatch, GroupConsumer } from '../kafka/kafka-transport.ts';
import type { MessageEnd, PathPartition } from './message-path.ts';
import type { Arrival } from './run-source.ts';
import { startMessageTrace, untracedMessage } from './message-trace.ts';
import type { MessageTicket, PartitionClaim, RecordSink } from './record-sink.ts';
import type { RetryGate } from './retry-gate.ts';
import type { RunSlots } from './run-slots.ts';
import type { ServiceStats } from './service-stats.ts';
import type { TaskRoutes } from './task-routes.ts';

export type BatchDispatchOptions = {
  consumer: Pick<GroupConsumer, 'pause'>;
  sink: Pick<RecordSink, 'claim'>;
  routes: TaskRoutes;
  /** The claim's path: its source's state for the partition lives as long as the claim. */
  pathOf(claim: PartitionClaim): PathPartition;
  retryGate: RetryGate;
  stats: ServiceStats;
  runsTopic: string;
  groupId: string;
  /** Per partition of the runs topic, the offset to stop before (a replay's end). */
  endOffsets?: ReadonlyMap<number, number> | undefined;
  /** A `process {topic}` span per message, on this tracer; none without one. */
  processSpans?: Tracer | undefined;
  /** The records' clock: each message's arrival (fetched, holding a slot) is read on it. */
  now(): number;
  isStopping(): boolean;
};

export type BatchDispatch = {
  eachBatch(batch: ConsumedBatch, control: BatchControl): Promise<void>;
  /** Resolves once no message is in flight. */
  idle(): Promise<void>;
};

const partitionKey = (topic: string, partition: number) => `${topic}[${partition}]`;

export function createBatchDispatch(options: BatchDispatchOptions): BatchDispatch {
  const { stats, routes } = options;
  const idleWaiters: Array<() => void> = [];

  const settle = (ticket: MessageTicket, outcome: MessageEnd) => {
    if (outcome === 'finished') ticket.finished();
    else ticket.abandoned();
    stats.inFlight -= 1;
    stats.completed += outcome === 'finished' ? 1 : 0;
    if (stats.inFlight === 0) while (idleWaiters.length > 0) idleWaiters.shift()!();
  };

  const processOne = async (topic: string, partition: number, message: ConsumedMessage, ticket: MessageTicket, pathPartition: PathPartition, arrival: Arrival) => {
    const tracer = options.processSpans;
    if (tracer === undefined) {
      const outcome = await pathPartition.process(message, { source: { topic, partition, offset: message.offset }, output: ticket.output, trace: untracedMessage(message), arrival });
      settle(ticket, outcome);
      return;
    }
    const messageTrace = startMessageTrace(tracer, message, { topic, partition, groupId: options.groupId });
    const handle = { source: { topic, partition, offset: message.offset }, output: ticket.output, trace: messageTrace, arrival };
    const outcome = await otelContext.with(trace.setSpan(ROOT_CONTEXT, messageTrace.span), () => pathPartition.process(message, handle));
    messageTrace.span.end();
    settle(ticket, outcome);
  };

  /** Waits for a run slot, pausing the partition meanwhile; false when the claim ended or we are stopping. */
  const waitForSlot = async (control: BatchControl, lane: RunSlots, claim: PartitionClaim, key: string): Promise<boolean> => {
    const resume = control.pause();
    stats.pausedPartitions.add(key);
    try {
      const held = await lane.acquire({ whileWaiting: control.heartbeat, cancelled: () => options.isStopping() || !claim.active });
      if (held && (!claim.active || control.isStale())) {
        lane.release();
        return false;
      }
      return held;
    } finally {
      stats.pausedPartitions.delete(key);
      resume();
    }
  };

  const eachBatch = async (batch: ConsumedBatch, control: BatchControl) => {
    const { heartbeat, isRunning, isStale, resolveOffset } = control;
    // The batch is handed to the service now (the partition is fetched again only once this handler
    // is done); a fetched batch waiting for a worker of a concurrent-partitions pool waits before this.
    const fetchedAt = options.now();
    const key = partitionKey(batch.topic, batch.partition);
    const claim = await options.sink.claim(batch.topic, batch.partition);
    const source = routes.sourceOf(batch.topic);
    const pathPartition = options.pathOf(claim);
    const lane = routes.slotsOf(batch.topic);
    // A retry tier's backlog is pairs waiting for their due time, not lag.
    const lag = source.dueAt !== undefined ? stats.retryWaitingByPartition : stats.lagByPartition;
    const highWatermark = batch.highWatermark === undefined ? undefined : Number(batch.highWatermark);
    if (highWatermark !== undefined) lag.set(key, Math.max(0, highWatermark - Number(batch.messages[0]?.offset ?? highWatermark)));
    const endOffset = batch.topic === options.runsTopic ? options.endOffsets?.get(batch.partition) : undefined;
    for (const message of batch.messages) {
      if (options.isStopping() || !isRunning() || isStale() || !claim.active) break;
      if (endOffset !== undefined && Number(message.offset) >= endOffset) {
        options.consumer.pause([{ topic: batch.topic, partitions: [batch.partition] }]); // the range ends here
        break;
      }
      if (claim.fromOffset !== undefined && Number(message.offset) < claim.fromOffset) {
        resolveOffset(message.offset); // committed by the partition's previous owner after we fetched
        continue;
      }
      // Not yet due: the partition pauses until it is, and this message is fetched again then.
      if (source.dueAt !== undefined && !options.retryGate.admit(batch.topic, batch.partition, source.dueAt(message), control.pause)) break;
      if (!lane.tryAcquire() && !(await waitForSlot(control, lane, claim, key))) break;
      const ticket = claim.open(message.offset, () => lane.release());
      resolveOffset(message.offset);
      stats.inFlight += 1;
      if (highWatermark !== undefined) lag.set(key, Math.max(0, highWatermark - Number(message.offset) - 1));
      void processOne(batch.topic, batch.partition, message, ticket, pathPartition, { fetchedAt, slotAt: options.now() });
    }
    await heartbeat().catch((error: unknown) => {
      if (!options.isStopping()) throw error;
    });
  };

  return {
    eachBatch,
    idle: () => (stats.inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
  };
}

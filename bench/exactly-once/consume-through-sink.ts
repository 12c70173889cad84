// One run of a transaction layout: a consumer in a fresh group reads the whole input topic and hands
// every message to the layout's sink the way the service's scoring consumer does
// (consumers/scoring-consumer.ts), with no scoring in between: a run slot per message (the stream
// pauses while all are taken), a claim per partition made on its first message, a ticket per
// message whose one output record is published and finished at once, and the sink's commit every
// interval. The run ends when every message's transaction has ended; its clock runs from the first
// message consumed to the last one committed. Each run starts on a fresh group, so no claim has
// anything to skip (PartitionClaim.fromOffset) and no rebalance happens.
import { Consumer, MessagesStreamModes } from '@platformatic/kafka';
import type { Message } from '@platformatic/kafka';
import { KAFKA_DEFAULTS } from '../../kafka/kafka-defaults.ts';
import type { OutgoingRecord } from '../../kafka/kafka-records.ts';
import type { PlatformaticConnection } from '../../kafka/platformatic-options.ts';
import type { PartitionClaim, RecordSink } from '../../consumers/record-sink.ts';
import type { ServiceStats } from '../../consumers/service-stats.ts';
import { sleep } from '../pipeline/measurement.ts';

export type LayoutRun = { records: number; seconds: number; recordsPerSecond: number };

export type ConsumeThroughSinkOptions = {
  connection: PlatformaticConnection;
  inputTopic: string;
  outputTopic: string;
  groupId: string;
  /** Records on the input topic: the run ends once this many were committed. */
  records: number;
  partitions: number;
  commitIntervalMs: number;
  runsInFlight: number;
  fetchBytesPerPartition: number;
  timeoutMs: number;
  /**
   * The layout's sink, made once the consumer exists (layout B reads the group metadata from it);
   * `fail` ends the run at once (a transaction failed: the benchmark injects no faults).
   */
  sink: (consumer: Consumer<Buffer, Buffer, Buffer, Buffer>, fail: (error: unknown) => void) => RecordSink;
  /** The sink's counters: a transaction that failed makes the run not count. */
  stats: ServiceStats;
};

/** The one record a message makes: to the output partition of the same number, as a score record partitioned by run id is when both topics have as many partitions. */
function outputRecord(outputTopic: string, message: Message<Buffer, Buffer, Buffer, Buffer>): OutgoingRecord {
  return {
    topic: outputTopic,
    key: message.key === undefined || message.key === null ? null : message.key.toString('utf8'),
    value: `{"source":{"partition":${message.partition},"offset":"${message.offset}"},"score":1}`,
    partition: message.partition,
  };
}

export async function consumeThroughSink(options: ConsumeThroughSinkOptions): Promise<LayoutRun> {
  const consumer = new Consumer({ ...options.connection, groupId: options.groupId, autocommit: false, maxWaitTime: KAFKA_DEFAULTS.platformatic.fetchMaxWaitMs, maxBytesPerPartition: options.fetchBytesPerPartition });
  const claims = new Map<number, PartitionClaim>();
  /** Messages of a partition whose claim is being made, in offset order. */
  const waiting = new Map<number, Array<Message<Buffer, Buffer, Buffer, Buffer>>>();
  let inFlight = 0;
  let released = 0;
  let startedAt: number | undefined;
  let endedAt: number | undefined;
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const finished = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const sink = options.sink(consumer, (error) => settle.reject(error));
  const stream = await consumer.consume({ topics: [options.inputTopic], mode: MessagesStreamModes.COMMITTED, fallbackMode: 'earliest', autocommit: false });

  const release = () => {
    inFlight -= 1;
    released += 1;
    if (released === options.records) {
      endedAt = performance.now();
      settle.resolve();
    }
    if (stream.isPaused() && inFlight < options.runsInFlight) stream.resume();
  };

  const openTicket = (claim: PartitionClaim, message: Message<Buffer, Buffer, Buffer, Buffer>) => {
    const ticket = claim.open(message.offset.toString(), release);
    ticket.output.publish([outputRecord(options.outputTopic, message)]).then(() => ticket.finished(), settle.reject);
  };

  const dispatch = (message: Message<Buffer, Buffer, Buffer, Buffer>) => {
    const { partition } = message;
    const claim = claims.get(partition);
    if (claim !== undefined) return openTicket(claim, message);
    const queued = waiting.get(partition);
    if (queued !== undefined) return void queued.push(message);
    waiting.set(partition, [message]);
    sink.claim(message.topic, partition).then((made) => {
      claims.set(partition, made);
      for (const next of waiting.get(partition) ?? []) openTicket(made, next);
      waiting.delete(partition);
    }, settle.reject);
  };

  stream.on('data', (message: Message<Buffer, Buffer, Buffer, Buffer>) => {
    startedAt ??= performance.now();
    inFlight += 1;
    if (inFlight >= options.runsInFlight) stream.pause();
    dispatch(message);
  });
  stream.on('error', settle.reject);
  const commitTimer = setInterval(() => void sink.commit(), options.commitIntervalMs);
  const timeout = setTimeout(() => settle.reject(new Error(`only ${released} of ${options.records} records went through a transaction within ${options.timeoutMs / 1000} s`)), options.timeoutMs);
  try {
    await finished;
    if (options.stats.transactionFailures > 0) throw new Error(`${options.stats.transactionFailures} transaction(s) failed: the benchmark injects no faults, so this run does not count`);
    // A transaction's offsets become readable once the coordinator wrote its markers, a moment after
    // EndTxn was answered (2.12.1's consumer fetches offsets without require_stable), so the check waits.
    const partitions = Array.from({ length: options.partitions }, (_, partition) => partition);
    const committedTotal = async () => {
      const committed = await consumer.listCommittedOffsets({ topics: [{ topic: options.inputTopic, partitions }] });
      return (committed.get(options.inputTopic) ?? []).reduce((sum, offset) => sum + (offset > 0n ? Number(offset) : 0), 0);
    };
    let total = await committedTotal();
    for (const deadline = performance.now() + 10_000; total !== options.records && performance.now() < deadline; total = await committedTotal()) await sleep(100);
    if (total !== options.records) throw new Error(`the group ${options.groupId} committed ${total} offsets, not ${options.records}`);
  } finally {
    clearInterval(commitTimer);
    clearTimeout(timeout);
    await stream.close().catch(() => undefined);
    await sink.close();
    await consumer.close(true);
  }
  const seconds = (endedAt! - startedAt!) / 1000;
  return { records: options.records, seconds, recordsPerSecond: options.records / seconds };
}

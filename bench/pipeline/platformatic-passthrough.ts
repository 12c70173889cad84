// Scenario (a-p): @platformatic/kafka's ceiling on this machine, as (a) is kafkajs'. Its consumer
// is one message stream, so the passthrough gathers what arrived since the last request and,
// one request at a time, produces the gathered values to the output topic (acks = all, like the
// service) and commits each partition's last offset — consume → produce with no work in between.
// The same loop, with each message's records made by a function first, is scenario (m)
// (required-work.ts): the work (c) is required to do, by hand on this client.
import { Consumer, MessagesStreamModes, ProduceAcks, Producer } from '@platformatic/kafka';
import type { Message } from '@platformatic/kafka';
import type { Throughput } from './measurement.ts';
import { measureRate } from './measurement.ts';
import type { ScenarioSize } from './passthrough.ts';

export type PlatformaticScenario = { brokers: string[]; inputTopic: string; outputTopic: string; groupId: string };

export type ConsumedMessage = Message<Buffer, Buffer, Buffer, Buffer>;
export type OutgoingValue = { key: Buffer | undefined; value: Buffer | undefined };

/** What a loop over the stream does besides consume → produce → commit. */
export type PlatformaticLoop = {
  what: string;
  clientId: string;
  /** An idempotent producer, as the service's (one request in flight, which the client enforces). */
  idempotent: boolean;
  /** A message's records, made in arrival order; without, the message's own key and value go out. */
  recordsOf?: (message: ConsumedMessage) => Promise<OutgoingValue[]>;
  /** Messages taken and not yet acknowledged past which the stream pauses (resumed below half); without, it never pauses. */
  maxUnacknowledged?: number;
};

/** Within a broker's default 1 MiB batch limit, and the service publisher's 1,000 records a request. */
const maxBytesPerRequest = 900_000;
const maxRecordsPerRequest = 1_000;

type Taken = { topic: string; partition: number; offset: bigint; leaderEpoch: number; records: OutgoingValue[]; bytes: number };

function taken(message: ConsumedMessage, records: OutgoingValue[]): Taken {
  let bytes = 0;
  for (const record of records) bytes += record.value?.length ?? 0;
  return { topic: message.topic, partition: message.partition, offset: message.offset, leaderEpoch: message.leaderEpoch, records, bytes };
}

export async function runPlatformaticLoop(options: PlatformaticScenario & ScenarioSize & PlatformaticLoop): Promise<Throughput> {
  const connection = { clientId: options.clientId, bootstrapBrokers: options.brokers };
  const producer = new Producer({ ...connection, ...(options.idempotent ? { idempotent: true } : {}), acks: ProduceAcks.ALL, autocreateTopics: false });
  const consumer = new Consumer({ ...connection, groupId: options.groupId, autocommit: false });
  let acknowledged = 0;
  let unacknowledged = 0;
  let gathered: Taken[] = [];
  let sending = false;
  let failure: unknown;

  const sendGathered = async () => {
    if (sending || gathered.length === 0 || failure !== undefined) return;
    sending = true;
    let bytes = 0;
    let records = 0;
    let count = 0;
    for (; count < gathered.length; count += 1) {
      const next = gathered[count]!;
      if (count > 0 && (bytes + next.bytes >= maxBytesPerRequest || records + next.records.length > maxRecordsPerRequest)) break;
      bytes += next.bytes;
      records += next.records.length;
    }
    const batch = gathered.slice(0, count);
    gathered = gathered.slice(count);
    try {
      await producer.send({ messages: batch.flatMap((entry) => entry.records.map((record) => ({ topic: options.outputTopic, key: record.key, value: record.value }))), acks: ProduceAcks.ALL });
      const last = new Map<string, { topic: string; partition: number; offset: bigint; leaderEpoch: number }>();
      for (const entry of batch) last.set(`${entry.topic}:${entry.partition}`, { topic: entry.topic, partition: entry.partition, offset: entry.offset + 1n, leaderEpoch: entry.leaderEpoch });
      await consumer.commit({ offsets: [...last.values()] });
      acknowledged += batch.length;
      unacknowledged -= batch.length;
      if (stream.isPaused() && unacknowledged < (options.maxUnacknowledged ?? 0) / 2) stream.resume();
    } catch (error) {
      failure = error;
    } finally {
      sending = false;
      if (gathered.length > 0) setImmediate(() => void sendGathered());
    }
  };
  const gather = (entry: Taken) => {
    gathered.push(entry);
    if (!sending) setImmediate(() => void sendGathered());
  };

  // Messages are worked on one after another in arrival order, so a request's offsets are each partition's next.
  let working = Promise.resolve();
  const stream = await consumer.consume({ topics: [options.inputTopic], mode: MessagesStreamModes.COMMITTED, fallbackMode: 'earliest', autocommit: false });
  stream.on('data', (message) => {
    unacknowledged += 1;
    if (options.maxUnacknowledged !== undefined && unacknowledged >= options.maxUnacknowledged) stream.pause();
    const { recordsOf } = options;
    if (recordsOf === undefined) {
      gather(taken(message, [{ key: message.key, value: message.value }]));
      return;
    }
    working = working.then(async () => {
      if (failure !== undefined) return;
      try {
        gather(taken(message, await recordsOf(message)));
      } catch (error) {
        failure = error;
      }
    });
  });
  try {
    return await measureRate({
      ...options,
      completed: () => {
        if (failure !== undefined) throw failure;
        return acknowledged;
      },
    });
  } finally {
    await stream.close().catch(() => undefined);
    await consumer.close(true);
    await producer.close(true);
  }
}

export function runPlatformaticPassthrough(options: PlatformaticScenario & ScenarioSize): Promise<Throughput> {
  return runPlatformaticLoop({ ...options, what: '(a-p) platformatic passthrough', clientId: 'scorestream-bench-a-p', idempotent: false });
}

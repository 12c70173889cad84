// Scenario (a-p): @platformatic/kafka's ceiling on this machine, as (a) is kafkajs'. Its consumer
// is one message stream, so the passthrough gathers what arrived since the last request and,
// one request at a time, produces the gathered values to the output topic (acks = all, like the
// service) and commits each partition's last offset — consume → produce with no work in between.
import { Consumer, MessagesStreamModes, ProduceAcks, Producer } from '@platformatic/kafka';
import type { Message } from '@platformatic/kafka';
import type { Throughput } from './measurement.ts';
import { measureRate } from './measurement.ts';
import type { ScenarioSize } from './passthrough.ts';

export type PlatformaticScenario = { brokers: string[]; inputTopic: string; outputTopic: string; groupId: string };

export async function runPlatformaticPassthrough(options: PlatformaticScenario & ScenarioSize): Promise<Throughput> {
  const connection = { clientId: 'scorestream-bench-a-p', bootstrapBrokers: options.brokers };
  const producer = new Producer({ ...connection, acks: ProduceAcks.ALL, autocreateTopics: false });
  const consumer = new Consumer({ ...connection, groupId: options.groupId, autocommit: false });
  let acknowledged = 0;
  let gathered: Array<Message<Buffer, Buffer, Buffer, Buffer>> = [];
  let sending = false;
  let failure: unknown;
  const sendGathered = async () => {
    if (sending || gathered.length === 0) return;
    sending = true;
    // Within a broker's default 1 MiB batch limit, as the service's publisher keeps its requests.
    let bytes = 0;
    let count = 0;
    while (count < gathered.length && (count === 0 || bytes + (gathered[count]!.value?.length ?? 0) < 900_000)) bytes += gathered[count++]!.value?.length ?? 0;
    const batch = gathered.slice(0, count);
    gathered = gathered.slice(count);
    try {
      await producer.send({ messages: batch.map((message) => ({ topic: options.outputTopic, key: message.key, value: message.value })), acks: ProduceAcks.ALL });
      const last = new Map<string, { topic: string; partition: number; offset: bigint; leaderEpoch: number }>();
      for (const message of batch) last.set(`${message.topic}:${message.partition}`, { topic: message.topic, partition: message.partition, offset: message.offset + 1n, leaderEpoch: message.leaderEpoch });
      await consumer.commit({ offsets: [...last.values()] });
      acknowledged += batch.length;
    } catch (error) {
      failure = error;
    } finally {
      sending = false;
      if (gathered.length > 0) setImmediate(() => void sendGathered());
    }
  };
  const stream = await consumer.consume({ topics: [options.inputTopic], mode: MessagesStreamModes.COMMITTED, fallbackMode: 'earliest', autocommit: false });
  stream.on('data', (message) => {
    gathered.push(message);
    if (!sending) setImmediate(() => void sendGathered());
  });
  try {
    return await measureRate({
      ...options,
      completed: () => {
        if (failure !== undefined) throw failure;
        return acknowledged;
      },
      what: '(a-p) platformatic passthrough',
    });
  } finally {
    await stream.close().catch(() => undefined);
    await consumer.close(true);
    await producer.close(true);
  }
}

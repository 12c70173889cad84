// Scenario (a): this Kafka client's ceiling on this machine. A kafkajs consumer whose eachBatch
// produces the batch's values to an output topic with one `send` (acks = all, like the service)
// and then commits — consume → produce with no work in between. (a3) is the same with the
// service's output volume: three records per event (one per scorer) of a score record's size,
// keyed by the event's key and carrying the service's origin header.
import type { Kafka } from 'kafkajs';
import type { Throughput } from './measurement.ts';
import { measureRate } from './measurement.ts';

export type ScenarioTopics = { kafka: Kafka; inputTopic: string; outputTopic: string; groupId: string };
export type ScenarioSize = { warmUpEvents: number; targetEvents: number; maxSeconds?: number; timeoutMs: number; brokerPid?: number | undefined };

export type FanOut = { recordsPerEvent: number; recordBytes: number };

export async function runPassthrough(options: ScenarioTopics & ScenarioSize & { partitions: number; fanOut?: FanOut }): Promise<Throughput> {
  const { kafka } = options;
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  const consumer = kafka.consumer({ groupId: options.groupId });
  await Promise.all([producer.connect(), consumer.connect()]);
  let acknowledged = 0;
  try {
    await consumer.subscribe({ topics: [options.inputTopic], fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently: options.partitions,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary }) => {
        if (batch.messages.length === 0) return;
        const { fanOut } = options;
        const messages =
          fanOut === undefined
            ? batch.messages.map((message) => ({ key: message.key, value: message.value }))
            : batch.messages.flatMap((message) => {
                const record = { key: message.key, value: message.value!.subarray(0, fanOut.recordBytes), headers: { 'scorestream-origin': 'scorestream' } };
                return Array.from({ length: fanOut.recordsPerEvent }, () => record);
              });
        await producer.send({ topic: options.outputTopic, acks: -1, messages });
        acknowledged += batch.messages.length;
        resolveOffset(batch.lastOffset());
        await commitOffsetsIfNecessary();
      },
    });
    return await measureRate({ ...options, completed: () => acknowledged, what: options.fanOut === undefined ? '(a) passthrough' : '(a3) passthrough with fan-out' });
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
  }
}

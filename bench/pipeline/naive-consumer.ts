// Scenario (b): what a first hand-written scoring consumer looks like. One message at a time
// (eachMessage): JSON.parse, the three scorers one after another through scorer.run(), and each
// score record sent on its own, awaiting the broker's acknowledgement before the next.
import type { Throughput } from './measurement.ts';
import { measureRate } from './measurement.ts';
import type { ScenarioSize, ScenarioTopics } from './passthrough.ts';

type RunnableScorer = { id: string; run(input: Record<string, unknown>): Promise<unknown> };

export async function runNaiveConsumer(options: ScenarioTopics & ScenarioSize & { scorers: readonly RunnableScorer[] }): Promise<Throughput> {
  const { kafka } = options;
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  const consumer = kafka.consumer({ groupId: options.groupId });
  await Promise.all([producer.connect(), consumer.connect()]);
  let completed = 0;
  try {
    await consumer.subscribe({ topics: [options.inputTopic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const event = JSON.parse(message.value!.toString('utf8')) as Record<string, unknown>;
        const input = { runId: event.runId, input: event.input, output: event.output, groundTruth: event.groundTruth };
        for (const scorer of options.scorers) {
          const result = (await scorer.run(input)) as { score?: number; reason?: string };
          const record = { runId: event.runId, scorerId: scorer.id, score: result.score, reason: result.reason, scoredAt: new Date().toISOString() };
          await producer.send({ topic: options.outputTopic, acks: -1, messages: [{ key: String(event.runId), value: JSON.stringify(record) }] });
        }
        completed += 1;
      },
    });
    return await measureRate({ ...options, completed: () => completed, what: '(b) the naive consumer' });
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
  }
}

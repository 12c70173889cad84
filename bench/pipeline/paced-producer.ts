// Parent side of the latency run: produces pool events at a steady rate, each stamped with the
// moment it is handed to Kafka (its `timestamp`), in small batches every tick — like many
// agents finishing runs, not like a backlog.
import type { Kafka } from 'kafkajs';
import type { EventPool } from './bench-events.ts';
import { sleep } from './measurement.ts';

export type PacedProducer = {
  /** Produces at `eventsPerSecond` for `seconds`; resolves with how many were acknowledged in all. */
  produceFor(seconds: number): Promise<number>;
  close(): Promise<void>;
};

/** At most this many events per request: 128 sample events of about 3.5 kB stay under 1 MiB even if all go to one partition. */
const maxMessagesPerSend = 128;

export async function createPacedProducer(kafka: Kafka, options: { topic: string; pool: EventPool; eventsPerSecond: number; tickMs?: number }): Promise<PacedProducer> {
  const tickMs = options.tickMs ?? 10;
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  let sent = 0;
  return {
    async produceFor(seconds) {
      const startedAt = performance.now();
      const endsAt = startedAt + seconds * 1000;
      const base = sent;
      for (let now = startedAt; now < endsAt; now = performance.now()) {
        const due = base + Math.floor(((now - startedAt) / 1000) * options.eventsPerSecond);
        if (due > sent) {
          const at = new Date();
          // After a stall (a slow machine, a long send) the events due are many: sent in requests of at
          // most maxMessagesPerSend, or one partition's batch passes the broker's message.max.bytes
          // (1 MiB; a 3.5 kB sample event) and the broker refuses it (MESSAGE_TOO_LARGE, which ended a run).
          while (sent < due) {
            const messages = [];
            const until = Math.min(due, sent + maxMessagesPerSend);
            for (let index = sent; index < until; index += 1) messages.push(options.pool.timedMessage(index, at));
            sent = until;
            await producer.send({ topic: options.topic, acks: 1, messages });
          }
        }
        await sleep(Math.max(0, tickMs - (performance.now() - now)));
      }
      return sent;
    },
    close: () => producer.disconnect(),
  };
}

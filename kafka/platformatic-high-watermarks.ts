// The lag's high watermarks for the platformatic group consumer (platformatic-consumer.ts): the
// library's messages carry none (kafkajs' batches do), so the assigned partitions' latest offsets
// are listed every `highWatermarkRefreshMs` (and at each join) and handed over with each batch —
// the lag metric is at most that stale.
import type { Consumer } from '@platformatic/kafka';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import { partitionKey } from './platformatic-partition-queues.ts';

export class HighWatermarks {
  readonly #consumer: Pick<Consumer<Buffer, Buffer, Buffer, Buffer>, 'assignments' | 'listOffsets'>;
  readonly #isRunning: () => boolean;
  readonly #latest = new Map<string, bigint>();
  #timer: NodeJS.Timeout | undefined;

  constructor(consumer: Pick<Consumer<Buffer, Buffer, Buffer, Buffer>, 'assignments' | 'listOffsets'>, isRunning: () => boolean) {
    this.#consumer = consumer;
    this.#isRunning = isRunning;
  }

  /** The partition's latest offset as last listed, as a batch carries it (undefined before the first listing). */
  of(topic: string, partition: number): string | undefined {
    return this.#latest.get(partitionKey(topic, partition))?.toString();
  }

  /** Lists the assigned partitions' latest offsets; a failed listing keeps the last ones (the next try comes with the timer). */
  async refresh(): Promise<void> {
    const topics = [...new Set((this.#consumer.assignments ?? []).map((assignment) => assignment.topic))];
    if (!this.#isRunning() || topics.length === 0) return;
    try {
      const latest = await this.#consumer.listOffsets({ topics });
      for (const [topic, offsets] of latest) offsets.forEach((offset, partition) => this.#latest.set(partitionKey(topic, partition), offset));
    } catch {
      // Lag is a metric: a broker that does not answer now is the stream's to report, not this.
    }
  }

  /** Lists now and then on a timer that does not keep the process alive. */
  watch(): void {
    clearInterval(this.#timer);
    void this.refresh();
    this.#timer = setInterval(() => void this.refresh(), KAFKA_DEFAULTS.platformatic.highWatermarkRefreshMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

// Publishes score, decision, retry and dead-letter records with Kafka acknowledgement per record.
// Records from many concurrent runs are gathered into one request while the
// previous request is in flight, so throughput comes from batching, not from parallel
// requests: one request at a time keeps the idempotent producer's sequence numbers in order.
// A request stays within `maxRequestBytes`, and a record the broker refuses fails alone, replaced
// by its stand-in, never the records it shared a request with (send-records.ts).
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import type { OutgoingRecord } from '../kafka/kafka-records.ts';
import type { RecordProducer } from '../kafka/kafka-transport.ts';
import { sendRecords } from './send-records.ts';
import type { OnRefused } from './send-records.ts';

export type { OutgoingRecord } from '../kafka/kafka-records.ts';

export type RecordPublisherOptions = {
  /** How long the first record of a batch waits for company when nothing is in flight. */
  lingerMs?: number;
  /** Upper bound on records per request. */
  maxBatchRecords?: number;
  /** Upper bound on a request's bytes (one larger record goes alone); the service passes maxRecordBytes. */
  maxRequestBytes?: number;
  /** A record the broker refused, and what was written instead (none: it was dropped). */
  onRefused?: OnRefused;
};

type Pending = { record: OutgoingRecord; resolve: () => void; reject: (error: unknown) => void };

export type RecordPublisher = {
  /** Resolves once Kafka acknowledged every record (acks = all), or refused one for good and its stand-in was written (or it was dropped). */
  publish(records: readonly OutgoingRecord[]): Promise<void>;
  /** Resolves when everything handed to publish() so far was sent (or failed). */
  flush(): Promise<void>;
  readonly pendingRecords: number;
};

export function createRecordPublisher(producer: Pick<RecordProducer, 'send'>, options: RecordPublisherOptions = {}): RecordPublisher {
  const lingerMs = options.lingerMs ?? KAFKA_DEFAULTS.publish.lingerMs;
  const maxBatchRecords = options.maxBatchRecords ?? KAFKA_DEFAULTS.publish.maxBatchRecords;
  const sendOptions = {
    maxRequestBytes: options.maxRequestBytes ?? KAFKA_DEFAULTS.publish.maxRequestBytes,
    maxRequestRecords: maxBatchRecords,
    onRefused: options.onRefused ?? (() => undefined),
  };
  const send = (records: OutgoingRecord[]) => producer.send(records);
  let queue: Pending[] = [];
  let sending: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const idleWaiters: Array<() => void> = [];

  const sendNext = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue.length <= maxBatchRecords ? queue : queue.slice(0, maxBatchRecords);
      queue = queue.length <= maxBatchRecords ? [] : queue.slice(maxBatchRecords);
      const results = await sendRecords(send, batch.map(({ record }) => record), sendOptions);
      batch.forEach((pending, index) => {
        const error = results[index];
        if (error === undefined) pending.resolve();
        else pending.reject(error);
      });
    }
  };

  const startSending = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (sending !== undefined) return; // the loop picks the queue up when the request returns
    sending = sendNext().finally(() => {
      sending = undefined;
      if (queue.length > 0) startSending();
      else while (idleWaiters.length > 0) idleWaiters.shift()!();
    });
  };

  return {
    publish(records) {
      if (records.length === 0) return Promise.resolve();
      // One record (the service's common case: each score record as its scorer finishes) needs
      // no Promise.all around its promise.
      const done =
        records.length === 1
          ? new Promise<void>((resolve, reject) => queue.push({ record: records[0]!, resolve, reject }))
          : Promise.all(records.map((record) => new Promise<void>((resolve, reject) => queue.push({ record, resolve, reject })))).then(() => undefined);
      if (queue.length >= maxBatchRecords || sending !== undefined) startSending();
      else if (timer === undefined) timer = setTimeout(startSending, lingerMs);
      return done;
    },
    flush() {
      if (queue.length === 0 && sending === undefined) return Promise.resolve();
      startSending();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    get pendingRecords() {
      return queue.length;
    },
  };
}

// The error of a group-less read (read-range.ts, fetch-at.ts) that could not go on: what was
// being read (topic and partition, when one is to blame), what Kafka or the handler said (the
// cause), and whether reading again later can help (`canRetry`: a timeout can; an ACL refusal
// or a topic that does not exist cannot, until someone acts).
import { ScorestreamError, hasErrorMarker } from '../src/kit/errors.ts';

const readMarker = Symbol.for('scorestream.error.kafka_read');

export type KafkaReadErrorOptions = {
  topic?: string | undefined;
  partition?: number | undefined;
  canRetry?: boolean;
  cause?: unknown;
};

export class KafkaReadError extends ScorestreamError {
  readonly [readMarker] = true;
  readonly topic: string | undefined;
  readonly partition: number | undefined;

  constructor(message: string, options: KafkaReadErrorOptions = {}) {
    super(message, { code: 'kafka_read', canRetry: options.canRetry ?? false, ...(options.cause === undefined ? {} : { cause: options.cause }) });
    this.name = 'KafkaReadError';
    this.topic = options.topic;
    this.partition = options.partition;
  }

  static override isInstance(value: unknown): value is KafkaReadError {
    return hasErrorMarker(value, readMarker);
  }
}

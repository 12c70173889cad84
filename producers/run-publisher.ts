// The SDK agents use to publish finished runs: `createRunPublisher({ brokers })`, then
// `publish(run | runs)`. Every run is validated against AgentRunEvent v1 before anything is sent
// (an invalid batch sends nothing), keyed by runId so a run's events stay on one partition, and
// carries its trace context as W3C headers (run-trace-headers.ts).
//
// Delivery: an idempotent producer (acks = all) with one request in flight, and publish calls
// queued one after another. kafkajs' idempotent producer loses or rejects messages when several
// sends race on one partition (tulios/kafkajs#598, #1005), so throughput comes from batching
// many runs into one request instead of parallel requests.
import type { Context, TextMapPropagator } from '@opentelemetry/api';
import { Kafka, logLevel } from 'kafkajs';
import type { CompressionTypes, KafkaConfig, Message, Producer, ProducerConfig } from 'kafkajs';
import { ScorestreamError } from '../src/errors.ts';
import { describePrincipal, kafkaAccessError, settingSecrets } from '../kafka/kafka-access-error.ts';
import type { AccessContext } from '../kafka/kafka-access-error.ts';
import { keyPartitioner } from '../kafka/key-partitioner.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import { probeTls } from '../kafka/tls-probe.ts';
import { chooseRunContext, traceHeaders, w3cPropagator } from './run-trace-headers.ts';
import type { PublishableRun, ValidatedRun } from './run-validation.ts';
import { validateRuns } from './run-validation.ts';

export const DEFAULT_RUNS_TOPIC = 'agent-runs';

export type RunPublisherOptions = {
  /** Bootstrap brokers, e.g. ['127.0.0.1:9092']; needed unless `kafka` is given. */
  brokers?: string[];
  /** Your own kafkajs client; the publisher then only creates (and disconnects) its producer. */
  kafka?: Kafka;
  /** Default 'agent-runs'. */
  topic?: string;
  /** Client id when the publisher creates the client; default 'scorestream-run-publisher'. */
  clientId?: string;
  /** TLS when the publisher creates the client: `true`, or Node TLS options (`ca`, `cert`, `key`, `servername`) as PEM text. */
  ssl?: KafkaConfig['ssl'];
  /** SASL when the publisher creates the client, e.g. `{ mechanism: 'scram-sha-512', username, password }`. */
  sasl?: KafkaConfig['sasl'];
  /** Extra producer settings; `idempotent: true` and `maxInFlightRequests: 1` always apply. */
  producerConfig?: ProducerConfig;
  compression?: CompressionTypes;
  /** Writes the trace headers after any global propagator; default W3C trace context + baggage. */
  propagator?: TextMapPropagator;
  /** Upper bound on the summed value bytes of one request (default 512 KiB, below Kafka's 1 MiB). */
  maxRequestBytes?: number;
  /** Upper bound on runs per request (default 1000). */
  maxRequestRuns?: number;
};

export type PublishOptions = {
  /** The context each run was produced in (e.g. the agent run's span); wins over `run.trace`. */
  contextFor?: (run: PublishableRun, index: number) => Context | undefined;
  /** One context for every run without its own; default the active context. */
  context?: Context;
};

export type PublishReport = {
  topic: string;
  /** Runs acknowledged by Kafka. */
  count: number;
  runIds: string[];
  /** Produce requests used. */
  requests: number;
  /** Per partition written, the offset of its first message in each request. */
  partitions: Array<{ partition: number; baseOffset?: string }>;
};

export type RunPublisher = {
  /** Validates, then sends; resolves once Kafka acknowledged every run. */
  publish(runs: PublishableRun | readonly PublishableRun[], options?: PublishOptions): Promise<PublishReport>;
  /** Waits for queued publishes, then disconnects the producer. */
  close(): Promise<void>;
};

export function createRunPublisher(options: RunPublisherOptions = {}): RunPublisher {
  if (options.kafka === undefined && (options.brokers === undefined || options.brokers.length === 0)) {
    throw new ScorestreamError('createRunPublisher needs `brokers` (e.g. ["127.0.0.1:9092"]) or a kafkajs `kafka` client', { code: 'invalid_options' });
  }
  const topic = options.topic ?? DEFAULT_RUNS_TOPIC;
  const maxRequestBytes = options.maxRequestBytes ?? 512 * 1024;
  const maxRequestRuns = options.maxRequestRuns ?? 1000;
  const propagator = options.propagator ?? w3cPropagator;
  const kafka =
    options.kafka ??
    new Kafka({
      clientId: options.clientId ?? 'scorestream-run-publisher',
      brokers: options.brokers ?? [],
      logLevel: logLevel.WARN,
      ...(options.ssl === undefined ? {} : { ssl: options.ssl }),
      ...(options.sasl === undefined ? {} : { sasl: options.sasl }),
    });
  // A secured cluster refusing the publisher (TLS, SASL, WRITE on the topic) gets a KafkaAccessError
  // (code 'kafka_access') that names what to fix, and never the password.
  const sasl = options.sasl as { mechanism: string; username?: string; password?: string } | undefined;
  const saslNamed = sasl?.username === undefined ? undefined : { mechanism: sasl.mechanism, username: sasl.username, ...(sasl.password === undefined ? {} : { password: sasl.password }) };
  const access: AccessContext = {
    brokers: options.brokers ?? [],
    principal: options.kafka === undefined ? describePrincipal({ sasl: saslNamed, ssl: options.ssl }) : 'the principal of the given kafkajs client',
    ...(saslNamed === undefined || options.kafka !== undefined ? {} : { aclPrincipal: `User:${saslNamed.username}` }),
    secrets: settingSecrets({ sasl: saslNamed, ssl: options.ssl }),
    topics: [{ topic, operations: 'WRITE' }],
  };
  const producer: Producer = kafka.producer({
    // The Java client's partitioner (murmur2 of the runId), without kafkajs' Long arithmetic.
    createPartitioner: keyPartitioner,
    ...options.producerConfig,
    idempotent: true,
    maxInFlightRequests: 1,
  });

  let connecting: Promise<void> | undefined;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();

  // With TLS, one handshake first: a certificate problem is told at once instead of after
  // kafkajs' connection retries (tls-probe.ts).
  const connectChecked = async (): Promise<void> => {
    const firstBroker = options.brokers?.[0];
    if (options.kafka === undefined && options.ssl !== undefined && options.ssl !== false && firstBroker !== undefined) {
      const refused = await probeTls(firstBroker, options.ssl === true ? {} : options.ssl, KAFKA_DEFAULTS.preflight.tlsProbeTimeoutMs);
      if (refused !== undefined) throw Object.assign(refused, { broker: firstBroker });
    }
    await producer.connect();
  };

  const connect = (): Promise<void> => {
    connecting ??= connectChecked().catch((error: unknown) => {
      connecting = undefined;
      const refused = kafkaAccessError(error, access);
      if (refused !== undefined) throw refused;
      throw new ScorestreamError(`could not connect the run publisher to Kafka: ${(error as Error).message}. Check the brokers and that Kafka is running`, {
        code: 'kafka_unavailable',
        canRetry: true,
        cause: error,
      });
    });
    return connecting;
  };

  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work, work);
    queue = result.catch(() => undefined);
    return result;
  };

  const send = async (validated: ValidatedRun[], messages: Message[]): Promise<PublishReport> => {
    await connect();
    const report: PublishReport = { topic, count: 0, runIds: [], requests: 0, partitions: [] };
    for (const chunk of chunks(messages, maxRequestBytes, maxRequestRuns)) {
      try {
        const metadata = await producer.send({ topic, messages: chunk, acks: -1, ...(options.compression === undefined ? {} : { compression: options.compression }) });
        for (const entry of metadata) report.partitions.push({ partition: entry.partition, ...(entry.baseOffset === undefined ? {} : { baseOffset: entry.baseOffset }) });
      } catch (error) {
        const refused = kafkaAccessError(error, access);
        if (refused !== undefined) throw refused;
        const retriable = (error as { retriable?: boolean }).retriable === true;
        throw new ScorestreamError(
          `publishing runs to topic "${topic}" failed after ${report.count} of ${messages.length} runs were acknowledged: ${(error as Error).message}. ` +
            'Publishing the batch again is safe: runs are keyed by runId and their scores have deterministic ids',
          { code: 'publish_failed', canRetry: retriable, cause: error },
        );
      }
      report.requests += 1;
      for (let index = report.count; index < report.count + chunk.length; index += 1) report.runIds.push(validated[index]!.runId);
      report.count += chunk.length;
    }
    return report;
  };

  return {
    async publish(runs, publishOptions = {}) {
      if (closed) throw new ScorestreamError('the run publisher is closed; create a new one to publish again', { code: 'publisher_closed' });
      const list: readonly PublishableRun[] = Array.isArray(runs) ? runs : [runs as PublishableRun];
      const validated = validateRuns(list, { batch: Array.isArray(runs) });
      if (validated.length === 0) return { topic, count: 0, runIds: [], requests: 0, partitions: [] };
      const messages = validated.map(({ index, runId, value, event }): Message => {
        const fromCaller = publishOptions.contextFor?.(list[index]!, index);
        const context = chooseRunContext(event, { fromCaller, publishWide: publishOptions.context });
        return { key: runId, value, headers: { ...traceHeaders(context, propagator), 'content-type': 'application/json' } };
      });
      return enqueue(() => send(validated, messages));
    },

    async close() {
      if (closed) return;
      closed = true;
      await queue;
      if (connecting === undefined) return;
      try {
        await connecting;
      } catch {
        return; // never connected: nothing to disconnect
      }
      await producer.disconnect();
    },
  };
}

/** Splits messages into requests bounded by summed value bytes and count, keeping order. */
export function chunks(messages: readonly Message[], maxBytes: number, maxRuns: number): Message[][] {
  const result: Message[][] = [];
  let current: Message[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = typeof message.value === 'string' ? Buffer.byteLength(message.value) : (message.value?.byteLength ?? 0);
    if (current.length > 0 && (bytes + size > maxBytes || current.length >= maxRuns)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(message);
    bytes += size;
  }
  if (current.length > 0) result.push(current);
  return result;
}

// The SDK agents use to publish finished runs: `createRunPublisher({ brokers })`, then
// `publish(run | runs)`. Every run is validated against AgentRunEvent v1 before anything is sent
// (an invalid batch sends nothing), keyed by runId so a run's events stay on one partition, and
// carries its trace context as W3C headers (run-trace-headers.ts). `publishFeedback` sends what
// people said about runs the same way: validated against FeedbackRecord v1, to the feedback topic,
// keyed like the run's score records (feedbackKeyFor) so both share a partition (docs/feedback.md).
//
// Delivery: an idempotent producer (acks = all) with one request in flight, and publish calls
// queued one after another. kafkajs' idempotent producer loses or rejects messages when several
// sends race on one partition (tulios/kafkajs#598, #1005), so throughput comes from batching
// many runs into one request instead of parallel requests.
import type { Context, TextMapPropagator } from '@opentelemetry/api';
import { Kafka, logLevel } from 'kafkajs';
import type { CompressionTypes, KafkaConfig, Message, Producer, ProducerConfig } from 'kafkajs';
import { chunksInOrder } from '../src/kit/chunks-in-order.ts';
import { ScorestreamError } from '../src/kit/errors.ts';
import { describePrincipal, kafkaAccessError, settingSecrets } from '../kafka/kafka-access-error.ts';
import type { AccessContext } from '../kafka/kafka-access-error.ts';
import { keyPartitioner } from '../kafka/key-partitioner.ts';
import { publisherLogin } from '../kafka/publisher-login.ts';
import type { PublisherSasl } from '../kafka/publisher-login.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import { probeTls } from '../kafka/tls-probe.ts';
import { chooseRunContext, traceHeaders, w3cPropagator } from './run-trace-headers.ts';
import type { PublishableRun } from './run-validation.ts';
import { validateRuns } from './run-validation.ts';
import type { FeedbackRecord, FeedbackRecordInput } from '../src/kit/contracts/feedback-record.ts';
import { DEFAULT_FEEDBACK_TOPIC } from '../src/kit/contracts/feedback-record.ts';
import { validateFeedback } from './feedback-validation.ts';

export const DEFAULT_RUNS_TOPIC = 'agent-runs';

export type RunPublisherOptions = {
  /** Bootstrap brokers, e.g. ['127.0.0.1:9092']; needed unless `kafka` is given. */
  brokers?: string[];
  /** Your own kafkajs client; the publisher then only creates (and disconnects) its producer. */
  kafka?: Kafka;
  /** Default 'agent-runs'. */
  topic?: string;
  /** Where publishFeedback sends; default 'agent-feedback'. */
  feedbackTopic?: string;
  /** Client id when the publisher creates the client; default 'scorestream-run-publisher'. */
  clientId?: string;
  /** TLS when the publisher creates the client: `true`, or Node TLS options (`ca`, `cert`, `key`, `servername`) as PEM text. */
  ssl?: KafkaConfig['ssl'];
  /**
   * SASL when the publisher creates the client: kafkajs' own, e.g. `{ mechanism: 'scram-sha-512', username, password }`,
   * or the service's token-based settings — `{ mechanism: 'oauthbearer', tokenEndpointUrl, clientId, clientSecret, scope? }`,
   * `{ mechanism: 'oauthbearer', tokenProvider }`, `{ mechanism: 'aws-msk-iam', region? }` (docs/security.md).
   */
  sasl?: PublisherSasl;
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

export type FeedbackPublishReport = Omit<PublishReport, 'runIds'> & { feedbackIds: string[] };

export type RunPublisher = {
  /** Validates, then sends; resolves once Kafka acknowledged every run. */
  publish(runs: PublishableRun | readonly PublishableRun[], options?: PublishOptions): Promise<PublishReport>;
  /** Validates, then sends to the feedback topic; resolves once Kafka acknowledged every record. */
  publishFeedback(feedback: FeedbackRecordInput | FeedbackRecord | readonly (FeedbackRecordInput | FeedbackRecord)[]): Promise<FeedbackPublishReport>;
  /** Waits for queued publishes, then disconnects the producer. */
  close(): Promise<void>;
};

export function createRunPublisher(options: RunPublisherOptions = {}): RunPublisher {
  if (options.kafka === undefined && (options.brokers === undefined || options.brokers.length === 0)) {
    throw new ScorestreamError('createRunPublisher needs `brokers` (e.g. ["127.0.0.1:9092"]) or a kafkajs `kafka` client', { code: 'invalid_options' });
  }
  const topic = options.topic ?? DEFAULT_RUNS_TOPIC;
  const feedbackTopic = options.feedbackTopic ?? DEFAULT_FEEDBACK_TOPIC;
  const maxRequestBytes = options.maxRequestBytes ?? 512 * 1024;
  const maxRequestRuns = options.maxRequestRuns ?? 1000;
  const propagator = options.propagator ?? w3cPropagator;
  const login = publisherLogin(options.sasl);
  const kafka =
    options.kafka ??
    new Kafka({
      clientId: options.clientId ?? 'scorestream-run-publisher',
      brokers: options.brokers ?? [],
      logLevel: logLevel.WARN,
      ...(options.ssl === undefined ? {} : { ssl: options.ssl }),
      ...(login.kafkajs === undefined ? {} : { sasl: login.kafkajs }),
      reauthenticationThreshold: KAFKA_DEFAULTS.kafkajs.reauthenticationThresholdMs,
    });
  // A secured cluster refusing the publisher (TLS, SASL, WRITE on the topic) gets a KafkaAccessError
  // (code 'kafka_access') that names what to fix, and never the password.
  const saslNamed = login.named;
  const access: AccessContext = {
    brokers: options.brokers ?? [],
    principal: options.kafka === undefined ? describePrincipal({ sasl: saslNamed, ssl: options.ssl }) : 'the principal of the given kafkajs client',
    ...(saslNamed?.username === undefined || options.kafka !== undefined ? {} : { aclPrincipal: `User:${saslNamed.username}` }),
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

  type Sent = { topic: string; count: number; ids: string[]; requests: number; partitions: PublishReport['partitions'] };
  const send = async (target: { topic: string; what: string; whyAgain: string }, ids: string[], messages: Message[]): Promise<Sent> => {
    await connect();
    const sent: Sent = { topic: target.topic, count: 0, ids: [], requests: 0, partitions: [] };
    for (const chunk of chunks(messages, maxRequestBytes, maxRequestRuns)) {
      try {
        const metadata = await producer.send({ topic: target.topic, messages: chunk, acks: -1, ...(options.compression === undefined ? {} : { compression: options.compression }) });
        for (const entry of metadata) sent.partitions.push({ partition: entry.partition, ...(entry.baseOffset === undefined ? {} : { baseOffset: entry.baseOffset }) });
      } catch (error) {
        const refused = kafkaAccessError(error, { ...access, topics: [{ topic: target.topic, operations: 'WRITE' }] });
        if (refused !== undefined) throw refused;
        const retriable = (error as { retriable?: boolean }).retriable === true;
        throw new ScorestreamError(
          `publishing ${target.what} to topic "${target.topic}" failed after ${sent.count} of ${messages.length} ${target.what} were acknowledged: ${(error as Error).message}. ` +
            `Publishing the batch again is safe: ${target.whyAgain}`,
          { code: 'publish_failed', canRetry: retriable, cause: error },
        );
      }
      sent.requests += 1;
      sent.ids.push(...ids.slice(sent.count, sent.count + chunk.length));
      sent.count += chunk.length;
    }
    return sent;
  };
  const runs = { topic, what: 'runs', whyAgain: 'runs are keyed by runId and their scores have deterministic ids' };
  const feedbackRecords = { topic: feedbackTopic, what: 'feedback records', whyAgain: 'feedback is identified by its feedbackId, and the same id again is the same feedback' };
  const refuseWhenClosed = () => {
    if (closed) throw new ScorestreamError('the run publisher is closed; create a new one to publish again', { code: 'publisher_closed' });
  };

  return {
    async publish(given, publishOptions = {}) {
      refuseWhenClosed();
      const list: readonly PublishableRun[] = Array.isArray(given) ? given : [given as PublishableRun];
      const validated = validateRuns(list, { batch: Array.isArray(given) });
      if (validated.length === 0) return { topic, count: 0, runIds: [], requests: 0, partitions: [] };
      const messages = validated.map(({ index, runId, value, event }): Message => {
        const fromCaller = publishOptions.contextFor?.(list[index]!, index);
        const context = chooseRunContext(event, { fromCaller, publishWide: publishOptions.context });
        return { key: runId, value, headers: { ...traceHeaders(context, propagator), 'content-type': 'application/json' } };
      });
      return enqueue(async () => {
        const { ids, ...sent } = await send(runs, validated.map((run) => run.runId), messages);
        return { ...sent, runIds: ids };
      });
    },

    async publishFeedback(given) {
      refuseWhenClosed();
      const list = Array.isArray(given) ? given : [given as FeedbackRecordInput];
      const validated = validateFeedback(list, { batch: Array.isArray(given) });
      if (validated.length === 0) return { topic: feedbackTopic, count: 0, feedbackIds: [], requests: 0, partitions: [] };
      const messages = validated.map(({ key, value }): Message => ({ key, value, headers: { 'content-type': 'application/json' } }));
      return enqueue(async () => {
        const { ids, ...sent } = await send(feedbackRecords, validated.map((feedback) => feedback.feedbackId), messages);
        return { ...sent, feedbackIds: ids };
      });
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
  return chunksInOrder(messages, (message) => (typeof message.value === 'string' ? Buffer.byteLength(message.value) : (message.value?.byteLength ?? 0)), maxBytes, maxRuns);
}

// The one Kafka edge of a process (docs/architecture.md): everything the service and its tools do
// with Kafka, on one client library (@platformatic/kafka) and one connection's settings —
//   admin       topics, offsets, groups, ACLs (kafka-admin.ts);
//   readRange   a group-less, back-pressured read of topics or partitions: a view's rebuild, a
//               thread partition's restore, tail, the dashboard, the monitor (read-range.ts);
//   fetchAt     one message back by its position: a re-score's run event (fetch-at.ts);
//   producer    an idempotent producer of records placed by key-partitioner.ts's rule;
//   transport   the scoring path's group consumer and producers, of the client `kafka.client`
//               names: @platformatic/kafka, or kafkajs, the documented alternative, which is loaded
//               only when chosen (kafka-transport.ts).
// Nothing outside kafka/ imports a Kafka client library (the lint says so); a login mechanism, a
// timing or a retry is implemented here once, for every role.
import type { KafkaClientName } from '../src/engine/config/config-types.ts';
import type { KafkaSettings } from './kafka-settings.ts';
import { createFetchAt } from './fetch-at.ts';
import type { MessageReader } from './fetch-at.ts';
import { createKafkaAdmin } from './kafka-admin.ts';
import { watchTokenHealth } from './oauth-token-log.ts';
import type { LoginLog } from './oauth-token-log.ts';
import type { KafkaAdmin } from './kafka-admin.ts';
import type { KafkaTransport, RecordProducer } from './kafka-transport.ts';
import { platformaticConnection } from './platformatic-options.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { platformaticRecordProducer } from './platformatic-producers.ts';
import { createPlatformaticTransport } from './platformatic-transport.ts';
import type { PlatformaticTransportOptions } from './platformatic-transport.ts';
import { readRange } from './read-range.ts';
import type { RangeRead, ReadRangeOptions } from './read-range.ts';

export type { KafkaSettings } from './kafka-settings.ts';

export type KafkaEdge = {
  readonly connection: PlatformaticConnection;
  /** One admin client for the process, connected on its first request. */
  readonly admin: KafkaAdmin;
  readRange(options: ReadRangeOptions): RangeRead;
  /** One message back by its position; reads share one client. */
  fetchAt: MessageReader['fetchAt'];
  /** A new, unconnected idempotent producer (acks from every in-sync replica). */
  producer(): RecordProducer;
  /** The scoring path's consumer and producers, on the client `kafka.client` names (default the settings'). */
  transport(options?: PlatformaticTransportOptions & { client?: KafkaClientName }): Promise<KafkaTransport>;
  /** Closes the admin and the message reader; readers and producers handed out close themselves. */
  close(): Promise<void>;
};

export type KafkaEdgeOptions = {
  /** Told when a token-based login's renewals fail or recover after the start (oauth-token-log.ts). */
  log?: LoginLog;
};

/** Throws a ConfigError when a PEM file the settings name cannot be read. */
export function createKafkaEdge(settings: KafkaSettings, options: KafkaEdgeOptions = {}): KafkaEdge {
  const connection = platformaticConnection(settings);
  const unwatch = options.log === undefined ? () => undefined : watchTokenHealth(settings, options.log);
  const admin = createKafkaAdmin(connection);
  let messages: MessageReader | undefined;
  return {
    connection,
    admin,
    readRange: (options) => readRange(connection, options),
    fetchAt: (position) => (messages ??= createFetchAt(connection)).fetchAt(position),
    producer: () => platformaticRecordProducer(connection),
    async transport(options = {}) {
      const { client = settings.client, ...transportOptions } = options;
      if (client !== 'kafkajs') return createPlatformaticTransport(connection, transportOptions);
      // The alternative client, loaded only when a deployment (or a replay) chooses it.
      const { createKafkajsTransportFor } = await import('./kafkajs-transport.ts');
      return createKafkajsTransportFor(settings, transportOptions);
    },
    async close() {
      unwatch();
      await messages?.close();
      await admin.close();
    },
  };
}

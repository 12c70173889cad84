// The health endpoints of a service (health-server.ts, docs/deployment.md): listening from before the
// pre-flight until after the stop, ready once the consumer holds its assignment, and asking Kafka
// through a readiness probe of its own (kafka/broker-probe.ts).
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import { createBrokerProbe } from '../kafka/broker-probe.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { createHealthState } from './health-state.ts';
import type { HealthState } from './health-state.ts';
import { startHealthServer } from './health-server.ts';
import type { HealthServer } from './health-server.ts';

export type Health = { state: HealthState; server: HealthServer; close(): Promise<void> };

/** The health endpoints of `config.health`, or nothing when no port is set. */
export async function startHealth(config: ResolvedConfig, edge: KafkaEdge, logger: Logger): Promise<Health | undefined> {
  const { port, host } = config.health;
  if (port === undefined) return undefined;
  const broker = createBrokerProbe(edge.connection);
  const state = createHealthState({ runsTopic: config.topics.runs, probeBroker: broker.probe });
  const server = await startHealthServer({ port, host, state, logger }).catch((error: unknown) => {
    state.close();
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new Error(`cannot listen for health probes on ${host}:${port} (${code}); choose another health.port (SCORESTREAM_HEALTH_PORT)`, { cause: error });
  });
  return {
    state,
    server,
    async close() {
      await server.close();
      await broker.close();
      state.close();
    },
  };
}

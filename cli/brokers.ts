// Which brokers a CLI command talks to: --brokers, else KAFKA_BROKERS, else the local default
// broker (started when `start` is true, otherwise it must already run).
import { ensureLocalBroker, localBrokerStatus } from '../local/kafka/local-broker.ts';

export async function resolveCliBrokers(options: { brokers?: string | undefined; start?: boolean; onProgress?: (line: string) => void }): Promise<string[]> {
  if (options.brokers !== undefined && options.brokers !== '') return options.brokers.split(',').map((broker) => broker.trim()).filter(Boolean);
  const environment = process.env.KAFKA_BROKERS;
  if (environment !== undefined && environment.trim() !== '') return environment.split(',').map((broker) => broker.trim()).filter(Boolean);
  if (options.start) return (await ensureLocalBroker(options.onProgress === undefined ? {} : { onProgress: options.onProgress })).brokers;
  const status = await localBrokerStatus();
  if (status.running && status.brokers !== undefined) return status.brokers;
  throw new Error('no Kafka broker: pass --brokers host:port, set KAFKA_BROKERS, or start the local one with `scorestream kafka start`');
}

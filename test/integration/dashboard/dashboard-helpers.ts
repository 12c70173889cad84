// Topics, a producer and a dashboard per test, on the integration broker.
import type { Producer } from 'kafkajs';
import { onTestFinished } from 'vitest';
import type { Dashboard, DashboardOptions } from '../../../dashboard/start-dashboard.ts';
import { startDashboard } from '../../../dashboard/start-dashboard.ts';
import { testKafka, useTopic } from '../../helpers/kafka.ts';

export type DashboardTopics = { results: string; decisions: string };

export async function useDashboardTopics(): Promise<DashboardTopics> {
  return { results: await useTopic({ prefix: 'dashboard-scores', partitions: 2 }), decisions: await useTopic({ prefix: 'dashboard-decisions' }) };
}

export async function useProducer(): Promise<Producer> {
  const producer = testKafka('dashboard-test-producer').producer();
  await producer.connect();
  onTestFinished(() => producer.disconnect());
  return producer;
}

export async function publish(producer: Producer, topic: string, records: ({ runId: string } & Record<string, unknown>)[], timestamp?: number): Promise<void> {
  await producer.send({
    topic,
    messages: records.map((record) => ({ key: record.runId, value: JSON.stringify(record), ...(timestamp === undefined ? {} : { timestamp: String(timestamp) }) })),
  });
}

/** A dashboard on the test topics (closed when the test finishes), caught up with what they hold. */
export async function useDashboard(topics: DashboardTopics, options: Partial<DashboardOptions> = {}): Promise<Dashboard> {
  const dashboard = await startDashboard({
    kafka: testKafka('dashboard-test'),
    resultsTopic: topics.results,
    decisionsTopic: topics.decisions,
    sinceMs: 6 * 3_600_000,
    port: 0,
    ...options,
  });
  let closed = false;
  const close = dashboard.close.bind(dashboard);
  dashboard.close = async () => {
    if (closed) return;
    closed = true;
    await close();
  };
  onTestFinished(() => dashboard.close());
  await dashboard.reader.caughtUp;
  return dashboard;
}

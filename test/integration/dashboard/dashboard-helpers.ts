// Topics, a producer and a dashboard per test, on the integration broker, and pages in the test browser.
import type { Producer } from 'kafkajs';
import type { Page } from 'playwright-core';
import type { TestBrowser } from '../../helpers/browser.ts';
import { onTestFinished } from 'vitest';
import type { Dashboard, DashboardOptions } from '../../../dashboard/start-dashboard.ts';
import { startDashboard } from '../../../dashboard/start-dashboard.ts';
import { testKafka, useTopic, testEdge } from '../../helpers/kafka.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { threadScoreViewKeyFor } from '../../../src/kit/contracts/thread-ids.ts';

export type DashboardTopics = { results: string; decisions: string; agreements?: string };

/** Results and decisions topics, and an agreements topic when asked for. */
export async function useDashboardTopics(options: { agreements?: boolean } = {}): Promise<DashboardTopics> {
  return {
    results: await useTopic({ prefix: 'dashboard-scores', partitions: 2 }),
    decisions: await useTopic({ prefix: 'dashboard-decisions' }),
    ...(options.agreements === true ? { agreements: await useTopic({ prefix: 'dashboard-agreements' }) } : {}),
  };
}

export async function useProducer(): Promise<Producer> {
  // Idempotent: a request retried after the broker wrote it (a topic a moment old is retried on
  // while its leader settles) would otherwise write its records twice, and the tests count them.
  const producer = testKafka('dashboard-test-producer').producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  onTestFinished(() => producer.disconnect());
  return producer;
}

export async function publish(producer: Producer, topic: string, records: (({ runId: string } | { scorerId: string }) & Record<string, unknown>)[], timestamp?: number): Promise<void> {
  await producer.send({
    topic,
    messages: records.map((record) => ({ key: String('runId' in record ? record.runId : record.scorerId), value: JSON.stringify(record), ...(timestamp === undefined ? {} : { timestamp: String(timestamp) }) })),
  });
}

/** Thread score records to a latest-score view topic, keyed as the service keys them (thread, scorer, scorer version). */
export async function publishView(producer: Producer, topic: string, records: ScoreRecord[]): Promise<void> {
  await producer.send({
    topic,
    messages: records.map((record) => ({ key: threadScoreViewKeyFor({ threadKey: record.thread!.key, scorerId: record.scorerId, scorerVersion: record.scorerVersion }).key, value: JSON.stringify(record) })),
  });
}

/** A dashboard on the test topics (closed when the test finishes), caught up with what they hold. */
export async function useDashboard(topics: DashboardTopics, options: Partial<DashboardOptions> = {}): Promise<Dashboard> {
  const dashboard = await startDashboard({
    edge: testEdge('dashboard-test'),
    resultsTopic: topics.results,
    decisionsTopic: topics.decisions,
    agreementsTopic: topics.agreements,
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

/** A page of the test browser at `url`, recording page errors and dialogs (problemsOf). */
export async function openDashboardPage(browser: TestBrowser, url: string): Promise<Page> {
  const page = await browser.context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  (page as Page & { problems: string[] }).problems = problems;
  await page.goto(url);
  return page;
}

/** The page errors and dialogs a page met: none, on a page that works. */
export const problemsOf = (page: Page): string[] => (page as Page & { problems: string[] }).problems;

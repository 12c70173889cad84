// Starts a dashboard: its state, the Kafka reader feeding it, and the HTTP server showing it.
// Used by `scorestream dashboard`, by the demo, and by the tests. The server listens before the
// reader catches up, so the page opens at once and fills in as the look-back is read.
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import type { DashboardLimits } from './dashboard-limits.ts';
import { DEFAULT_LIMITS } from './dashboard-limits.ts';
import { DashboardState } from './dashboard-state.ts';
import { bucketWidthFor } from './duration.ts';
import type { DashboardServer } from './http-server.ts';
import { startDashboardServer } from './http-server.ts';
import { AlertFeed } from './alert-feed.ts';
import { startAlertReader } from './alert-reader.ts';
import type { KafkaReader } from './kafka-reader.ts';
import { startKafkaReader } from './kafka-reader.ts';
import { defaultAssetRoots } from './static-assets.ts';
import { traceLinkFrom } from './trace-link.ts';

export type DashboardOptions = {
  /** The process's Kafka edge: its group-less reads and admin. */
  edge: Pick<KafkaEdge, 'readRange' | 'admin'>;
  resultsTopic: string;
  decisionsTopic?: string | undefined;
  /** The in-stream monitors' notices (docs/alerts.md); none: no monitors on the page. */
  alertsTopic?: string | undefined;
  /** The agreements topic (the feedback view); none: the view says it is not configured. */
  agreementsTopic?: string | undefined;
  /** The latest-score view of thread scores (`{runs}-thread-scores`, read whole); none, or missing: threads come from the look-back only. */
  latestScoresTopic?: string | undefined;
  /** The look-back: records from this long ago on. */
  sinceMs: number;
  bucketMs?: number;
  host?: string;
  port?: number;
  token?: string | undefined;
  /** A trace URL template or preset (trace-link.ts); none: no trace links. */
  traceUrl?: string | undefined;
  limits?: Partial<Omit<DashboardLimits, 'windowMs' | 'bucketMs'>>;
  onWarning?: (message: string) => void;
  now?: () => number;
};

export type Dashboard = {
  readonly url: string;
  readonly state: DashboardState;
  readonly reader: KafkaReader;
  readonly server: DashboardServer;
  close(): Promise<void>;
};

export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const traceLink = traceLinkFrom(options.traceUrl);
  const now = options.now ?? Date.now;
  const state = new DashboardState(
    { ...DEFAULT_LIMITS, ...options.limits, windowMs: options.sinceMs, bucketMs: options.bucketMs ?? bucketWidthFor(options.sinceMs) },
    { now, traceLink },
  );
  const alerts = new AlertFeed();
  const server = await startDashboardServer({
    state,
    alerts: () => alerts.snapshot(),
    assets: defaultAssetRoots(),
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    token: options.token,
  });
  let reader: KafkaReader;
  let alertReader: Awaited<ReturnType<typeof startAlertReader>>;
  try {
    alertReader = options.alertsTopic === undefined ? undefined : await startAlertReader({ edge: options.edge, topic: options.alertsTopic, feed: alerts, ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }) });
    reader = await startKafkaReader({
      edge: options.edge,
      resultsTopic: options.resultsTopic,
      decisionsTopic: options.decisionsTopic,
      agreementsTopic: options.agreementsTopic,
      latestScoresTopic: options.latestScoresTopic,
      sinceMs: now() - options.sinceMs,
      state,
      ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    });
  } catch (error) {
    await server.close();
    await alertReader?.stop();
    throw error;
  }
  return {
    url: server.url,
    state,
    reader,
    server,
    async close() {
      await server.close();
      await reader.stop();
      await alertReader?.stop();
    },
  };
}

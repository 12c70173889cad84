// `scorestream dashboard`: the live web dashboard of score records (dashboard/). Reads the results
// and decisions topics from a look-back on (and the latest-score view of thread scores whole),
// serves the page on 127.0.0.1 by default, and runs until Ctrl-C. Any other address needs an
// access token.
import { DEFAULT_AGREEMENTS_TOPIC } from '../../src/kit/contracts/agreement-record.ts';
import { DEFAULT_TOPICS, DEMO_DECISIONS_TOPIC } from '../../src/engine/config/defaults.ts';
import { threadTopicsFor } from '../../src/engine/topology/thread-topics.ts';
import { isLoopbackAddress } from '../../dashboard/access.ts';
import { parseDuration } from '../../dashboard/duration.ts';
import { startDashboard } from '../../dashboard/start-dashboard.ts';
import { traceLinkFrom } from '../../dashboard/trace-link.ts';
import type { Dashboard } from '../../dashboard/start-dashboard.ts';
import { resolveCliBrokers } from '../brokers.ts';
import { kafkaSecurityFromEnvironment } from '../../kafka/kafka-security.ts';
import { tlsOptions } from '../../kafka/service-access.ts';
import { kafkaPreflight } from '../../kafka/kafka-preflight.ts';
import { createKafkaEdge } from '../../kafka/kafka-edge.ts';
import { parseCommandArgs } from '../command-args.ts';

export const DEFAULT_DASHBOARD_PORT = 4680;

const usage = `usage: scorestream dashboard [--since 6h] [--port ${DEFAULT_DASHBOARD_PORT}] [--host 127.0.0.1] [--token T] [--trace-url jaeger|tempo|URL] [--brokers LIST]

  --since D             look-back read at start, and the charts' window (default 6h; units s, m, h, d)
  --bucket D            chart time bucket (default: about 180 buckets over the look-back, e.g. 2m for 6h)
  --topic T             results topic (default SCORESTREAM_TOPIC_RESULTS or ${DEFAULT_TOPICS.results})
  --decisions-topic T   decisions topic (default SCORESTREAM_TOPIC_DECISIONS or ${DEMO_DECISIONS_TOPIC}; '' for none)
  --alerts-topic T      the in-stream monitors' alerts topic (default SCORESTREAM_TOPIC_ALERTS or ${DEFAULT_TOPICS.alerts}; '' for none)
  --agreements-topic T  agreements topic of the feedback view (default SCORESTREAM_TOPIC_AGREEMENTS or
                        ${DEFAULT_AGREEMENTS_TOPIC}; '' for none; a topic that does not exist is skipped)
  --thread-scores-topic T  the latest-score view of thread scores, read whole (default {runs}-thread-scores of
                        SCORESTREAM_TOPIC_RUNS or ${DEFAULT_TOPICS.runs}; '' for none; a topic that does not exist is skipped)
  --host H              address to listen on (default 127.0.0.1); any non-loopback address needs --token
  --port P              port (default ${DEFAULT_DASHBOARD_PORT}; 0 picks a free one)
  --token T             access token (or SCORESTREAM_DASHBOARD_TOKEN); open the page once as /?token=T
  --trace-url U         trace links (or SCORESTREAM_TRACE_URL): a template with {traceId} and {spanId},
                        or a preset: jaeger[=http://localhost:16686], tempo[=http://localhost:3000]
  --brokers LIST        Kafka brokers (or KAFKA_BROKERS; default the local broker)`;

export type DashboardCliOptions = {
  brokers: string[];
  resultsTopic: string;
  decisionsTopic: string | undefined;
  alertsTopic?: string | undefined;
  agreementsTopic?: string | undefined;
  latestScoresTopic?: string | undefined;
  sinceMs: number;
  bucketMs?: number;
  host: string;
  port: number;
  token: string | undefined;
  traceUrl: string | undefined;
};

/** Starts a dashboard from CLI options; the demo uses it too. */
export async function launchDashboard(options: DashboardCliOptions, onWarning: (message: string) => void): Promise<Dashboard> {
  // TLS and SASL from the KAFKA_SSL* / KAFKA_SASL_* variables, as for the service; access checked
  // first, so a refusal exits 2 naming the ACL to grant (docs/security.md, the dashboard's role).
  const { settings, security, ...who } = kafkaSecurityFromEnvironment(process.env);
  const edge = createKafkaEdge({ clientId: 'scorestream-dashboard', brokers: options.brokers, ...settings }, { log: { warn: onWarning, info: onWarning } });
  // What it reads is what the topology gives the dashboard role (src/engine/topology/): read group-less, so no group ACL.
  const topics = [options.resultsTopic, options.decisionsTopic, options.agreementsTopic, options.latestScoresTopic, options.alertsTopic].filter((topic): topic is string => topic !== undefined);
  const access = { brokers: options.brokers, ...who, topics: topics.map((topic) => ({ topic, operations: 'READ' })) };
  const dashboard = await kafkaPreflight(edge.connection, { tls: tlsOptions(security.ssl), existingTopics: [options.resultsTopic] }, access)
    .then(() =>
      startDashboard({
        edge,
    resultsTopic: options.resultsTopic,
    decisionsTopic: options.decisionsTopic,
    alertsTopic: options.alertsTopic,
    agreementsTopic: options.agreementsTopic,
    latestScoresTopic: options.latestScoresTopic,
    sinceMs: options.sinceMs,
    ...(options.bucketMs === undefined ? {} : { bucketMs: options.bucketMs }),
    host: options.host,
    port: options.port,
    token: options.token,
        traceUrl: options.traceUrl,
        onWarning,
      }),
    )
    .catch(async (error: unknown) => {
      await edge.close();
      throw error;
    });
  // The edge is the command's: it closes with the dashboard.
  return { ...dashboard, close: () => dashboard.close().finally(() => edge.close()) };
}

/** The demo's dashboard: on the default port when it is free, else on any free one; 6 hours back. */
export async function startDemoDashboard(topics: { brokers: string[]; resultsTopic: string; decisionsTopic: string | undefined; alertsTopic?: string | undefined; latestScoresTopic?: string | undefined }, onWarning: (message: string) => void): Promise<Dashboard> {
  const options = { ...topics, agreementsTopic: process.env.SCORESTREAM_TOPIC_AGREEMENTS || DEFAULT_AGREEMENTS_TOPIC, sinceMs: 6 * 3_600_000, host: '127.0.0.1', port: DEFAULT_DASHBOARD_PORT, token: undefined, traceUrl: process.env.SCORESTREAM_TRACE_URL };
  try {
    return await launchDashboard(options, onWarning);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return launchDashboard({ ...options, port: 0 }, onWarning);
  }
}

export function pageUrl(dashboard: Dashboard, token: string | undefined): string {
  return token === undefined ? dashboard.url : `${dashboard.url}?token=${encodeURIComponent(token)}`;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseCommandArgs(
    {
      args: argv,
      options: {
        since: { type: 'string' },
        bucket: { type: 'string' },
        topic: { type: 'string' },
        'decisions-topic': { type: 'string' },
        'alerts-topic': { type: 'string' },
        'agreements-topic': { type: 'string' },
        'thread-scores-topic': { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        token: { type: 'string' },
        'trace-url': { type: 'string' },
        brokers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if ('exitCode' in args) return args.exitCode;
  const { values } = args;
  let sinceMs: number;
  let bucketMs: number | undefined;
  try {
    sinceMs = parseDuration(values.since ?? '6h', '--since');
    bucketMs = values.bucket === undefined ? undefined : parseDuration(values.bucket, '--bucket');
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const port = Number(values.port ?? DEFAULT_DASHBOARD_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`--port must be a port number (0 picks a free one), got '${values.port}'\n${usage}`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  const token = values.token ?? (process.env.SCORESTREAM_DASHBOARD_TOKEN || undefined);
  if (!isLoopbackAddress(host) && token === undefined) {
    console.error(`--host ${host} makes the dashboard reachable from other machines: give it an access token (--token or SCORESTREAM_DASHBOARD_TOKEN)`);
    return 2;
  }
  const traceUrl = values['trace-url'] ?? process.env.SCORESTREAM_TRACE_URL;
  try {
    traceLinkFrom(traceUrl);
  } catch (error) {
    console.error(`--trace-url: ${(error as Error).message}`);
    return 2;
  }
  const decisionsSetting = values['decisions-topic'] ?? process.env.SCORESTREAM_TOPIC_DECISIONS ?? DEMO_DECISIONS_TOPIC;
  const alertsSetting = values['alerts-topic'] ?? process.env.SCORESTREAM_TOPIC_ALERTS ?? DEFAULT_TOPICS.alerts;
  const agreementsSetting = values['agreements-topic'] ?? process.env.SCORESTREAM_TOPIC_AGREEMENTS ?? DEFAULT_AGREEMENTS_TOPIC;
  const latestScoresSetting = values['thread-scores-topic'] ?? threadTopicsFor(process.env.SCORESTREAM_TOPIC_RUNS || DEFAULT_TOPICS.runs).latestScores;
  const options: DashboardCliOptions = {
    brokers: await resolveCliBrokers({ brokers: values.brokers }),
    resultsTopic: values.topic ?? process.env.SCORESTREAM_TOPIC_RESULTS ?? DEFAULT_TOPICS.results,
    decisionsTopic: decisionsSetting === '' ? undefined : decisionsSetting,
    alertsTopic: alertsSetting === '' ? undefined : alertsSetting,
    agreementsTopic: agreementsSetting === '' ? undefined : agreementsSetting,
    latestScoresTopic: latestScoresSetting === '' ? undefined : latestScoresSetting,
    sinceMs,
    ...(bucketMs === undefined ? {} : { bucketMs }),
    host,
    port,
    token,
    traceUrl,
  };
  const dashboard = await launchDashboard(options, (message) => console.error(`[dashboard] ${message}`));
  console.log(`Scorestream dashboard: ${pageUrl(dashboard, token)}  (reading ${options.resultsTopic}${options.decisionsTopic ? ` and ${options.decisionsTopic}` : ''} from ${values.since ?? '6h'} ago; Ctrl-C to stop)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await dashboard.close();
  return 0;
}

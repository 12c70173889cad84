// The composition root of `scorestream monitor` (docs/alerts.md, in-stream monitors): one reader
// of the whole results topic — every partition, in a group of its own — feeding the monitor set
// (src/engine/monitors/), evaluated on a wall-clock timer, its notices published to the alerts topic
// through the one emitter (service/role-output.ts: keyed by monitor name, sized, origin header) and
// handed to the webhook, if any. At start it restores each monitor's
// phase from the notices on the alerts topic and refills the windows by reading the results from
// the longest window back, and evaluates only once that read has caught up.
import { metrics } from '@opentelemetry/api';
import type { Meter } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../../src/engine/config/resolve-config.ts';
import type { AlertRecord } from '../../src/kit/contracts/alert-record.ts';
import { parseAlertRecord, parseScoreRecord } from '../../src/kit/contracts/parse.ts';
import { ScorestreamError } from '../../src/kit/errors.ts';
import { createMonitorSet } from '../../src/engine/monitors/monitor-set.ts';
import type { MonitorStatus } from '../../src/engine/monitors/monitor-set.ts';
import { describeNotice } from '../../src/engine/monitors/webhook-body.ts';
import { registerMonitorMetrics } from '../../otel/monitor-metrics.ts';
import { dataHandlingOf } from '../../src/engine/data-handling/data-handling.ts';
import { createdBy, topologyOfConfig } from '../../src/engine/topology/topology.ts';
import { topicSpecsOf } from '../../kafka/ensure-topics.ts';
import { createKafkaEdge } from '../../kafka/kafka-edge.ts';
import type { KafkaEdge } from '../../kafka/kafka-edge.ts';
import { startRoleOutput } from '../role-output.ts';
import { startTopicReader } from './topic-reader.ts';
import type { TopicReader } from './topic-reader.ts';
import { createWebhookNotifier } from './webhook-notifier.ts';
import type { WebhookNotifier } from './webhook-notifier.ts';

export type MonitorOptions = {
  config: ResolvedConfig;
  logger: Logger;
  /** The process's Kafka edge; default one of its own, closed with the monitor. */
  edge?: KafkaEdge;
  meter?: Meter;
  /** Wall clock (tests inject one). */
  now?: () => number;
  /** Told about every notice once it is on the alerts topic (the demo's live view). */
  onNotice?: (notice: AlertRecord) => void;
  /** Injected into the webhook notifier in tests. */
  fetch?: typeof fetch;
};

export type RunningMonitor = {
  statuses(): MonitorStatus[];
  /** Resolves once the windows were refilled from the results topic and evaluation began. */
  readonly ready: Promise<void>;
  readonly webhook: WebhookNotifier['stats'] | undefined;
  stop(): Promise<void>;
};

/** Every notice on the alerts topic, oldest first per monitor (a monitor's notices share its key, so its partition). */
async function readNotices(edge: KafkaEdge, topic: string, logger: Logger): Promise<AlertRecord[]> {
  const notices: AlertRecord[] = [];
  const reader = await startTopicReader({
    edge,
    topic,
    from: 'beginning',
    onMessage: (message) => {
      const parsed = message.value === null ? undefined : parseAlertRecord(safeJson(message.value.toString('utf8')));
      if (parsed?.success === true) notices.push(parsed.data);
      else logger.warn({ topic, offset: message.offset }, 'skipped a message of the alerts topic that is not an AlertRecord v1');
    },
  });
  await reader.caughtUp;
  await reader.stop();
  return notices;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function startMonitor(options: MonitorOptions): Promise<RunningMonitor> {
  const { config, logger } = options;
  if (config.monitors.length === 0) {
    throw new ScorestreamError('the config has no monitors: add monitors: [{ name, scorer, aggregation, window, threshold }] (docs/alerts.md)', { code: 'invalid_config' });
  }
  const now = options.now ?? Date.now;
  const edge = options.edge ?? createKafkaEdge(config.kafka, { log: logger });
  const closeEdge = options.edge === undefined ? () => edge.close() : () => Promise.resolve();
  const alertsTopic = config.topics.alerts;
  const topology = topologyOfConfig(config);
  await edge.admin.createTopics(topicSpecsOf(topology, createdBy(topology, 'monitor')));
  const set = createMonitorSet(config.monitors);
  const meter = options.meter ?? metrics.getMeter('scorestream');
  const monitorMetrics = registerMonitorMetrics(meter, () => set.statuses());
  const restored = await readNotices(edge, alertsTopic, logger);
  set.restore(restored);

  const output = await startRoleOutput({ producer: edge.producer(), topology, handling: dataHandlingOf(config), maxRecordBytes: config.maxRecordBytes, deadLetterTopic: config.topics.deadLetter, logger, now });
  const webhook = config.alerts.webhook === undefined ? undefined : createWebhookNotifier({ webhook: config.alerts.webhook, logger, fetch: options.fetch, onOutcome: (outcome) => monitorMetrics.webhook(outcome) });

  const longestWindow = Math.max(...config.monitors.map((monitor) => monitor.window));
  let invalid = 0;
  const results: TopicReader = await startTopicReader({
    edge,
    topic: config.topics.results,
    from: now() - longestWindow,
    onMessage: (message) => {
      const parsed = message.value === null ? undefined : parseScoreRecord(safeJson(message.value.toString('utf8')));
      if (parsed?.success === true) set.ingest(parsed.data, now());
      else invalid += 1;
    },
    onError: (error) => logger.error({ err: error }, "the monitor's reader of the results topic failed"),
  });

  // One evaluation at a time, its notices in order: each is published (and retried until Kafka
  // acknowledges it) before the next, so a monitor's notices never overtake each other.
  let evaluating: Promise<void> | undefined;
  const evaluate = async () => {
    for (const notice of set.evaluate(now())) {
      await output.emit({ kind: 'alert', notice });
      monitorMetrics.notice(notice.monitor.name, notice.kind);
      logger.info({ monitor: notice.monitor.name, kind: notice.kind, value: notice.value, alertId: notice.alertId }, describeNotice(notice));
      webhook?.notify(notice);
      options.onNotice?.(notice);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const ready = results.caughtUp.then(() => {
    if (stopped) return;
    if (invalid > 0) logger.warn({ invalid }, 'skipped messages of the results topic that are not ScoreRecords');
    logger.info({ monitors: config.monitors.map((monitor) => monitor.name), restored: restored.length, alertsTopic, evaluateEveryMs: config.alerts.evaluateEvery }, 'scorestream monitor is evaluating');
    const tick = () => {
      evaluating ??= evaluate()
        .catch((error: unknown) => logger.error({ err: error }, 'a monitor evaluation failed'))
        .finally(() => (evaluating = undefined));
    };
    tick();
    timer = setInterval(tick, config.alerts.evaluateEvery);
  });

  return {
    statuses: () => set.statuses(),
    ready,
    webhook: webhook?.stats,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await results.stop();
      // Closing the output ends a publish still retrying (Kafka unreachable), so the evaluation ends too.
      await output.close();
      await evaluating;
      await webhook?.close();
      monitorMetrics.unregister();
      await closeEdge();
    },
  };
}

// The demo's OpenTelemetry path (`scorestream demo --otlp`): an instrumented AI SDK agent app
// exporting its traces over OTLP/HTTP to a local OpenTelemetry Collector, whose kafka exporter
// writes them to the topic the service then reads in otlp mode.
import { startCollector } from '../../local/collector/index.ts';
import { startOtlpAgentApp } from '../otlp-agent-app.ts';

/** The Collector kafka exporter's default topic. */
export const OTLP_DEMO_TOPIC = 'otlp_spans';

/** `--otlp`: the Collector (built once with Go) between an instrumented agent app and Kafka. */
export async function startOtlpPath(brokers: string[]) {
  console.error('[otlp] starting the OpenTelemetry Collector (the first run builds it with Go: a few minutes)');
  const collector = await startCollector({ brokers, topic: OTLP_DEMO_TOPIC, encoding: 'otlp_proto', partitionTracesById: true, build: { onBuild: (line) => console.error(`[otlp] ${line}`) } });
  return { collector, app: startOtlpAgentApp({ tracesUrl: collector.tracesUrl }) };
}

export type OtlpPath = Awaited<ReturnType<typeof startOtlpPath>>;

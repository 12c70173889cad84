// `scorestream demo`: the main job on its embedded default. Starts (or reuses) the local Kafka
// broker, creates the topics, runs the service with the bundled example config, feeds it sample
// agent traffic, and redraws a live view of what it scores. Ctrl-C stops cleanly. The traffic is
// demo-traffic.ts, the --otlp path demo-otlp-path.ts.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { Logger } from 'pino';
import { ConfigError } from '../../src/engine/config/config-error.ts';
import { resolveConfig } from '../../src/engine/config/resolve-config.ts';
import type { ResolvedConfig } from '../../src/engine/config/resolve-config.ts';
import { loadConfigFile } from '../../service/load-config-file.ts';
import { startService } from '../../service/start-service.ts';
import { startTelemetry } from '../../otel/setup.ts';
import { traceOptionsFromEnvironment } from '../../otel/trace-options.ts';
import { evaluationLogOptions } from '../../otel/evaluation-logs.ts';
import { redactLine } from '../../otel/logger.ts';
import { processRedaction } from '../config-redaction.ts';
import type { ProcessRedaction } from '../config-redaction.ts';
import { resolveCliBrokers } from '../brokers.ts';
import { applyJudgeEnvironment, setUpJudgeModels } from '../judge-environment.ts';
import type { CliJudgeModels } from '../judge-environment.ts';
import { prepareLocalJudge } from '../local-judge-demo.ts';
import { startLiveView } from '../live-view.ts';
import { parseCommandArgs } from '../command-args.ts';
import { DEMO_DECISIONS_TOPIC } from '../../src/engine/config/defaults.ts';
import { entryOf, topologyOfConfig } from '../../src/engine/topology/topology.ts';
import { startDemoDashboard } from './dashboard.ts';
import { parseDuration } from '../../src/kit/utils/duration.ts';
import type { AlertRecord } from '../../src/kit/contracts/alert-record.ts';
import { startMonitor } from '../../service/monitor/start-monitor.ts';
import { renderMonitorLines } from '../monitor-lines.ts';
import { launchAgreementJoin } from './agreement.ts';
import { OTLP_DEMO_TOPIC, startOtlpPath } from './demo-otlp-path.ts';
import type { OtlpPath } from './demo-otlp-path.ts';
import { startDemoTraffic } from './demo-traffic.ts';
import type { DemoTrafficOptions } from './demo-traffic.ts';

// From the sources (bin/scorestream) the example is the TypeScript file; from the installed package
// it is its compiled twin in dist/examples/ (Node does not strip types under node_modules).
const runsCompiled = import.meta.url.endsWith('.js');
const exampleConfig = fileURLToPath(new URL(`../../examples/scorestream.config.${runsCompiled ? 'js' : 'ts'}`, import.meta.url));
const command = runsCompiled ? 'npx scorestream' : './bin/scorestream';

const usage = `usage: scorestream demo [--otlp] [--rate R] [--count N] [--config FILE] [--brokers LIST] [--local-judge]
                       [--degrade-after D] [--degrade-for D]

  --otlp          the OpenTelemetry path: an AI SDK app with @ai-sdk/otel exports its traces over
                  OTLP/HTTP to a local OpenTelemetry Collector (built with Go once), whose kafka
                  exporter writes them to 'otlp_spans'; the service reads that topic in otlp mode
  --rate R        sample runs per second (default 25)
  --count N       stop producing after N runs (default: until Ctrl-C)
  --config FILE   scorer config (default examples/scorestream.config.ts)
  --brokers LIST  use these brokers instead of the local one (or set KAFKA_BROKERS)
  --local-judge   run the LLM-judge and classifier scorers on a small model on this machine
                  (Gemma 3 270M, fetched once into the cache: about 330 MB with its runtime)
  --degrade-after D, --degrade-for D
                  the sample traffic's support agent answers badly from D after the start (default
                  60s) for D (default 90s), and again every 5 minutes, so the config's monitors fire
                  and recover (docs/alerts.md); --degrade-after off: never`;

export async function run(argv: string[]): Promise<number> {
  const args = parseCommandArgs(
    {
      args: argv,
      options: {
        otlp: { type: 'boolean' },
        rate: { type: 'string' },
        count: { type: 'string' },
        config: { type: 'string' },
        brokers: { type: 'string' },
        'local-judge': { type: 'boolean' },
        'degrade-after': { type: 'string' },
        'degrade-for': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if ('exitCode' in args) return args.exitCode;
  const { values } = args;
  const trafficOptions = demoTrafficOptions(values);
  if (trafficOptions === undefined) return 2;

  // Before the broker and the live view: the first run downloads the model with a progress bar.
  const localJudge = values['local-judge'] === true ? await prepareLocalJudge(process.env) : undefined;
  if (localJudge !== undefined) Object.assign(process.env, localJudge.environment);
  const judge = setUpJudgeModels(process.env);
  if (localJudge !== undefined) await localJudge.load(judge.local);

  const brokers = await resolveCliBrokers({ brokers: values.brokers, start: true, onProgress: (line) => console.error(`[kafka] ${line}`) });
  const otlp = values.otlp === true ? await startOtlpPath(brokers) : undefined;
  const configFile = values.config ?? exampleConfig;
  const { logFile, redaction, logger } = openDemoLog();

  const config = await loadDemoConfig(configFile, { brokers, judge, otlp });
  if (config === undefined) return 2;
  redaction.use(config);
  if (judge.defaultModelId === undefined) {
    console.error(
      `LLM-judge and classifier scorers are off. Turn them on with a model on this machine (${command} demo --local-judge), ` +
        'or any OpenAI-compatible server: SCORESTREAM_JUDGE_BASE_URL=http://localhost:11434/v1 SCORESTREAM_JUDGE_MODEL=llama3.1 (Ollama).',
    );
  }

  // Telemetry only when asked for: by default the SDK would export to localhost:4318, which a
  // first-run demo machine does not have. OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_*_EXPORTER turn it on.
  const telemetryRequested = Object.keys(process.env).some((name) => /^OTEL_(EXPORTER_OTLP_.*ENDPOINT|TRACES_EXPORTER|METRICS_EXPORTER|LOGS_EXPORTER|CONFIG_FILE)$/.test(name));
  const telemetry = await startTelemetry(telemetryRequested ? process.env : { ...process.env, OTEL_SDK_DISABLED: 'true' }, { logger, redact: redaction.redact });
  // Decided before anything waits on Kafka: a setting it cannot honour stops the demo at once, its telemetry shut down.
  const evaluationOptions = await Promise.resolve()
    .then(() => evaluationLogOptions(telemetry, process.env))
    .catch(async (error: unknown) => {
      await telemetry.shutdown();
      throw error;
    });
  // Topics, the producer and the group join usually take a second; a broker that is still
  // recovering its logs can hold them up for longer, and a silent terminal says nothing of why.
  const slowStart = setTimeout(() => console.error(`[demo] still connecting to Kafka (creating topics, joining the consumer group); progress and errors: ${logFile}`), 5_000);
  const service = await startService({
    config,
    logger,
    createRunsTopic: true,
    ...traceOptionsFromEnvironment(process.env),
    ...evaluationOptions,
    consumer: { commitIntervalMs: 500 },
  }).finally(() => clearTimeout(slowStart));
  const { publisher, traffic } = startDemoTraffic(trafficOptions, { config, brokers, otlp, logger });

  let dashboard: Awaited<ReturnType<typeof startDemoDashboard>> | undefined;
  let monitor: Awaited<ReturnType<typeof startMonitor>> | undefined;
  const notices: AlertRecord[] = [];
  let agreement: Awaited<ReturnType<typeof launchAgreementJoin>> | undefined;
  // In order, once: Ctrl-C, and a start that fails after the service runs (its Kafka clients
  // and the traffic would otherwise keep the process alive after the error is printed).
  const stopEverything = async () => {
    await monitor?.stop();
    await traffic.stop();
    await publisher?.close();
    await otlp?.app.close();
    await otlp?.collector.stop();
    await service.stop();
    await agreement?.stop();
    await dashboard?.close();
    await telemetry.shutdown();
    await judge.local.dispose();
  };
  try {
    if (config.monitors.length > 0) monitor = await startMonitor({ config, logger, onNotice: (notice) => void (notices.push(notice) > 10 && notices.shift()) });
    // The feedback join before the dashboard, which reads the agreements topic the join creates.
    // One-minute windows, so the feedback view draws κ over time within minutes.
    agreement = await launchAgreementJoin(
      { brokers, feedbackTopic: config.topics.feedback, resultsTopic: config.topics.results, agreementsTopic: config.topics.agreements, rescoreTopic: config.topics.rescore, ttlMs: 30 * 60_000, windowMs: 60_000, redaction: config.redaction, maxRecordBytes: config.maxRecordBytes },
      (message) => logger.warn(message),
    );
    dashboard = await startDemoDashboard({ brokers, resultsTopic: config.topics.results, decisionsTopic: config.topics.decisions, alertsTopic: config.monitors.length > 0 ? config.topics.alerts : undefined, latestScoresTopic: entryOf(topologyOfConfig(config), 'thread-scores')?.name }, (message) => logger.warn(message));
  } catch (error) {
    await stopEverything();
    throw error;
  }
  const dashboardUrl = dashboard.url;
  console.log(`Scorestream demo — brokers ${brokers.join(',')}, runs on '${config.topics.runs}', scores on '${config.topics.results}', ${config.scorers.length} scorers`);
  if (otlp !== undefined) console.log(`OTLP path: agent app → OTLP/HTTP ${otlp.collector.tracesUrl} → Collector → Kafka '${OTLP_DEMO_TOPIC}' (otlp_proto, keyed by trace id) → Scorestream (input.format 'otlp')`);
  console.log(`Logs: ${logFile}    Watch the records: ${command} tail    Stop: Ctrl-C`);
  console.log(`Dashboard: ${dashboardUrl}\n`);
  const view = startLiveView(service.stats, {
    header: () => [`dashboard ${dashboardUrl}`, `sample runs sent ${traffic.sent}${traffic.failed > 0 ? ` (${traffic.failed} failed to send)` : ''}`, ...(localJudge?.notice ?? [])],
    footer: () => renderMonitorLines(monitor?.statuses() ?? [], notices),
  });

  const code = await untilStopped({ stopEverything, view, crashed: service.crashed, logFile });
  logger.flush();
  return code;
}

/** --rate, --count and the degradation episodes, checked; undefined (the problem printed with the usage) when one is not valid. */
function demoTrafficOptions(values: { rate?: string | undefined; count?: string | undefined; 'degrade-after'?: string | undefined; 'degrade-for'?: string | undefined }): DemoTrafficOptions | undefined {
  const rate = Number(values.rate ?? '25');
  const count = values.count === undefined ? Infinity : Number(values.count);
  if (!(rate > 0) || !(count > 0)) {
    console.error(`--rate and --count must be positive numbers\n${usage}`);
    return undefined;
  }
  const degradeAfterMs = values['degrade-after'] === 'off' ? undefined : parseDuration(values['degrade-after'] ?? '60s');
  const degradeForMs = parseDuration(values['degrade-for'] ?? '90s');
  if ((values['degrade-after'] !== 'off' && degradeAfterMs === undefined) || degradeForMs === undefined || degradeForMs === 0) {
    console.error(`--degrade-after and --degrade-for take durations such as 30s or 2m (--degrade-after also 'off')\n${usage}`);
    return undefined;
  }
  return { rate, count, degradeAfterMs, degradeForMs };
}

/** The demo's log file, out of the terminal's way (the live view owns it). */
function openDemoLog(): { logFile: string; redaction: ProcessRedaction; logger: Logger } {
  const logDirectory = join(tmpdir(), 'scorestream');
  mkdirSync(logDirectory, { recursive: true });
  const logFile = join(logDirectory, 'demo.log');
  // Redacted like the service's log (docs/data-handling.md): built-ins until the config is read, then its own.
  const redaction = processRedaction();
  const logger = pino({ level: process.env.SCORESTREAM_LOG_LEVEL ?? 'info', hooks: { streamWrite: (line) => redactLine(line, redaction.redact) } }, pino.destination({ dest: logFile, sync: false }));
  return { logFile, redaction, logger };
}

/** The config file on the demo's brokers and topics (the OTLP path's topic and input with --otlp); undefined when it is not valid (the problem printed, the Collector stopped). */
async function loadDemoConfig(configFile: string, { brokers, judge, otlp }: { brokers: string[]; judge: CliJudgeModels; otlp: OtlpPath | undefined }): Promise<ResolvedConfig | undefined> {
  try {
    const input = applyJudgeEnvironment(await loadConfigFile(configFile), judge);
    return resolveConfig(
      {
        ...input,
        kafka: { ...input.kafka, brokers },
        groupId: input.groupId ?? (otlp === undefined ? 'scorestream-demo' : 'scorestream-demo-otlp'),
        topics: { decisions: DEMO_DECISIONS_TOPIC, ...input.topics, ...(otlp === undefined ? {} : { runs: OTLP_DEMO_TOPIC }) },
        ...(otlp === undefined ? {} : { input: { format: 'otlp' } }),
      },
      { environment: { ...process.env, KAFKA_BROKERS: undefined }, source: configFile },
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      await otlp?.collector.stop();
      return undefined;
    }
    throw error;
  }
}

/**
 * Until Ctrl-C (or SIGTERM) has stopped everything, or the consumer crashed: the exit code. A
 * second Ctrl-C exits at once.
 */
function untilStopped({ stopEverything, view, crashed, logFile }: { stopEverything: () => Promise<void>; view: { stop(): void }; crashed: Promise<Error>; logFile: string }): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(130);
      stopping = true;
      console.error('\nstopping: finishing in-flight runs (Ctrl-C again to exit at once)');
      void (async () => {
        await stopEverything();
        view.stop();
        console.log(`\nThe broker keeps running (its topics hold the runs and scores): ${command} kafka stop`);
        resolve(0);
      })().catch((error: unknown) => {
        console.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        resolve(1);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    void crashed.then((error) => {
      if (stopping) return;
      view.stop();
      console.error(`the Kafka consumer crashed: ${error.message} (see ${logFile})`);
      resolve(1);
    });
  });
}

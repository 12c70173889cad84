// `scorestream demo`: the main job on its embedded default. Starts (or reuses) the local Kafka
// broker, creates the topics, runs the service with the bundled example config, feeds it sample
// agent traffic, and redraws a live view of what it scores. Ctrl-C stops cleanly.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { ConfigError } from '../../src/config/config-error.ts';
import { resolveConfig } from '../../src/config/resolve-config.ts';
import { loadConfigFile } from '../../service/load-config-file.ts';
import { startService } from '../../service/start-service.ts';
import { recordInputsFromEnvironment, startTelemetry } from '../../otel/setup.ts';
import { createRunPublisher } from '../../producers/run-publisher.ts';
import { createSampleRunGenerator, sampleRunContext } from '../../producers/sample/index.ts';
import { resolveCliBrokers } from '../brokers.ts';
import { applyJudgeEnvironment, setUpJudgeModels } from '../judge-environment.ts';
import { prepareLocalJudge } from '../local-judge-demo.ts';
import { startLiveView } from '../live-view.ts';
import { startSampleTraffic } from '../sample-traffic.ts';
import { parseCommandArgs } from '../command-args.ts';

const exampleConfig = fileURLToPath(new URL('../../examples/scorestream.config.ts', import.meta.url));

const usage = `usage: scorestream demo [--rate R] [--count N] [--config FILE] [--brokers LIST] [--local-judge]

  --rate R        sample runs per second (default 25)
  --count N       stop producing after N runs (default: until Ctrl-C)
  --config FILE   scorer config (default examples/scorestream.config.ts)
  --brokers LIST  use these brokers instead of the local one (or set KAFKA_BROKERS)
  --local-judge   run the LLM-judge and classifier scorers on a small model on this machine
                  (Gemma 3 270M, fetched once into the cache: about 330 MB with its runtime)`;

export async function run(argv: string[]): Promise<number> {
  const args = parseCommandArgs(
    {
      args: argv,
      options: {
        rate: { type: 'string' },
        count: { type: 'string' },
        config: { type: 'string' },
        brokers: { type: 'string' },
        'local-judge': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if ('exitCode' in args) return args.exitCode;
  const { values } = args;
  const rate = Number(values.rate ?? '25');
  const count = values.count === undefined ? Infinity : Number(values.count);
  if (!(rate > 0) || !(count > 0)) {
    console.error(`--rate and --count must be positive numbers\n${usage}`);
    return 2;
  }

  // Before the broker and the live view: the first run downloads the model with a progress bar.
  const localJudge = values['local-judge'] === true ? await prepareLocalJudge(process.env) : undefined;
  if (localJudge !== undefined) Object.assign(process.env, localJudge.environment);
  const judge = setUpJudgeModels(process.env);
  if (localJudge !== undefined) await localJudge.load(judge.local);

  const brokers = await resolveCliBrokers({ brokers: values.brokers, start: true, onProgress: (line) => console.error(`[kafka] ${line}`) });
  const configFile = values.config ?? exampleConfig;
  const logDirectory = join(tmpdir(), 'scorestream');
  mkdirSync(logDirectory, { recursive: true });
  const logFile = join(logDirectory, 'demo.log');
  const logger = pino({ level: process.env.SCORESTREAM_LOG_LEVEL ?? 'info' }, pino.destination({ dest: logFile, sync: false }));

  let config;
  try {
    const input = applyJudgeEnvironment(await loadConfigFile(configFile), judge);
    config = resolveConfig(
      { ...input, kafka: { ...input.kafka, brokers }, groupId: input.groupId ?? 'scorestream-demo', topics: { decisions: 'agent-score-decisions', ...input.topics } },
      { environment: { ...process.env, KAFKA_BROKERS: undefined }, source: configFile },
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (judge.defaultModelId === undefined) {
    console.error(
      'LLM-judge and classifier scorers are off. Turn them on with a model on this machine (./bin/scorestream demo --local-judge), ' +
        'or any OpenAI-compatible server: SCORESTREAM_JUDGE_BASE_URL=http://localhost:11434/v1 SCORESTREAM_JUDGE_MODEL=llama3.1 (Ollama).',
    );
  }

  // Telemetry only when asked for: by default the SDK would export to localhost:4318, which a
  // first-run demo machine does not have. OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_*_EXPORTER turn it on.
  const telemetryRequested = Object.keys(process.env).some((name) => /^OTEL_(EXPORTER_OTLP_.*ENDPOINT|TRACES_EXPORTER|METRICS_EXPORTER|CONFIG_FILE)$/.test(name));
  const telemetry = await startTelemetry(telemetryRequested ? process.env : { ...process.env, OTEL_SDK_DISABLED: 'true' }, { logger });
  // Topics, the producer and the group join usually take a second; a broker that is still
  // recovering its logs can hold them up for longer, and a silent terminal says nothing of why.
  const slowStart = setTimeout(() => console.error(`[demo] still connecting to Kafka (creating topics, joining the consumer group); progress and errors: ${logFile}`), 5_000);
  const service = await startService({
    config,
    logger,
    createRunsTopic: true,
    recordInputs: recordInputsFromEnvironment(process.env),
    consumer: { commitIntervalMs: 500 },
  }).finally(() => clearTimeout(slowStart));
  const publisher = createRunPublisher({ brokers, topic: config.topics.runs, clientId: 'scorestream-demo-traffic' });
  const generator = createSampleRunGenerator({ seed: Date.now() });
  const traffic = startSampleTraffic({
    rate,
    count,
    publish: async (batchSize) => {
      const samples = Array.from({ length: batchSize }, () => generator.next());
      const contexts = new Map(samples.map((sample) => [sample.event, sampleRunContext(sample)]));
      await publisher.publish(
        samples.map((sample) => sample.event),
        { contextFor: (run) => contexts.get(run as never) },
      );
    },
    onError: (error) => logger.error({ err: error }, 'publishing sample traffic failed'),
  });

  console.log(`Scorestream demo — brokers ${brokers.join(',')}, runs on '${config.topics.runs}', scores on '${config.topics.results}', ${config.scorers.length} scorers`);
  console.log(`Logs: ${logFile}    Watch the records: ./bin/scorestream tail    Stop: Ctrl-C\n`);
  const view = startLiveView(service.stats, {
    header: () => [`sample runs sent ${traffic.sent}${traffic.failed > 0 ? ` (${traffic.failed} failed to send)` : ''}`, ...(localJudge?.notice ?? [])],
  });

  const code = await new Promise<number>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(130);
      stopping = true;
      console.error('\nstopping: finishing in-flight runs (Ctrl-C again to exit at once)');
      void (async () => {
        await traffic.stop();
        await publisher.close();
        await service.stop();
        await telemetry.shutdown();
        await judge.local.dispose();
        view.stop();
        console.log(`\nThe broker keeps running (its topics hold the runs and scores): ./bin/scorestream kafka stop`);
        resolve(0);
      })().catch((error: unknown) => {
        console.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        resolve(1);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    void service.crashed.then((error) => {
      if (stopping) return;
      view.stop();
      console.error(`the Kafka consumer crashed: ${error.message} (see ${logFile})`);
      resolve(1);
    });
  });
  logger.flush();
  return code;
}

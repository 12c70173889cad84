// `scorestream agreement`: the live feedback join (service/agreement-join.ts, docs/feedback.md).
// Reads the feedback and results topics, publishes agreement records, and runs until Ctrl-C. Run
// one: a second would publish the same records (harmless on the compacted topic) for nothing.
import { metrics } from '@opentelemetry/api';
import { topicsSchema } from '../../src/engine/config/config-schema.ts';
import { DEFAULT_TOPICS } from '../../src/engine/config/defaults.ts';
import type { RedactionSettings } from '../../src/engine/data-handling/redaction-schema.ts';
import { DEFAULT_AGREEMENTS_TOPIC } from '../../src/kit/contracts/agreement-record.ts';
import { DEFAULT_FEEDBACK_TOPIC } from '../../src/kit/contracts/feedback-record.ts';
import { createLogger, loggerSettingsFromEnvironment } from '../../otel/logger.ts';
import { startTelemetry } from '../../otel/setup.ts';
import { parseDuration } from '../../dashboard/duration.ts';
import { createKafkaEdge } from '../../kafka/kafka-edge.ts';
import { kafkaSecurityFromEnvironment } from '../../kafka/kafka-security.ts';
import { AGREEMENT_JOIN_DEFAULTS, startAgreementJoin } from '../../service/agreement-join.ts';
import type { AgreementJoin } from '../../service/agreement-join.ts';
import { resolveCliBrokers } from '../brokers.ts';
import { parseCommandArgs } from '../command-args.ts';
import { loadCliConfig } from '../load-cli-config.ts';

const usage = `usage: scorestream agreement [--config FILE] [--ttl 24h] [--window 1h] [--brokers LIST]

  --config FILE         the deployment's config: its topics, redaction and maxRecordBytes (the flags below win)
  --feedback-topic T    feedback topic (default SCORESTREAM_TOPIC_FEEDBACK or ${DEFAULT_FEEDBACK_TOPIC})
  --topic T             results topic (default SCORESTREAM_TOPIC_RESULTS or ${DEFAULT_TOPICS.results})
  --agreements-topic T  agreements topic, compacted (default SCORESTREAM_TOPIC_AGREEMENTS or ${DEFAULT_AGREEMENTS_TOPIC})
  --rescore-topic T     where re-scores on feedback are asked for: the service's topics.rescore
                        (default SCORESTREAM_TOPIC_RESCORE or ${AGREEMENT_JOIN_DEFAULTS.rescoreTopic})
  --no-rescore          ask for no re-scores
  --ttl D               how long feedback waits for its score and a score for its feedback (default 24h)
  --window D            window of the κ / accuracy summaries per scorer version (default 1h)
  --max-runs N          runs held by the join at most (default ${AGREEMENT_JOIN_DEFAULTS.maxRuns})
  --brokers LIST        Kafka brokers (or KAFKA_BROKERS; default the local broker)`;

export type AgreementCliOptions = {
  brokers: string[];
  feedbackTopic: string;
  resultsTopic: string;
  agreementsTopic: string;
  rescoreTopic?: string | null;
  ttlMs: number;
  windowMs: number;
  maxRuns?: number;
  /** The deployment's data handling and record size (a config file's `redaction` and `maxRecordBytes`; default: the built-in patterns). */
  redaction?: RedactionSettings;
  maxRecordBytes?: number;
};

/** Starts the join from CLI options; the demo uses it too. */
export async function launchAgreementJoin(options: AgreementCliOptions, onWarning: (message: string) => void): Promise<AgreementJoin> {
  const { settings } = kafkaSecurityFromEnvironment(process.env);
  const logger = createLogger(loggerSettingsFromEnvironment(process.env));
  const edge = createKafkaEdge({ clientId: 'scorestream-agreement', brokers: options.brokers, ...settings }, { log: logger });
  const join = await startAgreementJoin({
    edge,
    feedbackTopic: options.feedbackTopic,
    resultsTopic: options.resultsTopic,
    agreementsTopic: options.agreementsTopic,
    ...(options.rescoreTopic === undefined ? {} : { rescoreTopic: options.rescoreTopic }),
    ttlMs: options.ttlMs,
    windowMs: options.windowMs,
    retentionMs: Math.max(options.ttlMs, options.windowMs),
    ...(options.maxRuns === undefined ? {} : { maxRuns: options.maxRuns }),
    ...(options.redaction === undefined ? {} : { redaction: options.redaction }),
    ...(options.maxRecordBytes === undefined ? {} : { maxRecordBytes: options.maxRecordBytes }),
    logger,
    meter: metrics.getMeter('scorestream'),
    onWarning,
  }).catch(async (error: unknown) => {
    await edge.close();
    throw error;
  });
  // The edge is the command's: it closes with the join.
  return { ...join, stop: () => join.stop().finally(() => edge.close()) };
}

/** Where the join asks for re-scores: `--rescore-topic`, else SCORESTREAM_TOPIC_RESCORE, else the default; null with `--no-rescore`. */
export function rescoreTopicOption(values: { 'rescore-topic'?: string | undefined; 'no-rescore'?: boolean | undefined }, environment: Record<string, string | undefined>): string | null {
  if (values['no-rescore'] === true) return null;
  return values['rescore-topic'] ?? (environment.SCORESTREAM_TOPIC_RESCORE || AGREEMENT_JOIN_DEFAULTS.rescoreTopic);
}

export async function run(argv: string[]): Promise<number> {
  const args = parseCommandArgs(
    {
      args: argv,
      options: {
        'feedback-topic': { type: 'string' },
        topic: { type: 'string' },
        config: { type: 'string', short: 'c' },
        'agreements-topic': { type: 'string' },
        'rescore-topic': { type: 'string' },
        'no-rescore': { type: 'boolean' },
        ttl: { type: 'string' },
        window: { type: 'string' },
        'max-runs': { type: 'string' },
        brokers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if ('exitCode' in args) return args.exitCode;
  const { values } = args;
  let ttlMs: number;
  let windowMs: number;
  try {
    ttlMs = parseDuration(values.ttl ?? '24h', '--ttl');
    windowMs = parseDuration(values.window ?? '1h', '--window');
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (values['no-rescore'] === true && values['rescore-topic'] !== undefined) {
    console.error(`--rescore-topic and --no-rescore contradict each other: give one\n${usage}`);
    return 2;
  }
  const maxRuns = values['max-runs'] === undefined ? undefined : Number(values['max-runs']);
  if (maxRuns !== undefined && !(Number.isInteger(maxRuns) && maxRuns > 0)) {
    console.error(`--max-runs must be a positive integer, got '${values['max-runs']}'\n${usage}`);
    return 2;
  }
  // The config file's topics, redaction and record size when one is given; else the environment's names.
  const config = values.config === undefined ? undefined : await loadCliConfig(values.config, createLogger(loggerSettingsFromEnvironment(process.env)));
  if (values.config !== undefined && config === undefined) return 2;
  const topics = config?.topics ?? topicsSchema.parse({ feedback: process.env.SCORESTREAM_TOPIC_FEEDBACK || undefined, results: process.env.SCORESTREAM_TOPIC_RESULTS || undefined, agreements: process.env.SCORESTREAM_TOPIC_AGREEMENTS || undefined });
  const options: AgreementCliOptions = {
    brokers: config?.kafka.brokers ?? (await resolveCliBrokers({ brokers: values.brokers })),
    feedbackTopic: values['feedback-topic'] ?? topics.feedback,
    resultsTopic: values.topic ?? topics.results,
    agreementsTopic: values['agreements-topic'] ?? topics.agreements,
    rescoreTopic: values['no-rescore'] === true ? null : (values['rescore-topic'] ?? config?.topics.rescore ?? rescoreTopicOption(values, process.env)),
    ttlMs,
    windowMs,
    ...(maxRuns === undefined ? {} : { maxRuns }),
    ...(config === undefined ? {} : { redaction: config.redaction, maxRecordBytes: config.maxRecordBytes }),
  };
  // The scorestream.agreement.* metrics go wherever OTEL_* says, as the service's do (docs/observability.md).
  const telemetry = await startTelemetry(process.env, { logger: createLogger(loggerSettingsFromEnvironment(process.env)) });
  const join = await launchAgreementJoin(options, (message) => console.error(`[agreement] ${message}`));
  console.log(`Scorestream agreement: joining ${options.feedbackTopic} to ${options.resultsTopic} into ${options.agreementsTopic} (ttl ${values.ttl ?? '24h'}, window ${values.window ?? '1h'}; Ctrl-C to stop)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await join.stop();
  await telemetry.shutdown();
  return 0;
}

// Deployment-time overrides: the same image runs in every environment, and the environment
// decides brokers, group and topic names. Applied before validation, so a bad value in the
// environment is reported against the variable that carried it.
import type { ConfigProblem } from './config-error.ts';
import { deliveryModes, kafkaClients, traceSamplingPolicies } from './config-schema.ts';
import { applyTlsEnvironment } from './tls-env-overrides.ts';
import { EVIDENCE_LEVELS } from '../data-handling/redaction-schema.ts';
import type { EvidenceLevel } from '../data-handling/redaction-schema.ts';
import { applyInputOverrides } from './input-overrides.ts';
import type { DeliveryMode, KafkaClientName, SaslConfig, ScorestreamConfigInput, TraceSamplingPolicy } from './config-types.ts';

export type Environment = Record<string, string | undefined>;

const topicVariables = {
  SCORESTREAM_TOPIC_RUNS: 'runs',
  SCORESTREAM_TOPIC_RESULTS: 'results',
  SCORESTREAM_TOPIC_DEAD_LETTER: 'deadLetter',
  SCORESTREAM_TOPIC_DECISIONS: 'decisions',
  SCORESTREAM_TOPIC_RETRY: 'retry',
  SCORESTREAM_TOPIC_ALERTS: 'alerts',
  SCORESTREAM_TOPIC_REPLAYS: 'replays',
  SCORESTREAM_TOPIC_RESCORE: 'rescore',
  SCORESTREAM_TOPIC_FEEDBACK: 'feedback',
  SCORESTREAM_TOPIC_AGREEMENTS: 'agreements',
} as const;

const trueWords = new Set(['true', '1', 'yes', 'on']);
const falseWords = new Set(['false', '0', 'no', 'off']);

const numberVariables = {
  SCORESTREAM_RUNS_IN_FLIGHT: 'runsInFlight',
  SCORESTREAM_JUDGE_CONCURRENCY: 'judgeCallsPerModel',
} as const;

/** Returns a copy of `config` with the environment's values laid over it. */
/**
 * OAUTHBEARER's settings from the environment (docs/security.md, OAuth): the token endpoint, the
 * client id, the secret or the file holding it (taken untrimmed, as a password is), the scope.
 */
function oauthEnvironment(value: (name: string) => string | undefined, environment: Environment): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    tokenEndpointUrl: value('KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL'),
    clientId: value('KAFKA_SASL_OAUTHBEARER_CLIENT_ID'),
    clientSecret: environment.KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET === '' ? undefined : environment.KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET,
    clientSecretFile: value('KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET_FILE'),
    scope: value('KAFKA_SASL_OAUTHBEARER_SCOPE'),
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export function applyEnvironmentOverrides<Event>(
  config: ScorestreamConfigInput<Event>,
  environment: Environment,
  problems: ConfigProblem[],
): ScorestreamConfigInput<Event> {
  const result: ScorestreamConfigInput<Event> = {
    ...config,
    kafka: { ...objectOrNothing(config.kafka) },
    topics: { ...objectOrNothing(config.topics) },
    concurrency: { ...objectOrNothing(config.concurrency) },
  };
  const value = (name: string) => {
    const raw = environment[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };

  const brokers = value('KAFKA_BROKERS');
  if (brokers !== undefined) result.kafka!.brokers = brokers.split(',').map((broker) => broker.trim()).filter(Boolean);
  const clientId = value('SCORESTREAM_CLIENT_ID');
  if (clientId !== undefined) result.kafka!.clientId = clientId;
  const client = value('SCORESTREAM_KAFKA_CLIENT')?.toLowerCase();
  if (client !== undefined) {
    if ((kafkaClients as readonly string[]).includes(client)) result.kafka!.client = client as KafkaClientName;
    else problems.push({ path: 'env SCORESTREAM_KAFKA_CLIENT', message: `expected one of ${kafkaClients.map((name) => `'${name}'`).join(', ')}, got '${value('SCORESTREAM_KAFKA_CLIENT')}'` });
  }
  const groupId = value('SCORESTREAM_GROUP_ID');
  if (groupId !== undefined) result.groupId = groupId;

  for (const [name, field] of Object.entries(topicVariables)) {
    const topic = value(name);
    if (topic !== undefined) result.topics![field] = topic;
  }
  for (const [name, field] of Object.entries(numberVariables)) {
    const raw = value(name);
    if (raw === undefined) continue;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed <= 0) problems.push({ path: `env ${name}`, message: `expected a positive integer, got '${raw}'` });
    else result.concurrency![field] = parsed;
  }
  const shutdown = value('SCORESTREAM_SHUTDOWN_TIMEOUT_MS');
  if (shutdown !== undefined) {
    const parsed = Number(shutdown);
    if (!Number.isInteger(parsed) || parsed <= 0) problems.push({ path: 'env SCORESTREAM_SHUTDOWN_TIMEOUT_MS', message: `expected a positive integer, got '${shutdown}'` });
    else result.shutdownTimeoutMs = parsed;
  }

  const callTimeout = value('SCORESTREAM_JUDGE_CALL_TIMEOUT_MS');
  if (callTimeout !== undefined) {
    const parsed = Number(callTimeout);
    if (!Number.isInteger(parsed) || parsed <= 0) problems.push({ path: 'env SCORESTREAM_JUDGE_CALL_TIMEOUT_MS', message: `expected a positive integer, got '${callTimeout}'` });
    else result.judge = { ...objectOrNothing(config.judge), callTimeoutMs: parsed };
  }

  const delivery = value('SCORESTREAM_DELIVERY')?.toLowerCase();
  if (delivery !== undefined) {
    if ((deliveryModes as readonly string[]).includes(delivery)) result.delivery = delivery as DeliveryMode;
    else problems.push({ path: 'env SCORESTREAM_DELIVERY', message: `expected one of ${deliveryModes.map((mode) => `'${mode}'`).join(', ')}, got '${value('SCORESTREAM_DELIVERY')}'` });
  }

  const healthPort = value('SCORESTREAM_HEALTH_PORT');
  const healthHost = value('SCORESTREAM_HEALTH_HOST');
  if (healthPort !== undefined || healthHost !== undefined) {
    const port = healthPort === undefined ? undefined : Number(healthPort);
    if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) problems.push({ path: 'env SCORESTREAM_HEALTH_PORT', message: `expected a port from 0 to 65535, got '${healthPort}'` });
    else result.health = { ...objectOrNothing(config.health), ...(port === undefined ? {} : { port }), ...(healthHost === undefined ? {} : { host: healthHost }) };
  }
  const evidence = value('SCORESTREAM_EVIDENCE')?.toLowerCase();
  if (evidence !== undefined) {
    if ((EVIDENCE_LEVELS as readonly string[]).includes(evidence)) result.evidence = evidence as EvidenceLevel;
    else problems.push({ path: 'env SCORESTREAM_EVIDENCE', message: `expected one of ${EVIDENCE_LEVELS.map((level) => `'${level}'`).join(', ')}, got '${value('SCORESTREAM_EVIDENCE')}'` });
  }
  const traceSampling = value('SCORESTREAM_TRACE_SAMPLING')?.toLowerCase();
  if (traceSampling !== undefined) {
    if ((traceSamplingPolicies as readonly string[]).includes(traceSampling)) result.traceSampling = traceSampling as TraceSamplingPolicy;
    else problems.push({ path: 'env SCORESTREAM_TRACE_SAMPLING', message: `expected one of ${traceSamplingPolicies.map((policy) => `'${policy}'`).join(', ')}, got '${value('SCORESTREAM_TRACE_SAMPLING')}'` });
  }

  applyInputOverrides(result, value, problems);

  // Each variable overrides its own field, so the secret can come from the environment while
  // the mechanism and username stay in the config file. The password is taken untrimmed.
  const mechanism = value('KAFKA_SASL_MECHANISM');
  const username = value('KAFKA_SASL_USERNAME');
  const password = environment.KAFKA_SASL_PASSWORD === '' ? undefined : environment.KAFKA_SASL_PASSWORD;
  const oauth = oauthEnvironment(value, environment);
  const chosen = mechanism?.toLowerCase() ?? config.kafka?.sasl?.mechanism;
  if (chosen === 'oauthbearer') {
    result.kafka!.sasl = { ...config.kafka?.sasl, mechanism: 'oauthbearer', ...oauth } as SaslConfig;
  } else if (chosen === 'aws-msk-iam') {
    // The region: the config's, else the AWS SDK's own variables.
    const region = (config.kafka?.sasl as { region?: string } | undefined)?.region ?? value('AWS_REGION') ?? value('AWS_DEFAULT_REGION');
    result.kafka!.sasl = { mechanism: 'aws-msk-iam', ...(region === undefined ? {} : { region }) } as SaslConfig;
    if (region === undefined) problems.push({ path: 'kafka.sasl.region', message: "MSK IAM signs for a region: set AWS_REGION (or kafka.sasl.region), e.g. 'us-east-1'" });
  } else if (mechanism !== undefined || username !== undefined || password !== undefined) {
    result.kafka!.sasl = {
      ...config.kafka?.sasl,
      ...(mechanism === undefined ? {} : { mechanism: mechanism.toLowerCase() as SaslConfig['mechanism'] }),
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
    } as SaslConfig;
  }
  applyTlsEnvironment(result.kafka!, environment);
  const ssl = value('KAFKA_SSL')?.toLowerCase();
  if (ssl !== undefined) {
    if (trueWords.has(ssl)) {
      // `true` turns TLS on; TLS settings from the config (a private CA, a client certificate) stay.
      if (typeof result.kafka!.ssl !== 'object') result.kafka!.ssl = true;
    } else if (falseWords.has(ssl)) result.kafka!.ssl = false;
    else problems.push({ path: 'env KAFKA_SSL', message: `expected true or false, got '${value('KAFKA_SSL')}'` });
  }
  // A section that is not an object (say `kafka: 'host:9092'`) stays as written for the schema to report.
  for (const section of ['kafka', 'topics', 'concurrency'] as const) {
    if (config[section] !== undefined && objectOrNothing(config[section]) === undefined) (result as Record<string, unknown>)[section] = config[section];
  }
  return result;
}

function objectOrNothing<T>(value: T): T | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

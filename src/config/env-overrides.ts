// Deployment-time overrides: the same image runs in every environment, and the environment
// decides brokers, group and topic names. Applied before validation, so a bad value in the
// environment is reported against the variable that carried it.
import type { ConfigProblem } from './config-error.ts';
import type { ScorestreamConfigInput } from './config-types.ts';

export type Environment = Record<string, string | undefined>;

const topicVariables = {
  SCORESTREAM_TOPIC_RUNS: 'runs',
  SCORESTREAM_TOPIC_RESULTS: 'results',
  SCORESTREAM_TOPIC_DEAD_LETTER: 'deadLetter',
  SCORESTREAM_TOPIC_DECISIONS: 'decisions',
} as const;

const numberVariables = {
  SCORESTREAM_RUNS_IN_FLIGHT: 'runsInFlight',
  SCORESTREAM_JUDGE_CONCURRENCY: 'judgeCallsPerModel',
} as const;

/** Returns a copy of `config` with the environment's values laid over it. */
export function applyEnvironmentOverrides<Event>(
  config: ScorestreamConfigInput<Event>,
  environment: Environment,
  problems: ConfigProblem[],
): ScorestreamConfigInput<Event> {
  const result: ScorestreamConfigInput<Event> = {
    ...config,
    kafka: { ...config.kafka },
    topics: { ...config.topics },
    concurrency: { ...config.concurrency },
  };
  const value = (name: string) => {
    const raw = environment[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };

  const brokers = value('KAFKA_BROKERS');
  if (brokers !== undefined) result.kafka!.brokers = brokers.split(',').map((broker) => broker.trim()).filter(Boolean);
  const clientId = value('SCORESTREAM_CLIENT_ID');
  if (clientId !== undefined) result.kafka!.clientId = clientId;
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

  const mechanism = value('KAFKA_SASL_MECHANISM');
  if (mechanism !== undefined) {
    result.kafka!.sasl = {
      mechanism: mechanism.toLowerCase() as 'plain',
      username: value('KAFKA_SASL_USERNAME') ?? '',
      password: environment.KAFKA_SASL_PASSWORD ?? '',
    };
  }
  const ssl = value('KAFKA_SSL');
  if (ssl !== undefined) result.kafka!.ssl = ssl === 'true' || ssl === '1';
  return result;
}

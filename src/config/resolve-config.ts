// Turns what a user wrote (plus the environment) into the one validated, defaulted config the
// service runs on. Every problem is collected and reported together, each naming its field,
// before anything touches Kafka.
import type { z } from 'zod';
import { compilePredicate, validatePredicate } from '../eligibility/index.ts';
import type { Predicate, PredicateContext } from '../eligibility/index.ts';
import { ConfigError } from './config-error.ts';
import type { ConfigProblem } from './config-error.ts';
import { configSchema } from './config-schema.ts';
import type { DeliveryMode, ModelResolver, SamplingOption, ScorerLike, ScorestreamConfigInput, SaslConfig, TlsConfig } from './config-types.ts';
import { DEFAULT_TOPICS, DEFAULTS } from './defaults.ts';
import { applyEnvironmentOverrides } from './env-overrides.ts';
import type { Environment } from './env-overrides.ts';

export type ResolvedBinding<Event = unknown> = {
  scorer: ScorerLike;
  scorerId: string;
  version?: string;
  sampling?: SamplingOption;
  filter?: Predicate;
  matchesFilter?: (context: PredicateContext) => boolean;
  when?: (event: Event) => boolean | Promise<boolean>;
  timeoutMs: number;
};

export type ResolvedConfig<Event = unknown> = {
  kafka: { brokers: string[]; clientId: string; ssl?: TlsConfig; sasl?: SaslConfig };
  groupId: string;
  topics: { runs: string; results: string; deadLetter: string; decisions?: string };
  scorers: ResolvedBinding<Event>[];
  concurrency: { runsInFlight: number; judgeCallsPerModel: number };
  judge?: { model?: unknown; models?: ModelResolver };
  shutdownTimeoutMs: number;
  maxMessageBytes: number;
  delivery: DeliveryMode;
};

function pathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`), '');
}

/**
 * One problem per issue, except that a field of the wrong type gets only that problem: zod still
 * runs some checks (e.g. an array's `min`) on a value of the wrong type, which would only repeat it.
 */
function schemaProblems(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  const wrongType = new Set(issues.filter((issue) => issue.code === 'invalid_type').map((issue) => pathOf(issue.path)));
  return issues
    .filter((issue) => issue.code === 'invalid_type' || !wrongType.has(pathOf(issue.path)))
    .map((issue) => ({ path: pathOf(issue.path), message: issue.message }));
}

/**
 * `defaults` under the object's defined fields: `{ clientId: process.env.X }` with X unset means
 * "left out". A value that is not an object is passed through for the schema to report.
 */
function withDefaultFields(defaults: Record<string, unknown>, value: unknown): unknown {
  if (value === undefined) return defaults;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return { ...defaults, ...Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) };
}

function withDefaults<Event>(input: ScorestreamConfigInput<Event>): Record<string, unknown> {
  return {
    ...input,
    kafka: withDefaultFields({ brokers: [], clientId: DEFAULTS.clientId }, input.kafka),
    groupId: input.groupId ?? DEFAULTS.groupId,
    topics: withDefaultFields(DEFAULT_TOPICS, input.topics),
    concurrency: withDefaultFields({ runsInFlight: DEFAULTS.runsInFlight, judgeCallsPerModel: DEFAULTS.judgeCallsPerModel }, input.concurrency),
    shutdownTimeoutMs: input.shutdownTimeoutMs ?? DEFAULTS.shutdownTimeoutMs,
    maxMessageBytes: input.maxMessageBytes ?? DEFAULTS.maxMessageBytes,
    delivery: input.delivery ?? DEFAULTS.delivery,
  };
}

/**
 * Validates a config and fills in defaults. Throws a ConfigError listing every problem.
 * `source` (e.g. the config file's path) only makes the message more helpful.
 */
export function resolveConfig<Event>(input: ScorestreamConfigInput<Event>, options: { environment?: Environment; source?: string } = {}): ResolvedConfig<Event> {
  const problems: ConfigProblem[] = [];
  if (typeof input !== 'object' || input === null) throw new ConfigError([{ path: '', message: 'expected a config object (export default defineConfig({...}))' }], options.source);
  const overridden = applyEnvironmentOverrides(input, options.environment ?? {}, problems);
  const parsed = configSchema.safeParse(withDefaults(overridden));
  if (!parsed.success) problems.push(...schemaProblems(parsed.error.issues));

  const scorers: ResolvedBinding<Event>[] = [];
  const seen = new Map<string, number>();
  // Not an array (e.g. Mastra's keyed bindings object) is reported by the schema.
  (Array.isArray(overridden.scorers) ? overridden.scorers : []).forEach((binding, index) => {
    // The filter is checked even when the scorer is wrong, so one run reports both.
    let matchesFilter: ((context: PredicateContext) => boolean) | undefined;
    if (binding?.filter !== undefined) {
      try {
        validatePredicate(binding.filter);
        matchesFilter = compilePredicate(binding.filter as Predicate);
      } catch (error) {
        problems.push({ path: `scorers[${index}].filter`, message: error instanceof Error ? error.message : String(error) });
      }
    }
    const scorerId = typeof binding?.scorer?.id === 'string' ? binding.scorer.id : undefined;
    if (scorerId === undefined) return; // reported by the schema
    const identity = `${scorerId}@${binding.version ?? ''}`;
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      problems.push({ path: `scorers[${index}]`, message: `scorer '${scorerId}'${binding.version ? ` version '${binding.version}'` : ''} is already bound at scorers[${earlier}]; give one of them a different version` });
    }
    seen.set(identity, index);
    scorers.push({
      scorer: binding.scorer,
      scorerId,
      ...(binding.version === undefined ? {} : { version: binding.version }),
      ...(binding.sampling === undefined ? {} : { sampling: binding.sampling }),
      ...(binding.filter === undefined ? {} : { filter: binding.filter as Predicate }),
      ...(matchesFilter === undefined ? {} : { matchesFilter }),
      ...(binding.when === undefined ? {} : { when: binding.when }),
      timeoutMs: binding.timeoutMs ?? DEFAULTS.scorerTimeoutMs,
    });
  });

  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems, options.source);
  const data = parsed.data;
  return {
    kafka: data.kafka,
    groupId: data.groupId,
    topics: data.topics,
    scorers,
    concurrency: data.concurrency,
    ...(data.judge === undefined ? {} : { judge: data.judge as ResolvedConfig['judge'] }),
    shutdownTimeoutMs: data.shutdownTimeoutMs,
    maxMessageBytes: data.maxMessageBytes,
    delivery: data.delivery,
  };
}

// Turns what a user wrote (plus the environment) into the one validated, defaulted config the
// service runs on. Every problem is collected and reported together, each naming its field,
// before anything touches Kafka.
import type { z } from 'zod';
import { compilePredicate, validatePredicate } from '../eligibility/index.ts';
import type { Predicate, PredicateContext } from '../eligibility/index.ts';
import { ConfigError } from './config-error.ts';
import type { ConfigProblem } from './config-error.ts';
import { configSchema } from './config-schema.ts';
import type { ModelResolver, SamplingOption, ScorerLike, ScorestreamConfigInput, SaslConfig, TlsConfig } from './config-types.ts';
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
};

function pathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`), '');
}

function withDefaults<Event>(input: ScorestreamConfigInput<Event>): Record<string, unknown> {
  return {
    ...input,
    kafka: { brokers: [], clientId: DEFAULTS.clientId, ...input.kafka },
    groupId: input.groupId ?? DEFAULTS.groupId,
    topics: { ...DEFAULT_TOPICS, ...input.topics },
    concurrency: { runsInFlight: DEFAULTS.runsInFlight, judgeCallsPerModel: DEFAULTS.judgeCallsPerModel, ...input.concurrency },
    shutdownTimeoutMs: input.shutdownTimeoutMs ?? DEFAULTS.shutdownTimeoutMs,
    maxMessageBytes: input.maxMessageBytes ?? DEFAULTS.maxMessageBytes,
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
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue: z.core.$ZodIssue) => ({ path: pathOf(issue.path), message: issue.message })));

  const scorers: ResolvedBinding<Event>[] = [];
  const seen = new Map<string, number>();
  (overridden.scorers ?? []).forEach((binding, index) => {
    const scorerId = typeof binding?.scorer?.id === 'string' ? binding.scorer.id : undefined;
    if (scorerId === undefined) return; // reported by the schema
    const identity = `${scorerId}@${binding.version ?? ''}`;
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      problems.push({ path: `scorers[${index}]`, message: `scorer '${scorerId}'${binding.version ? ` version '${binding.version}'` : ''} is already bound at scorers[${earlier}]; give one of them a different version` });
    }
    seen.set(identity, index);
    let matchesFilter: ((context: PredicateContext) => boolean) | undefined;
    if (binding.filter !== undefined) {
      try {
        validatePredicate(binding.filter);
        matchesFilter = compilePredicate(binding.filter as Predicate);
      } catch (error) {
        problems.push({ path: `scorers[${index}].filter`, message: error instanceof Error ? error.message : String(error) });
      }
    }
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
  };
}

// Turns what a user wrote (plus the environment) into the one validated, defaulted config the
// service runs on. Every problem is collected and reported together, each naming its field,
// before anything touches Kafka.
import type { z } from 'zod';
import { formatPath } from '../../kit/contracts/problems.ts';
import { ConfigError } from './config-error.ts';
import type { ConfigProblem } from './config-error.ts';
import { configSchema } from './config-schema.ts';
import type { ResolvedBinding, ResolvedConfig, ResolvedThreadBinding, ScorestreamConfigInput } from './config-types.ts';
import { threadOptionsSchema } from '../threads/threads-schema.ts';
import { applyEnvironmentOverrides } from './env-overrides.ts';
import { escalationProblems } from '../escalation/escalation-order.ts';
import { monitorProblems } from '../monitors/monitor-problems.ts';
import type { Environment } from './env-overrides.ts';

// What resolveConfig returns; declared with the other config types.
export type { ResolvedBinding, ResolvedConfig, ResolvedThreadBinding } from './config-types.ts';

/**
 * One problem per issue, except that a field of the wrong type gets only that problem: zod still
 * runs some checks (e.g. an array's `min`) on a value of the wrong type, which would only repeat it.
 */
function schemaProblems(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  const wrongType = new Set(issues.filter((issue) => issue.code === 'invalid_type').map((issue) => formatPath(issue.path)));
  return issues
    .filter((issue) => issue.code === 'invalid_type' || !wrongType.has(formatPath(issue.path)))
    .map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/**
 * A scorer bound twice under the same version would give both bindings' records the same scoreIds.
 * Checked on the input rather than in the schema, so that it is reported even when another binding
 * is wrong (zod skips refinements once a field failed).
 */
function repeatedBindings(scorers: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const lastIndexByIdentity = new Map<string, number>();
  // Not an array (e.g. Mastra's keyed bindings object) is reported by the schema.
  (Array.isArray(scorers) ? scorers : []).forEach((binding: unknown, index) => {
    const { scorer, version, level } = (binding ?? {}) as { scorer?: { id?: unknown }; version?: unknown; level?: unknown };
    if (typeof scorer?.id !== 'string') return; // reported by the schema
    // A run score and a thread score never share an id (thread-ids.ts), so each level has its own.
    const identity = `${String(level ?? 'run')}|${scorer.id}@${String(version ?? '')}`;
    const earlier = lastIndexByIdentity.get(identity);
    if (earlier !== undefined) {
      const versionText = version ? ` version '${String(version)}'` : '';
      problems.push({ path: `scorers[${index}]`, message: `scorer '${scorer.id}'${versionText} is already bound at scorers[${earlier}]; give one of them a different version` });
    }
    lastIndexByIdentity.set(identity, index);
  });
  return problems;
}

/** Thread options on a binding that scores runs would never be used: a mistake, said so. */
function misplacedThreadOptions(scorers: unknown): ConfigProblem[] {
  return (Array.isArray(scorers) ? scorers : []).flatMap((binding: unknown, index) => {
    const { level, thread } = (binding ?? {}) as { level?: unknown; thread?: unknown };
    return thread !== undefined && level !== 'thread' ? [{ path: `scorers[${index}].thread`, message: "thread options only apply to a binding with level: 'thread'; add it, or remove the thread options" }] : [];
  });
}

/**
 * A re-score reads its run event back from the runs topic by offset (docs/feedback.md, re-scoring):
 * an OTLP message is a batch of spans, not a run, so with OTLP input there is nothing to read back.
 */
function rescoreProblems(config: Pick<z.output<typeof configSchema>, 'input' | 'scorers'>): ConfigProblem[] {
  if (config.input.format !== 'otlp') return [];
  return config.scorers.flatMap((binding, index) =>
    binding.rescoreOn === undefined ? [] : [{ path: `scorers[${index}].rescoreOn`, message: "re-scoring on feedback reads the run event back from the runs topic, which OTLP input (input.format: 'otlp') does not hold; remove rescoreOn or use run-event input" }],
  );
}

/** A binding in batch mode needs the deployment's batch API, and the batch tier's pairs come back through the retry topics' consumer. */
function batchProblems(config: Pick<z.output<typeof configSchema>, 'judge' | 'scorers'>): ConfigProblem[] {
  if (config.judge?.batch !== undefined) return [];
  return config.scorers.flatMap((binding, index) =>
    binding.judge?.mode !== 'batch' ? [] : [{ path: `scorers[${index}].judge.mode`, message: "judge mode 'batch' needs the config's judge.batch (api, baseURL, models: (fetch) => registry); add it, or use mode 'live'" }],
  );
}

/** Splits the bindings by level and checks each thread binding against the state's TTL. */
function splitByLevel<Event>(config: z.output<typeof configSchema>, problems: ConfigProblem[]): ResolvedConfig<Event> {
  const { scorers, ...rest } = config;
  const runScorers: ResolvedBinding<Event>[] = [];
  const threadScorers: ResolvedThreadBinding<Event>[] = [];
  scorers.forEach((binding, index) => {
    if (binding.level !== 'thread') {
      runScorers.push(binding as ResolvedBinding<Event>);
      return;
    }
    const { level: _level, thread, ...common } = binding as ResolvedBinding<Event>;
    const options = thread ?? threadOptionsSchema.parse({});
    // A thread must close before its state expires, or its last turns would never be scored.
    if (options.idleMs + options.minRescoreIntervalMs >= rest.threads.stateTtlMs) {
      problems.push({ path: `scorers[${index}].thread.idleMs`, message: `idleMs (${options.idleMs}) plus minRescoreIntervalMs (${options.minRescoreIntervalMs}) must be below threads.stateTtlMs (${rest.threads.stateTtlMs}), or threads would expire before they close` });
    }
    threadScorers.push({ ...common, level: 'thread', thread: options });
  });
  return { ...rest, scorers: runScorers, threadScorers };
}

/**
 * Validates a config and fills in defaults. Throws a ConfigError listing every problem.
 * `source` (e.g. the config file's path) only makes the message more helpful.
 */
export function resolveConfig<Event>(input: ScorestreamConfigInput<Event>, options: { environment?: Environment; source?: string } = {}): ResolvedConfig<Event> {
  if (typeof input !== 'object' || input === null) throw new ConfigError([{ path: '', message: 'expected a config object (export default defineConfig({...}))' }], options.source);
  const problems: ConfigProblem[] = [];
  const overridden = applyEnvironmentOverrides(input, options.environment ?? {}, problems);
  const parsed = configSchema.safeParse(overridden);
  if (!parsed.success) problems.push(...schemaProblems(parsed.error.issues));
  problems.push(...repeatedBindings(overridden.scorers), ...misplacedThreadOptions(overridden.scorers));
  if (parsed.success) problems.push(...monitorProblems(parsed.data.monitors, parsed.data.scorers), ...rescoreProblems(parsed.data), ...batchProblems(parsed.data), ...escalationProblems(parsed.data.scorers));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems, options.source);
  const resolved = splitByLevel<Event>(parsed.data, problems);
  if (problems.length > 0) throw new ConfigError(problems, options.source);
  return resolved;
}

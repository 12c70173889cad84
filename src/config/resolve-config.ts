// Turns what a user wrote (plus the environment) into the one validated, defaulted config the
// service runs on. Every problem is collected and reported together, each naming its field,
// before anything touches Kafka.
import type { z } from 'zod';
import { formatPath } from '../contracts/problems.ts';
import { ConfigError } from './config-error.ts';
import type { ConfigProblem } from './config-error.ts';
import { configSchema } from './config-schema.ts';
import type { ResolvedConfig, ScorestreamConfigInput } from './config-types.ts';
import { applyEnvironmentOverrides } from './env-overrides.ts';
import { monitorProblems } from '../monitors/monitor-problems.ts';
import type { Environment } from './env-overrides.ts';

// What resolveConfig returns; declared with the other config types.
export type { ResolvedBinding, ResolvedConfig } from './config-types.ts';

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
    const { scorer, version } = (binding ?? {}) as { scorer?: { id?: unknown }; version?: unknown };
    if (typeof scorer?.id !== 'string') return; // reported by the schema
    const identity = `${scorer.id}@${String(version ?? '')}`;
    const earlier = lastIndexByIdentity.get(identity);
    if (earlier !== undefined) {
      const versionText = version ? ` version '${String(version)}'` : '';
      problems.push({ path: `scorers[${index}]`, message: `scorer '${scorer.id}'${versionText} is already bound at scorers[${earlier}]; give one of them a different version` });
    }
    lastIndexByIdentity.set(identity, index);
  });
  return problems;
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
  problems.push(...repeatedBindings(overridden.scorers));
  if (parsed.success) problems.push(...monitorProblems(parsed.data.monitors, parsed.data.scorers));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems, options.source);
  return parsed.data;
}

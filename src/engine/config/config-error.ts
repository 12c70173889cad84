// Raised when a deployment config is wrong. Lists every problem with the field it is about,
// so one run of `scorestream start` shows everything to fix.
import { hasErrorMarker, ScorestreamError } from '../../kit/errors.ts';

export type ConfigProblem = { path: string; message: string };

const marker = Symbol.for('scorestream.error.ConfigError');

export class ConfigError extends ScorestreamError {
  readonly [marker] = true;
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[], source?: string) {
    const where = source === undefined ? 'the Scorestream config' : `the Scorestream config (${source})`;
    const lines = problems.map((problem) => `  - ${problem.path || '(root)'}: ${problem.message}`);
    super(`${problems.length} problem(s) in ${where}:\n${lines.join('\n')}\nFix these fields (or the environment variables that override them) and start again.`, {
      code: 'invalid_config',
    });
    this.name = 'ConfigError';
    this.problems = problems;
  }

  /** True for a ConfigError from any copy of this library. */
  static override isInstance(value: unknown): value is ConfigError {
    return hasErrorMarker(value, marker);
  }
}

// The options of `filterRun` and their validation. Validation happens once, when `filterRun` is
// called (usually at scorer definition), so a typo or a bad limit fails at start-up with the
// option's name instead of silently scoring the wrong messages.

export type FilterRunOptions = {
  /** Keep messages with a part whose `type` starts with one of these ('text', 'tool-invocation', 'data-', ...). */
  partTypes?: readonly string[];
  /** Keep tool messages with a tool-invocation whose `toolName` starts with one of these. */
  toolNames?: readonly string[];
  /** Keep the last N of `input.rememberedMessages` (after filtering); 0 means no limit. */
  maxRememberedMessages?: number;
  /** Keep the last N of `output` (after filtering); 0 means no limit. */
  maxOutputMessages?: number;
  /** Set `requestContext` to undefined (the key stays). */
  dropRequestContext?: boolean;
  /** Set `expectedTrajectory` to undefined (the key stays). */
  dropExpectedTrajectory?: boolean;
  /** Set `groundTruth` to undefined (the key stays). */
  dropGroundTruth?: boolean;
};

const patternOptions = ['partTypes', 'toolNames'] as const;
const limitOptions = ['maxRememberedMessages', 'maxOutputMessages'] as const;
const dropOptions = ['dropRequestContext', 'dropExpectedTrajectory', 'dropGroundTruth'] as const;
const knownOptions: ReadonlySet<string> = new Set([...patternOptions, ...limitOptions, ...dropOptions]);

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Throws a TypeError naming the first bad option; returns the options typed. */
export function validateFilterRunOptions(options: unknown): FilterRunOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`filterRun: options must be an object, got ${describeValue(options)}.`);
  }
  const record = options as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !knownOptions.has(key));
  if (unknown.length > 0) {
    throw new TypeError(
      `filterRun: unknown option(s) ${unknown.map((key) => `'${key}'`).join(', ')}; known options are ${[...knownOptions].join(', ')}.`,
    );
  }
  for (const name of patternOptions) {
    const value = record[name];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      throw new TypeError(`filterRun: ${name} must be an array of prefix strings, got ${describeValue(value)}.`);
    }
    value.forEach((pattern: unknown, index) => {
      if (typeof pattern !== 'string') {
        throw new TypeError(`filterRun: ${name}[${index}] must be a string, got ${describeValue(pattern)}.`);
      }
    });
  }
  for (const name of limitOptions) {
    const value = record[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new TypeError(
        `filterRun: ${name} must be a non-negative integer (0 means no limit), got ${describeValue(value)}.`,
      );
    }
  }
  for (const name of dropOptions) {
    const value = record[name];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`filterRun: ${name} must be a boolean, got ${describeValue(value)}.`);
    }
  }
  return record as FilterRunOptions;
}

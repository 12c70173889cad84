// How every command reads its arguments: a usage error prints the problem and the usage on
// stderr (exit 2); --help prints the usage on stdout (exit 0); otherwise the parsed values.
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

export type CommandArgs<T extends ParseArgsConfig> = { values: ReturnType<typeof parseArgs<T>>['values'] } | { exitCode: number };

export function parseCommandArgs<T extends ParseArgsConfig>(config: T, usage: string): CommandArgs<T> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return { exitCode: 2 };
  }
  if ((parsed.values as { help?: unknown }).help === true) {
    console.log(usage);
    return { exitCode: 0 };
  }
  return { values: parsed.values };
}

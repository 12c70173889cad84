// The process's redactor for log lines and spans (docs/data-handling.md). The logger and the
// OpenTelemetry SDK start before the config is loaded, so they get a function that reads the
// current redactor: the built-in patterns until the config is known, the config's own after.
import { createRedactor } from '../src/engine/data-handling/create-redactor.ts';
import type { Redactor } from '../src/engine/data-handling/create-redactor.ts';
import { dataHandlingOf } from '../src/engine/data-handling/data-handling.ts';
import type { DataHandlingConfig } from '../src/engine/data-handling/data-handling.ts';

export type ProcessRedaction = {
  /** Hand this to createLogger and startTelemetry. */
  readonly redact: Redactor;
  /** From now on, redact with the config's redactor. */
  use(config: DataHandlingConfig): void;
};

export function processRedaction(): ProcessRedaction {
  let current = createRedactor({ builtins: true, patterns: [] });
  return {
    redact: (text) => current(text),
    use(config) {
      current = dataHandlingOf(config).text;
    },
  };
}

// `defineConfig` is what a config file default-exports. It only gives the object its type;
// validation happens once, at start-up (resolveConfig), where the environment is known too.
import type { ScorestreamConfigInput } from './config-types.ts';

export function defineConfig<Event = unknown>(config: ScorestreamConfigInput<Event>): ScorestreamConfigInput<Event> {
  return config;
}

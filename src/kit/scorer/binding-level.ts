// What a scorer scores once bound (docs/threads.md): each run, or whole conversations. The config's
// `scorers[].level` (src/engine/threads/threads-schema.ts) and the built-in registry read it.

/** `run` (default): the scorer scores each run. `thread`: it scores whole conversations. */
export const BINDING_LEVELS = ['run', 'thread'] as const;
export type BindingLevel = (typeof BINDING_LEVELS)[number];

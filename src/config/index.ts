// Barrel of src/config: describing and validating a deployment.
export { defineConfig } from './define-config.ts';
export { resolveConfig } from './resolve-config.ts';
export { ConfigError } from './config-error.ts';
export type { ConfigProblem } from './config-error.ts';
export { DEFAULT_TOPICS, DEFAULTS } from './defaults.ts';
export type { Environment } from './env-overrides.ts';
export type {
  DeliveryMode,
  ResolvedBinding,
  ResolvedConfig,
  SamplingOption,
  SaslConfig,
  ScorerBindingInput,
  ScorerLike,
  ScorestreamConfigInput,
  TlsConfig,
} from './config-types.ts';

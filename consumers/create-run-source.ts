// The runs topic's source for a validated config: run events, or OTLP spans assembled into runs
// (config `input`). The OTLP source is imported only when configured: its protobuf definitions
// take most of a second to load, which the run-event path should not pay.
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { OtlpSource } from './otlp-source.ts';
import { runEventSource } from './run-event-source.ts';
import type { RunSource } from './run-source.ts';

export async function createRunSource(config: Pick<ResolvedConfig, 'input'>): Promise<RunSource | OtlpSource> {
  if (config.input.format !== 'otlp') return runEventSource;
  const { createOtlpSource } = await import('./otlp-source.ts');
  return createOtlpSource({ config: config.input });
}

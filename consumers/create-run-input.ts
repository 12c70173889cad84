// The input of a validated config: run events, or OTLP spans assembled into runs (config `input`).
// The OTLP input is imported only when configured: its protobuf definitions take most of a second
// to load, which the run-event path should not pay.
import type { ResolvedConfig } from '../src/config/resolve-config.ts';
import type { OtlpInput } from './otlp-input.ts';
import { runEventInput } from './run-input.ts';
import type { RunInput } from './run-input.ts';

export async function createRunInput(config: Pick<ResolvedConfig, 'input'>): Promise<RunInput | OtlpInput> {
  if (config.input.format !== 'otlp') return runEventInput;
  const { createOtlpInput } = await import('./otlp-input.ts');
  return createOtlpInput({ config: config.input });
}

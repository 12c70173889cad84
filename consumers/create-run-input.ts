// The input of a validated config: run events, or OTLP spans assembled into runs (config `input`).
import type { ResolvedConfig } from '../src/config/resolve-config.ts';
import { createOtlpInput } from './otlp-input.ts';
import type { OtlpInput } from './otlp-input.ts';
import { runEventInput } from './run-input.ts';
import type { RunInput } from './run-input.ts';

export function createRunInput(config: Pick<ResolvedConfig, 'input'>): RunInput | OtlpInput {
  return config.input.format === 'otlp' ? createOtlpInput({ config: config.input }) : runEventInput;
}

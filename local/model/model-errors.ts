// Error codes of the local model tooling. Each message names what is missing or broken and
// what to do about it.
import { ScorestreamError } from '../../src/kit/errors.ts';

export const localModelErrorCodes = ['MODEL_UNKNOWN', 'MODEL_PREREQUISITE_MISSING', 'MODEL_FETCH_FAILED', 'MODEL_RUNTIME_INSTALL_FAILED', 'MODEL_LOAD_FAILED'] as const;

export type LocalModelErrorCode = (typeof localModelErrorCodes)[number];

export function localModelError(code: LocalModelErrorCode, message: string, cause?: unknown): ScorestreamError {
  return new ScorestreamError(message, cause === undefined ? { code } : { code, cause });
}

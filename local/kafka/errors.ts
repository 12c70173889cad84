// Error codes of the local broker tooling. All errors are ScorestreamErrors; none can be
// retried blindly: each one names what is missing or broken and what to do about it.
import { ScorestreamError } from '../../src/kit/errors.ts';

export const localBrokerErrorCodes = [
  'KAFKA_PREREQUISITE_MISSING',
  'KAFKA_JARS_FETCH_FAILED',
  'KAFKA_BROKER_START_FAILED',
  'KAFKA_BROKER_BUSY',
  'KAFKA_INVALID_BROKER_NAME',
] as const;

export type LocalBrokerErrorCode = (typeof localBrokerErrorCodes)[number];

export function localBrokerError(code: LocalBrokerErrorCode, message: string, cause?: unknown): ScorestreamError {
  return new ScorestreamError(message, cause === undefined ? { code } : { code, cause });
}

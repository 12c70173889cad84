// Errors the judge raises itself, and how judge failures are classified: format errors get one
// more attempt (see callJudge), transient provider errors are what the SDK retries and what makes a
// failed run worth retrying later.
import { APICallError, JSONParseError, NoObjectGeneratedError, RetryError, TypeValidationError } from 'ai';
import { hasErrorMarker, ScorestreamError } from '../errors.ts';

const timeoutMarker = Symbol.for('scorestream.error.JudgeTimeoutError');

/**
 * A model request that did not answer in time. An APICallError, retryable like a 5xx, so the
 * SDK's retry loop picks it up; its own marker tells it from other provider errors.
 */
export class JudgeTimeoutError extends APICallError {
  readonly [timeoutMarker] = true;
  readonly timeoutMs: number;

  /** `setting`: the option that set the timeout, named in the message (default modelSettings.timeout). */
  constructor(options: { modelId: string; timeoutMs: number; setting?: string }) {
    super({
      message:
        `Judge model '${options.modelId}' did not answer within ${options.timeoutMs} ms. ` +
        `Raise ${options.setting ?? 'modelSettings.timeout on the judge'} if the model is just slow.`,
      url: '',
      requestBodyValues: undefined,
      isRetryable: true,
    });
    // Not 'TimeoutError': the SDK treats that name as an abort and would not retry.
    this.name = 'JudgeTimeoutError';
    this.timeoutMs = options.timeoutMs;
  }

  /** True for a JudgeTimeoutError from any copy of this library (APICallError.isInstance is true for it too). */
  static override isInstance(value: unknown): value is JudgeTimeoutError {
    return hasErrorMarker(value, timeoutMarker);
  }
}

export function judgeNotConfiguredError(message: string, cause?: unknown): ScorestreamError {
  return new ScorestreamError(message, { code: 'JUDGE_MODEL_NOT_CONFIGURED', canRetry: false, cause });
}

const outputMissingName = 'AI_NoOutputGeneratedError';

/** The judge answered, but not in the requested shape: unparseable, schema-violating, or empty/truncated. */
export function isFormatError(error: unknown): boolean {
  return (
    NoObjectGeneratedError.isInstance(error) ||
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    (error instanceof Error && error.name === outputMissingName)
  );
}

/** Worth trying again later: a retryable provider error (also when the SDK gave up retrying it) or a timeout. */
export function isTransientJudgeError(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.isRetryable;
  if (RetryError.isInstance(error)) return error.reason === 'maxRetriesExceeded' && isTransientJudgeError(error.lastError);
  return false;
}

/** What evidence may say about an error: name, message and a string code (`id` or `code`); never its other fields. */
export function describeError(error: unknown): { name: string; message: string; code?: string } {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { id, code } = error as { id?: unknown; code?: unknown };
  const stableCode = typeof id === 'string' ? id : typeof code === 'string' ? code : undefined;
  return stableCode === undefined
    ? { name: error.name, message: error.message }
    : { name: error.name, message: error.message, code: stableCode };
}

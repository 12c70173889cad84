// Which publish errors are the record's own fault. The broker refuses some records for what they
// are — too large for the topic's `max.message.bytes`, failing its validation, a timestamp out of
// range — and answers the same however often they are sent, so retrying them for ever stalls the
// partition that produced them (and, batched, every record they shared a request with). Those are
// refusals: kafkajs marks the protocol error not retriable, and its type is one of
// RECORD_REFUSALS. Everything else — connection loss, a leader moving, a broker restarting, and
// also a missing ACL or a fenced producer, which someone has to fix but which the record cannot —
// is retried as before (docs/delivery.md, publishing). kafkajs wraps the broker's error
// (KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded), so the causes are searched; errors
// are recognised by `name` and `type`, never by class (kafkajs may be installed twice).
// @platformatic/kafka (`kafka.client: 'platformatic'`) says the same with a protocol error whose
// `apiId` is the code and `canRetry` false, gathered in the `errors` (or `aggregateErrors`) of the AggregateError it throws.

/** The broker's error codes that refuse a record for its own content (Kafka's protocol error table). */
export const RECORD_REFUSALS = ['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'INVALID_TIMESTAMP'] as const;
export type RecordRefusalType = (typeof RECORD_REFUSALS)[number];

/** A refusal: the broker's code, and its message (which quotes nothing of the record). */
export type PublishRefusal = { readonly type: RecordRefusalType; readonly message: string };

const refusals: ReadonlySet<string> = new Set(RECORD_REFUSALS);

type Candidate = { name?: unknown; type?: unknown; retriable?: unknown; apiId?: unknown; canRetry?: unknown; message?: unknown; cause?: unknown; originalError?: unknown; aggregateErrors?: unknown; errors?: unknown };

/** The refusal behind a publish error, or undefined when the error is transient (or not the record's fault). */
export function publishRefusalOf(error: unknown): PublishRefusal | undefined {
  const pending: Array<{ error: unknown; depth: number }> = [{ error, depth: 0 }];
  while (pending.length > 0) {
    const { error: current, depth } = pending.shift()!;
    if (depth >= 6 || typeof current !== 'object' || current === null) continue;
    const candidate = current as Candidate;
    if (candidate.name === 'KafkaJSProtocolError' && candidate.retriable === false && typeof candidate.type === 'string' && refusals.has(candidate.type)) {
      return { type: candidate.type as RecordRefusalType, message: typeof candidate.message === 'string' ? candidate.message : candidate.type };
    }
    if (candidate.canRetry === false && typeof candidate.apiId === 'string' && refusals.has(candidate.apiId)) {
      return { type: candidate.apiId as RecordRefusalType, message: typeof candidate.message === 'string' ? candidate.message : candidate.apiId };
    }
    for (const next of [candidate.cause, candidate.originalError, ...(Array.isArray(candidate.aggregateErrors) ? candidate.aggregateErrors : []), ...(Array.isArray(candidate.errors) ? candidate.errors : [])]) pending.push({ error: next, depth: depth + 1 });
  }
  return undefined;
}

// One consumed message, start to finish: decode and validate it, dead-letter it if it is bad,
// otherwise score it with every eligible scorer and publish the records. Resolves only when
// everything this message produced was accepted by its output — at-least-once, acknowledged by
// Kafka; exactly-once, held for the partition's next transaction — which is what lets its offset
// be committed. A publish that fails is retried (with backoff) until it succeeds or the service
// stops hard: giving up would lose scores, and committing without them would lose them for good.
//
// Loop guard: our own records (header `scorestream-origin`) and run events that describe
// Scorestream's own work (`metadata.source === 'scorestream'`, or the tag `scorestream:judge`,
// e.g. judge spans turned back into run events by a trace pipeline) are skipped and counted.
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import type { IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import { buildDeadLetter } from '../src/contracts/build-dead-letter.ts';
import type { Source } from '../src/contracts/common.ts';
import type { ScoreRecord } from '../src/contracts/score-record.ts';
import { decodeAgentRunEvent } from '../src/contracts/parse.ts';
import type { ResolvedConfig } from '../src/config/resolve-config.ts';
import { collectRunFacts } from '../src/pipeline/run-facts.ts';
import { scoreRunEvent } from '../src/pipeline/score-run-event.ts';
import { extractHeaderTraceContext, withBodyTraceContext } from '../otel/run-trace-context.ts';
import type { RunTraceContext } from '../otel/run-trace-context.ts';
import type { OutgoingRecord, RecordPublisher } from '../producers/record-publisher.ts';
import type { ServiceStats } from './service-stats.ts';

/** Set on every record we publish, so our own output is never taken for agent traffic. */
export const ORIGIN_HEADER = 'scorestream-origin';

export type MessageContext = {
  config: ResolvedConfig;
  /** Where this message's records go: published at once (at-least-once) or held for a transaction (exactly-once). */
  publisher: Pick<RecordPublisher, 'publish'>;
  stats: ServiceStats;
  logger: Logger;
  tracer?: Tracer;
  now: () => number;
  /** Aborted on a hard stop: in-flight scorers stop and publishing gives up. */
  hardStop: AbortSignal;
  runOptions?: Record<string, unknown>;
  /** Retry pacing for publishing (tests shorten it). */
  publishRetryDelayMs?: number;
  /** Called per acknowledged record with the event-to-result latency (metrics). */
  recordLatency?: (latencyMs: number, record: ScoreRecord) => void;
};

function hasOriginHeader(headers: IHeaders | undefined): boolean {
  return headers !== undefined && headers[ORIGIN_HEADER] !== undefined;
}

/** Tag that marks a run event as Scorestream's own work (with or instead of `metadata.source`). */
export const SCORESTREAM_RUN_TAG = 'scorestream:judge';

/** A run event that describes Scorestream's own work, e.g. a judge call turned into a run event. */
export function isScorestreamRun(metadata: { source?: unknown; tags?: readonly string[] } | undefined): boolean {
  if (metadata === undefined) return false;
  return metadata.source === 'scorestream' || (Array.isArray(metadata.tags) && metadata.tags.includes(SCORESTREAM_RUN_TAG));
}

async function publishUntilAcknowledged(records: OutgoingRecord[], context: MessageContext, source: Source): Promise<void> {
  let delay = context.publishRetryDelayMs ?? 200;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await context.publisher.publish(records);
      return;
    } catch (error) {
      if (context.hardStop.aborted) throw error;
      context.stats.publishRetries += 1;
      context.logger.warn({ err: error, attempt, source }, 'publishing records failed; retrying (the offset is not committed until they are acknowledged)');
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  }
}

// Shared by every record: kafkajs only reads headers while encoding.
const originHeaders: IHeaders = Object.freeze({ [ORIGIN_HEADER]: 'scorestream' });

/**
 * JSON of a record. Step results are the scorer's own values and may not serialise (a BigInt, a
 * cycle): then the record goes out as failed, saying why, rather than blocking the partition.
 */
export function serializeRecord(record: ScoreRecord): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    const { score: _score, reason: _reason, notScorable: _notScorable, steps: _steps, judge: _judge, ...rest } = record as ScoreRecord & Record<string, unknown>;
    const failed: ScoreRecord = {
      ...(rest as unknown as Omit<ScoreRecord, 'status'>),
      status: 'failed',
      steps: {},
      error: {
        name: 'UnserializableResultError',
        message: `the scorer's result cannot be written as JSON (${error instanceof Error ? error.message : String(error)}); return plain JSON values from steps`,
        code: 'unserializable_result',
        failedStep: 'generateReason',
        completedSteps: [],
        retryable: false,
      },
    } as ScoreRecord;
    return JSON.stringify(failed);
  }
}

/**
 * `processSpan` is the consumer's span for this message: it gets the run's facts as attributes, a
 * link to the run's context when that came from the body, and every score span links to it.
 * Without it, the active span (if recording) plays that part. `fromHeaders` is the trace context
 * the consumer already read from the headers for that span (read here when not given).
 */
export async function processRunMessage(
  message: KafkaMessage,
  source: Source,
  context: MessageContext,
  processSpan?: Span,
  fromHeaders?: RunTraceContext,
): Promise<void> {
  const { config, stats } = context;
  const candidate = processSpan ?? trace.getActiveSpan();
  const span = candidate?.isRecording() === true ? candidate : undefined;
  stats.consumed += 1;
  if (hasOriginHeader(message.headers)) {
    stats.countSkip('own_output');
    span?.setAttribute('scorestream.skip.reason', 'own_output');
    return;
  }
  const decoded = decodeAgentRunEvent(message.value, { maxBytes: config.maxMessageBytes });
  if (!decoded.success) {
    const deadLetter = buildDeadLetter({
      message: { key: message.key, value: message.value, headers: message.headers as never },
      source: { ...source, timestamp: new Date(Number(message.timestamp)).toISOString() },
      error: { code: decoded.code, message: decoded.message, ...(decoded.problems.length === 0 ? {} : { problems: decoded.problems }) },
      now: new Date(context.now()),
    });
    context.logger.warn({ source, code: decoded.code }, `dead-lettered: ${decoded.message.split('\n')[0]}`);
    await publishUntilAcknowledged([{ topic: config.topics.deadLetter, key: message.key === null ? null : message.key.toString('utf8'), value: JSON.stringify(deadLetter), headers: originHeaders }], context, source);
    stats.countDeadLetter(decoded.code);
    span?.setAttribute('scorestream.dead_letter.reason', decoded.code);
    return;
  }

  const event = decoded.data;
  span?.setAttribute('scorestream.run.id', event.runId);
  if (isScorestreamRun(event.metadata)) {
    stats.countSkip('scorestream_origin');
    span?.setAttribute('scorestream.skip.reason', 'scorestream_origin');
    context.logger.debug({ source, runId: event.runId }, "skipped a run event that describes Scorestream's own work (metadata.source or tag)");
    return;
  }
  const traceContext = withBodyTraceContext(fromHeaders ?? extractHeaderTraceContext(message.headers), event.trace);
  if (span !== undefined && traceContext.source === 'body') {
    // The consumer could only link what the headers carried; the body's context is linked here.
    const producing = trace.getSpanContext(traceContext.context);
    if (producing !== undefined) span.addLink({ context: producing });
  }
  const facts = collectRunFacts(event, source, traceContext.facts);
  const eventTime = Date.parse(event.timestamp);
  const scoring = await scoreRunEvent(facts, {
    bindings: config.scorers,
    parentContext: traceContext.context ?? ROOT_CONTEXT,
    ...(span === undefined ? {} : { links: [{ context: span.spanContext() }] }),
    ...(context.tracer === undefined ? {} : { tracer: context.tracer }),
    now: context.now,
    signal: context.hardStop,
    ...(context.runOptions === undefined ? {} : { runOptions: context.runOptions }),
    // Each record goes out as soon as its scorer finished; the message completes when all did.
    onRecord: async (record) => {
      await publishUntilAcknowledged([{ topic: config.topics.results, key: record.runId, value: serializeRecord(record), headers: originHeaders }], context, source);
      stats.countRecord(record);
      if (Number.isFinite(eventTime)) {
        const latencyMs = context.now() - eventTime;
        stats.recordLatency(latencyMs);
        context.recordLatency?.(latencyMs, record);
      }
    },
  });
  if (config.topics.decisions !== undefined && scoring.decisions.length > 0) {
    const topic = config.topics.decisions;
    await publishUntilAcknowledged(
      scoring.decisions.map((decision) => ({ topic, key: decision.runId, value: JSON.stringify(decision), headers: originHeaders })),
      context,
      source,
    );
  }
  for (const decision of scoring.decisions) stats.countSkip(decision.reason);
}

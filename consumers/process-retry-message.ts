// One message of the retry topic, once due (the scoring consumer holds it until then): the pair
// it names is scored again — the binding decided on the first time, found by scorer id and
// version, with no eligibility or sampling decided again — under the run's trace, and the result
// leaves through publishOrDefer like on the runs topic: scored, final, or deferred once more with
// this attempt added to its history. The record keeps its deterministic scoreId. A binding that is
// no longer configured cannot be retried: its pair gets a final `failed` record (code
// `binding_removed`) with all the evidence; a message that is not a retry message is dead-lettered.
import { ROOT_CONTEXT, trace as otelTrace, TraceFlags } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import type { KafkaMessage } from 'kafkajs';
import type { Source } from '../src/contracts/common.ts';
import { formatProblems, problemsFromIssues } from '../src/contracts/problems.ts';
import { retryMessageSchema } from '../src/contracts/retry-message.ts';
import type { RetryMessage } from '../src/contracts/retry-message.ts';
import type { ScoreRecord } from '../src/contracts/score-record.ts';
import { buildScoreRecord } from '../src/pipeline/build-score-record.ts';
import { collectRunFacts } from '../src/pipeline/run-facts.ts';
import type { RunFacts } from '../src/pipeline/run-facts.ts';
import { scoreWithBinding } from '../src/pipeline/score-run-event.ts';
import { publishDeadLetter } from './dead-letter.ts';
import type { MessageContext } from './message-context.ts';
import type { MessageOutput } from './record-sink.ts';
import { publishOrDefer } from './retry-deferral.ts';

type Decoded = { success: true; data: RetryMessage } | { success: false; message: string };

export function decodeRetryMessage(value: Buffer | null): Decoded {
  if (value === null) return { success: false, message: 'the retry message has no value' };
  let json: unknown;
  try {
    json = JSON.parse(value.toString('utf8'));
  } catch (error) {
    return { success: false, message: `the retry message is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = retryMessageSchema.safeParse(json);
  if (!parsed.success) return { success: false, message: `not a RetryMessage v1:\n${formatProblems(problemsFromIssues(parsed.error.issues))}` };
  return { success: true, data: parsed.data };
}

/** The agent run's span as the parent of the retry's score span, when the run had one. */
function parentContextOf(retry: RetryMessage): Context {
  const { traceId, spanId, sampled } = retry.trace;
  if (traceId === undefined || spanId === undefined) return ROOT_CONTEXT;
  return otelTrace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, isRemote: true, traceFlags: sampled === false ? TraceFlags.NONE : TraceFlags.SAMPLED });
}

function bindingRemovedRecord(retry: RetryMessage, facts: RunFacts, nowMs: number): ScoreRecord {
  const last = retry.attempts[retry.attempts.length - 1]!;
  const version = retry.scorerVersion === undefined ? '' : ` version '${retry.scorerVersion}'`;
  return buildScoreRecord({
    scorerId: retry.scorerId,
    scorerVersion: retry.scorerVersion,
    facts,
    outcome: {
      status: 'failed',
      error: {
        name: 'ScorestreamError',
        code: 'binding_removed',
        message: `scorer '${retry.scorerId}'${version} is no longer configured, so its pair waiting for a retry cannot be scored; the earlier attempts' errors are under retries`,
        failedStep: last.error.failedStep,
        completedSteps: last.error.completedSteps,
        retryable: false,
      },
    },
    sampling: retry.sampling,
    scoredAt: new Date(nowMs).toISOString(),
    durationMs: 0,
  });
}

export async function processRetryMessage(message: KafkaMessage, source: Source, output: MessageOutput, context: MessageContext): Promise<void> {
  const { config, stats } = context;
  const decoded = decodeRetryMessage(message.value);
  if (!decoded.success) {
    context.logger.warn({ source }, `dead-lettered a message of the retry topic: ${decoded.message.split('\n')[0]}`);
    await publishDeadLetter(message, source, { code: 'schema_violation', message: decoded.message }, output, context);
    return;
  }
  const retry = decoded.data;
  stats.retriesAttempted += 1;
  const facts = collectRunFacts(retry.event, retry.source, retry.trace);
  const binding = config.scorers.find((candidate) => candidate.scorerId === retry.scorerId && candidate.version === retry.scorerVersion);
  const record =
    binding === undefined
      ? bindingRemovedRecord(retry, facts, context.now())
      : await scoreWithBinding(facts, binding, { eligible: true, ...(retry.sampling === undefined ? {} : { sampling: retry.sampling }) }, {
          bindings: config.scorers,
          parentContext: parentContextOf(retry),
          tracer: context.tracer,
          now: context.now,
          signal: context.hardStop,
          services: context.services,
        });
  const history = { firstFailedAt: retry.firstFailedAt, attempts: retry.attempts };
  await publishOrDefer({ record, event: retry.event, trace: retry.trace, history, source }, output, context);
}

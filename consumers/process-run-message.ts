// One consumed message, start to finish, as a sequence of small parts:
//   loop guard (headers) → decode → (dead letter) → loop guard (body) → trace context →
//   score, each record published as its scorer finishes → decision records.
// Resolves only when everything this message produced was accepted by its output (at-least-once:
// acknowledged by Kafka; exactly-once: held for the partition's next transaction), which is what
// lets its offset be committed; every publish is retried until then (publishUntilAcknowledged).
// It rejects only on the hard stop or a bug; the scoring consumer then calls deadLetterUnexpected.
import type { KafkaMessage } from 'kafkajs';
import type { AgentRunEvent } from '../src/contracts/agent-run-event.ts';
import type { Source } from '../src/contracts/common.ts';
import { collectRunFacts } from '../src/pipeline/run-facts.ts';
import { scoreRunEvent } from '../src/pipeline/score-run-event.ts';
import { publishDeadLetter } from './dead-letter.ts';
import { countDecisions, publishDecisionRecords } from './decision-records.ts';
import { decodeRunMessage } from './decode-run-message.ts';
import { isOwnOutput, isScorestreamRun } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import { runTraceContext } from './message-trace.ts';
import type { MessageTrace } from './message-trace.ts';
import type { MessageOutput } from './record-sink.ts';
import { noHistory, publishOrDefer } from './retry-deferral.ts';

/**
 * `output` is where this message's records go (its MessageTicket's); `trace` its trace context as
 * far as the consumer read it (startMessageTrace). The process span, when it records, gets the
 * run's facts as attributes and every score span links to it.
 */
export async function processRunMessage(message: KafkaMessage, source: Source, output: MessageOutput, trace: MessageTrace, context: MessageContext): Promise<void> {
  const { config, stats } = context;
  const span = trace.span?.isRecording() === true ? trace.span : undefined;
  stats.consumed += 1;
  if (isOwnOutput(message.headers)) {
    stats.countSkip('own_output');
    span?.setAttribute('scorestream.skip.reason', 'own_output');
    return;
  }
  const decoded = decodeRunMessage(message, config.maxMessageBytes);
  if (!decoded.success) {
    const { reason } = decoded;
    context.logger.warn({ source, code: reason.code }, `dead-lettered: ${reason.message.split('\n')[0]}`);
    await publishDeadLetter(message, source, reason, output, context);
    span?.setAttribute('scorestream.dead_letter.reason', reason.code);
    return;
  }

  await scoreDecodedRun(decoded.data, source, output, trace, context);
}

/**
 * A decoded run event, from the body loop guard on: scored, each record published as its scorer
 * finishes, then its decision records. Shared by every input format (the OTLP input hands it the
 * runs it assembled, consumers/otlp-input.ts).
 */
export async function scoreDecodedRun(event: AgentRunEvent, source: Source, output: MessageOutput, trace: MessageTrace, context: MessageContext): Promise<void> {
  const { config, stats } = context;
  const span = trace.span?.isRecording() === true ? trace.span : undefined;
  span?.setAttribute('scorestream.run.id', event.runId);
  if (isScorestreamRun(event.metadata)) {
    stats.countSkip('scorestream_origin');
    span?.setAttribute('scorestream.skip.reason', 'scorestream_origin');
    context.logger.debug({ source, runId: event.runId }, "skipped a run event that describes Scorestream's own work (metadata.source or tag)");
    return;
  }
  const runTrace = runTraceContext(trace, event);
  // Counted whatever the policy (docs/observability.md, trace sampling): how much of the traffic a trace backend misses.
  if (runTrace.facts.sampled === false) stats.unsampledTraces += 1;
  const scoring = await scoreRunEvent(collectRunFacts(event, source, runTrace.facts), {
    bindings: config.scorers,
    parentContext: runTrace.context,
    links: span === undefined ? undefined : [{ context: span.spanContext() }],
    tracer: context.tracer,
    now: context.now,
    signal: context.hardStop,
    services: context.services,
    spend: context.spend,
    traceSampling: config.traceSampling,
    // A transient failure may go to the retry topic instead of out as `failed` (retry-deferral.ts).
    onRecord: (record) => publishOrDefer({ record, event, trace: runTrace.facts, history: noHistory, source }, output, context),
  });
  // Decided here, not inside: with sampling or filters most runs skip some binding, and without a
  // decisions topic counting them must not cost an await per message.
  if (scoring.decisions.length === 0) return;
  const topic = config.topics.decisions;
  if (topic === undefined) countDecisions(scoring.decisions, context);
  else await publishDecisionRecords(scoring.decisions, topic, source, output, context);
}

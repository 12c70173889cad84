// The OTLP input (input.format 'otlp'): messages written by an OpenTelemetry Collector's kafka
// exporter are decoded into spans (src/otlp/decode-otlp.ts), buffered per trace
// (src/otlp/trace-assembler.ts) and, when a trace closes, turned into agent runs
// (src/otlp/run-from-trace.ts) that are scored like run events (scoreDecodedRun). A trace that
// yields no run is decided (not_an_agent_trace, incomplete_trace, assembly_overflow): counted
// and, with a decisions topic, recorded per scorer binding with the trace id as run id.
//
// Offsets: a message resolves only once every trace it contributed spans to was closed and all of
// that trace's work — its runs scored and their records accepted, or its decisions — is done. So
// its offset is committed (PartitionProgress: contiguous finished prefix) only behind that work,
// and a crash or a rebalance, which loses the buffer, rebuilds it from the committed offset. A
// run's records go out through the ticket of the message that carried its agent span.
import type { KafkaMessage } from 'kafkajs';
import type { OtlpInputConfig } from '../src/config/input-schema.ts';
import type { Source } from '../src/contracts/common.ts';
import type { DecisionRecord, FlagReason, SkipReason } from '../src/contracts/decision-record.ts';
import { parseAgentRunEvent } from '../src/contracts/parse.ts';
import { isAgentSpan, isScorestreamSpan } from '../src/otlp/agent-spans.ts';
import { decodeOtlpTraces } from '../src/otlp/decode-otlp.ts';
import { runsFromTrace } from '../src/otlp/run-from-trace.ts';
import type { AssembledRun } from '../src/otlp/run-from-trace.ts';
import { TraceAssembler } from '../src/otlp/trace-assembler.ts';
import type { ClosedTrace } from '../src/otlp/trace-assembler.ts';
import { extractHeaderTraceContext } from '../otel/run-trace-context.ts';
import { publishDeadLetter } from './dead-letter.ts';
import { countDecisions, publishDecisionRecords } from './decision-records.ts';
import { isOwnOutput } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import type { MessageTrace } from './message-trace.ts';
import { scoreDecodedRun } from './process-run-message.ts';
import type { MessageOutput } from './record-sink.ts';
import type { RunInput } from './run-input.ts';

/** Live counters of the assembly (also what the 10,000-trace test and the benchmark read). */
export class OtlpAssemblyStats {
  spans = 0;
  /** Spans of Scorestream's own work (judge calls, score spans) left out. */
  ownSpans = 0;
  /** Spans of a trace that had closed already: dropped. */
  lateSpans = 0;
  runsAssembled = 0;
  /** Runs assembled without a user message or a final answer (scored, and flagged missing_content). */
  runsMissingContent = 0;
  readonly tracesClosed = { ready: 0, idle: 0, overflow: 0 };
  readonly tracesWithoutRun = new Map<SkipReason, number>();
  peakOpenTraces = 0;
  peakBufferedSpans = 0;
  openTraces = 0;
  bufferedSpans = 0;
}

type PendingMessage = {
  readonly source: Source;
  readonly output: MessageOutput;
  readonly trace: MessageTrace;
  /** Traces this message fed that are still open. */
  openTraces: number;
  readonly work: Array<Promise<void>>;
  resolve(): void;
  reject(error: unknown): void;
};

export type OtlpInputOptions = {
  config: OtlpInputConfig;
  /** Clock of the assembly's grace periods and timeouts (default Date.now). */
  now?: () => number;
  stats?: OtlpAssemblyStats;
};

export type OtlpInput = RunInput & { readonly stats: OtlpAssemblyStats };

export function createOtlpInput(options: OtlpInputOptions): OtlpInput {
  const { config } = options;
  const now = options.now ?? Date.now;
  const stats = options.stats ?? new OtlpAssemblyStats();
  const assembler = new TraceAssembler<PendingMessage>(config, isAgentSpan);
  const pending = new Set<PendingMessage>();
  let context: MessageContext | undefined;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let closed = false;

  const observe = () => {
    stats.openTraces = assembler.openTraces;
    stats.bufferedSpans = assembler.bufferedSpans;
    stats.peakOpenTraces = Math.max(stats.peakOpenTraces, stats.openTraces);
    stats.peakBufferedSpans = Math.max(stats.peakBufferedSpans, stats.bufferedSpans);
  };

  const schedule = () => {
    if (closed) return;
    const next = assembler.nextDeadline();
    if (next === undefined || next >= timerAt) return;
    clearTimeout(timer);
    timerAt = next;
    timer = setTimeout(tick, Math.max(0, next - now()));
  };

  function tick() {
    timer = undefined;
    timerAt = Infinity;
    for (const trace of assembler.closeDue(now())) settle(trace);
    observe();
    schedule();
  }

  /** A closed trace: its work starts now; each of its messages finishes when all its traces' work is done. */
  const settle = (trace: ClosedTrace<PendingMessage>) => {
    stats.tracesClosed[trace.reason] += 1;
    const work = context === undefined ? Promise.resolve() : completeTrace(trace, context);
    for (const owner of trace.owners) {
      owner.work.push(work);
      owner.openTraces -= 1;
      if (owner.openTraces === 0) finish(owner);
    }
  };

  const finish = (owner: PendingMessage) => {
    Promise.all(owner.work).then(
      () => {
        pending.delete(owner);
        owner.resolve();
      },
      (error: unknown) => {
        pending.delete(owner);
        owner.reject(error);
      },
    );
  };

  const completeTrace = async (trace: ClosedTrace<PendingMessage>, messageContext: MessageContext): Promise<void> => {
    const runs = runsFromTrace(trace.spans, { nestedAgents: config.nestedAgents, rootSpanRuns: config.rootSpanRuns });
    if (runs.length === 0) {
      const reason: SkipReason = trace.reason === 'overflow' ? 'assembly_overflow' : trace.rootArrived ? 'not_an_agent_trace' : 'incomplete_trace';
      const detail =
        reason === 'assembly_overflow'
          ? `closed to stay within maxOpenTraces (${config.maxOpenTraces}) / maxSpansPerTrace (${config.maxSpansPerTrace}) before an agent span arrived`
          : reason === 'incomplete_trace'
            ? `no root or agent span arrived within idleTimeoutMs (${config.idleTimeoutMs})`
            : `the trace has no agent span (GenAI invoke_agent, OpenInference AGENT, OpenLLMetry agent, ai.generateText / ai.streamText)${config.rootSpanRuns ? ' and its root span holds no model call' : ', and rootSpanRuns is off'}`;
      await decide(trace, reason, detail, trace.owners[0]!, messageContext);
      return;
    }
    if (trace.reason === 'overflow') messageContext.logger.debug({ traceId: trace.traceId, runs: runs.length }, 'OTLP assembly overflow: a trace with agent runs was closed early; its runs are scored with the spans that arrived');
    await Promise.all(runs.map((run) => scoreRun(run, trace, messageContext)));
  };

  const scoreRun = async (run: AssembledRun, trace: ClosedTrace<PendingMessage>, messageContext: MessageContext): Promise<void> => {
    const owner = trace.ownerOf(run.agentSpan.spanId) ?? trace.owners[0]!;
    const parsed = parseAgentRunEvent(run.event);
    if (!parsed.success) {
      const problems = parsed.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
      messageContext.logger.warn({ traceId: trace.traceId, spanId: run.agentSpan.spanId, problems }, 'an assembled run broke the run-event contract; decided as incomplete_trace');
      await decide(trace, 'incomplete_trace', `the agent span's run is not a valid run event: ${problems}`, owner, messageContext, run.event.runId);
      return;
    }
    stats.runsAssembled += 1;
    // The run's trace context is the agent span's (its `trace` field), never the message headers'.
    const runTrace: MessageTrace = { span: owner.trace.span, fromHeaders: extractHeaderTraceContext(undefined) };
    const missing = parsed.data.missing;
    if (missing === undefined) return scoreDecodedRun(parsed.data, owner.source, owner.output, runTrace, messageContext);
    // Scored all the same (code scorers may not need the part), and never silently: a flag per binding.
    stats.runsMissingContent += 1;
    const detail = `rule ${run.rule}: ${missing.map((entry) => entry.reason).join('; ')}`;
    await Promise.all([scoreDecodedRun(parsed.data, owner.source, owner.output, runTrace, messageContext), decide(trace, 'missing_content', detail, owner, messageContext, run.event.runId)]);
  };

  const decide = async (trace: ClosedTrace<PendingMessage>, reason: SkipReason | FlagReason, detail: string, owner: PendingMessage, messageContext: MessageContext, runId = trace.traceId) => {
    // A flag goes with a scored run; any other reason is a trace without a run.
    const decision = reason === 'missing_content' ? 'flagged' : 'skipped';
    if (reason !== 'missing_content') stats.tracesWithoutRun.set(reason, (stats.tracesWithoutRun.get(reason) ?? 0) + 1);
    const decidedAt = new Date(messageContext.now()).toISOString();
    const decisions: DecisionRecord[] = messageContext.config.scorers.map((binding) => ({
      schemaVersion: 1,
      runId,
      scorerId: binding.scorerId,
      ...(binding.version === undefined ? {} : { scorerVersion: binding.version }),
      decision,
      reason,
      detail,
      trace: { traceId: trace.traceId },
      source: owner.source,
      decidedAt,
    }));
    const topic = messageContext.config.topics.decisions;
    if (topic === undefined) countDecisions(decisions, messageContext);
    else await publishDecisionRecords(decisions, topic, owner.source, owner.output, messageContext);
  };

  const onHardStop = () => {
    for (const owner of [...pending]) owner.reject(new Error('hard stop: the traces this message fed were not complete'));
    pending.clear();
  };

  return {
    stats,
    async process(message: KafkaMessage, source: Source, output: MessageOutput, trace: MessageTrace, messageContext: MessageContext): Promise<void> {
      if (context === undefined) {
        context = messageContext;
        messageContext.hardStop.addEventListener('abort', onHardStop, { once: true });
      }
      const { stats: serviceStats } = messageContext;
      serviceStats.consumed += 1;
      if (isOwnOutput(message.headers)) {
        serviceStats.countSkip('own_output');
        return;
      }
      const decoded = tooLarge(message, messageContext.config.maxMessageBytes) ?? decodeOtlpTraces(message.value!, config.encoding);
      if (!decoded.success) {
        const reason = { code: decoded.code, message: decoded.message };
        messageContext.logger.warn({ source, code: reason.code }, `dead-lettered: ${reason.message}`);
        await publishDeadLetter(message, source, reason, output, messageContext);
        trace.span?.setAttribute('scorestream.dead_letter.reason', reason.code);
        return;
      }
      const spans = decoded.spans.filter((span) => !isScorestreamSpan(span));
      stats.spans += spans.length;
      stats.ownSpans += decoded.spans.length - spans.length;
      if (spans.length === 0) return;

      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const done = new Promise<void>((onResolve, onReject) => {
        resolve = onResolve;
        reject = onReject;
      });
      const owner: PendingMessage = { source, output, trace, openTraces: 0, work: [], resolve, reject };
      const added = assembler.add(spans, owner, now());
      stats.lateSpans += added.lateSpans;
      owner.openTraces = added.openedOrJoined.length + added.overflowed.filter((closedTrace) => closedTrace.owners.includes(owner)).length;
      if (owner.openTraces === 0) resolve();
      else pending.add(owner);
      for (const closedTrace of added.overflowed) settle(closedTrace);
      observe();
      schedule();
      trace.span?.setAttribute('scorestream.otlp.spans', spans.length);
      return done;
    },
    assignmentEnded() {
      assembler.forgetClosed();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      context?.hardStop.removeEventListener('abort', onHardStop);
    },
  };
}

function tooLarge(message: KafkaMessage, maxBytes: number): { success: false; code: 'oversized' | 'invalid_otlp'; message: string } | undefined {
  if (message.value === null) return { success: false, code: 'invalid_otlp', message: 'the message has no value (a tombstone)' };
  if (message.value.length > maxBytes) return { success: false, code: 'oversized', message: `the value is ${message.value.length} bytes, more than maxMessageBytes (${maxBytes})` };
  return undefined;
}

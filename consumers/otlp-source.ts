// The OTLP source (input.format 'otlp'): messages written by an OpenTelemetry Collector's kafka
// exporter are decoded into spans (src/engine/otlp/decode-otlp.ts; Scorestream's own spans left out),
// buffered per trace (src/engine/otlp/trace-assembler.ts) and, when a trace closes, turned into agent
// runs (src/engine/otlp/run-from-trace.ts), each scored as a run job whose trace context is its agent
// span's own. A trace that yields no run is decided (not_an_agent_trace, incomplete_trace,
// assembly_overflow) for every binding, with the trace id as run id. A run without a user message
// or a final answer is scored all the same, never silently: its event's `missing` goes into every
// record, and each record goes out with a `flagged` / `missing_content` decision (record-emitter.ts).
//
// State belongs to the claim (run-source.ts): one assembly per claimed partition, ended with the
// claim — a rebalance, a new join, an exactly-once transaction that failed and reset the
// partition — so it is always rebuilt from the partition's committed offset, never assumed. (Set
// the Collector's partition_traces_by_id: a trace whose spans land in two partitions is assembled
// in two parts; docs/otlp.md.)
//
// `maxOpenTraces` bounds the open traces of every claimed partition together: room for a new trace
// is made by closing the oldest open trace of any partition (assembly_overflow).
//
// Offsets: a message resolves only once every trace it contributed spans to was closed and that
// trace's work — its runs scored and their records accepted, or its decisions — is done. So its
// offset is committed (PartitionProgress: contiguous finished prefix) only behind that work. A
// run's records go out through the message that carried its agent span.
import type { OtlpInputConfig } from '../src/engine/config/input-schema.ts';
import type { SkipReason } from '../src/kit/contracts/decision-record.ts';
import { parseOwnedAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { isAgentSpan, isScorestreamSpan } from '../src/engine/otlp/agent-spans.ts';
import { decodeOtlpTraces } from '../src/engine/otlp/decode-otlp.ts';
import type { OtlpSpan } from '../src/engine/otlp/otlp-span.ts';
import { runsFromTrace } from '../src/engine/otlp/run-from-trace.ts';
import type { AssembledRun } from '../src/engine/otlp/run-from-trace.ts';
import { TraceAssembler } from '../src/engine/otlp/trace-assembler.ts';
import type { ClosedTrace } from '../src/engine/otlp/trace-assembler.ts';
import { spanTraceContext } from '../otel/run-trace-context.ts';
import { ClaimEndedError } from './run-source.ts';
import type { MessageHandle, PerformJob, RunSource, SourcePartition } from './run-source.ts';

/** Live counters of the assembly, over every claimed partition (also what the 10,000-trace test and the benchmark read). */
export class OtlpAssemblyStats {
  spans = 0;
  /** Spans of Scorestream's own work (judge calls, score spans) left out. */
  ownSpans = 0;
  /** Spans of a trace that had closed already: dropped. */
  lateSpans = 0;
  runsAssembled = 0;
  /** Runs assembled without a user message or a final answer (scored, their records flagged missing_content). */
  runsMissingContent = 0;
  readonly tracesClosed = { ready: 0, idle: 0, overflow: 0 };
  readonly tracesWithoutRun = new Map<SkipReason, number>();
  /** Assemblies dropped because their claim ended (a rebalance, a reset partition). */
  claimsEnded = 0;
  peakOpenTraces = 0;
  peakBufferedSpans = 0;
  openTraces = 0;
  bufferedSpans = 0;
}

/** What an OTLP message carries once decoded: its spans (own spans left out), and how many were ours. */
export type DecodedSpans = { spans: OtlpSpan[]; ownSpans: number };

type PendingMessage = {
  readonly message: MessageHandle;
  /** Traces this message fed that are still open. */
  openTraces: number;
  readonly work: Array<Promise<unknown>>;
  resolve(): void;
  reject(error: unknown): void;
};

/** Closed traces whose work starts in one turn of the event loop (workOf): as many as the messages runsInFlight allows by default. */
export const STARTED_PER_TURN = 256;
const noop = () => undefined;

export type OtlpSourceOptions = {
  config: OtlpInputConfig;
  /** Clock of the assembly's grace periods and timeouts (default Date.now). */
  now?: () => number;
  stats?: OtlpAssemblyStats;
};

export type OtlpSource = RunSource<DecodedSpans> & { readonly stats: OtlpAssemblyStats };

export function createOtlpSource(options: OtlpSourceOptions): OtlpSource {
  const { config } = options;
  const now = options.now ?? Date.now;
  /** Why a closed trace yielded no run, by reason: the config's words, said once. */
  const noRunDetails = {
    assembly_overflow: `closed to stay within maxOpenTraces (${config.maxOpenTraces}) / maxSpansPerTrace (${config.maxSpansPerTrace}) before an agent span arrived`,
    incomplete_trace: `no root or agent span arrived within idleTimeoutMs (${config.idleTimeoutMs})`,
    not_an_agent_trace: `the trace has no agent span (GenAI invoke_agent, OpenInference AGENT, OpenLLMetry agent, ai.generateText / ai.streamText)${config.rootSpanRuns ? ' and its root span holds no model call' : ', and rootSpanRuns is off'}`,
  } as const satisfies Partial<Record<SkipReason, string>>;
  const findingOptions = { nestedAgents: config.nestedAgents, rootSpanRuns: config.rootSpanRuns };
  const stats = options.stats ?? new OtlpAssemblyStats();
  /** Every claimed partition's assembly: `maxOpenTraces` bounds them together. */
  const live = new Set<{ assembler: TraceAssembler<PendingMessage>; closeOldest(): void }>();

  const observe = () => {
    let openTraces = 0;
    let bufferedSpans = 0;
    for (const { assembler } of live) {
      openTraces += assembler.openTraces;
      bufferedSpans += assembler.bufferedSpans;
    }
    stats.openTraces = openTraces;
    stats.bufferedSpans = bufferedSpans;
    stats.peakOpenTraces = Math.max(stats.peakOpenTraces, openTraces);
    stats.peakBufferedSpans = Math.max(stats.peakBufferedSpans, bufferedSpans);
  };

  const openTraces = () => {
    let open = 0;
    for (const entry of live) open += entry.assembler.openTraces;
    return open;
  };

  /** Closes the oldest open traces of any partition (assembly_overflow) until `opening` more fit within maxOpenTraces. */
  const makeRoom = (opening: number) => {
    for (;;) {
      let open = 0;
      let oldest: { assembler: TraceAssembler<PendingMessage>; closeOldest(): void } | undefined;
      for (const entry of live) {
        open += entry.assembler.openTraces;
        const openedAt = entry.assembler.oldestOpenedAt();
        if (openedAt !== undefined && (oldest === undefined || openedAt < oldest.assembler.oldestOpenedAt()!)) oldest = entry;
      }
      if (open + opening <= config.maxOpenTraces || oldest === undefined) return;
      oldest.closeOldest();
    }
  };

  const claim = (perform: PerformJob): SourcePartition<DecodedSpans> => {
    const assembler = new TraceAssembler<PendingMessage>(config, isAgentSpan);
    const pending = new Set<PendingMessage>();
    const entry = {
      assembler,
      closeOldest() {
        const oldest = assembler.closeOldest();
        if (oldest !== undefined) settle(oldest);
      },
    };
    live.add(entry);
    let timer: NodeJS.Timeout | undefined;
    let timerAt = Infinity;
    let ended = false;

    const schedule = () => {
      if (ended || closingHeld) return;
      const next = assembler.nextDeadline();
      if (next === undefined || next >= timerAt) return;
      clearTimeout(timer);
      timerAt = next;
      timer = setTimeout(tick, Math.max(0, next - now()));
    };

    function tick() {
      timer = undefined;
      timerAt = Infinity;
      // Traces close only once the work of those closed before has all started (below): as when that
      // work blocked the event loop until it had, but with the loop free in between.
      if (waiting.length > started) {
        closingHeld = true;
        return;
      }
      for (const trace of assembler.closeDue(now())) settle(trace);
      observe();
      schedule();
    }

    // The work of traces closed together (a grace period ending for a whole fetch's traces at once)
    // starts STARTED_PER_TURN traces at a time, a turn of the event loop apart. Started all at once,
    // every run's scoring state is alive at the same time, and the garbage collector copies it all.
    const waiting: Array<() => void> = [];
    let started = 0;
    let startedThisTurn = 0;
    let turnScheduled = false;
    let closingHeld = false;
    const nextTurn = () => {
      turnScheduled = false;
      startedThisTurn = 0;
      while (started < waiting.length && startedThisTurn < STARTED_PER_TURN) {
        const start = waiting[started]!;
        waiting[started] = noop;
        started += 1;
        startedThisTurn += 1;
        start();
      }
      if (started < waiting.length) {
        turnScheduled = true;
        setImmediate(nextTurn);
        return;
      }
      waiting.length = 0;
      started = 0;
      startedThisTurn = 0;
      if (closingHeld) {
        closingHeld = false;
        schedule();
      }
    };
    /** The trace's work: started now while this turn has room and nothing waits, else queued for a later turn. */
    const workOf = (trace: ClosedTrace<PendingMessage>): Promise<unknown> => {
      if (!turnScheduled) {
        if (startedThisTurn < STARTED_PER_TURN) {
          startedThisTurn += 1;
          if (startedThisTurn === 1) queueMicrotask(endTurn);
          return completeTrace(trace);
        }
        turnScheduled = true;
        setImmediate(nextTurn);
      }
      return new Promise((resolve) => {
        // A claim that ended meanwhile leaves the trace undone: its messages were abandoned, the partition is read again.
        waiting.push(() => resolve(ended ? undefined : completeTrace(trace)));
      });
    };
    /** Traces started outside nextTurn (a tick, an overflow) count against one turn, until the microtasks after them. */
    const endTurn = () => {
      if (!turnScheduled) startedThisTurn = 0;
    };

    /** A closed trace: its work starts now or within a few turns of the event loop (workOf); each of its messages finishes when all its traces' work is done. */
    const settle = (trace: ClosedTrace<PendingMessage>) => {
      stats.tracesClosed[trace.reason] += 1;
      const work = workOf(trace);
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

    /** The trace's work, as one promise; what throws here rejects it (so its messages), as in an async function, without one per trace. */
    const completeTrace = (trace: ClosedTrace<PendingMessage>): Promise<unknown> => {
      try {
        const runs = runsFromTrace(trace.spans, findingOptions);
        if (runs.length === 1) return scoreRun(runs[0]!, trace);
        if (runs.length > 1) return Promise.all(runs.map((run) => scoreRun(run, trace)));
        const first = trace.owners[0]!.message;
        const reason: SkipReason = trace.reason === 'overflow' ? 'assembly_overflow' : trace.rootArrived ? 'not_an_agent_trace' : 'incomplete_trace';
        countWithoutRun(reason);
        return perform({ kind: 'no-run', traceId: trace.traceId, reason, detail: noRunDetails[reason], source: first.source }, first);
      } catch (error) {
        return Promise.reject(error);
      }
    };

    /** Not an async function, so that nothing of the run or its trace is held while its job is done; what throws rejects it all the same. */
    const scoreRun = (run: AssembledRun, trace: ClosedTrace<PendingMessage>): Promise<void> => {
      try {
        return startRun(run, trace);
      } catch (error) {
        return Promise.reject(error);
      }
    };

    const startRun = (run: AssembledRun, trace: ClosedTrace<PendingMessage>): Promise<void> => {
      const owner = (trace.ownerOf(run.agentSpan.spanId) ?? trace.owners[0]!).message;
      // The run was built for this call alone (run-from-trace.ts): decoded in place, without zod's copy.
      const parsed = parseOwnedAgentRunEvent(run.event);
      if (!parsed.success) {
        const problems = parsed.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
        countWithoutRun('incomplete_trace');
        return perform({ kind: 'no-run', traceId: trace.traceId, reason: 'incomplete_trace', detail: `the agent span's run (${run.event.runId}) is not a valid run event: ${problems}`, source: owner.source }, owner);
      }
      stats.runsAssembled += 1;
      // Scored all the same (code scorers may not need the part); each record carries `missing` and goes with its flag (record-emitter.ts).
      if (parsed.data.missing !== undefined) stats.runsMissingContent += 1;
      // The run's trace is the agent span's own: its score spans become the agent span's children.
      return perform({ kind: 'run', event: parsed.data, trace: spanTraceContext(run.agentSpan), source: owner.source }, owner);
    };

    return {
      take(decoded, message) {
        const { spans } = decoded;
        stats.spans += spans.length;
        stats.ownSpans += decoded.ownSpans;
        message.trace.span?.setAttribute('scorestream.otlp.spans', spans.length);
        if (spans.length === 0 || ended) return Promise.resolve();
        let resolve!: () => void;
        let reject!: (error: unknown) => void;
        const done = new Promise<void>((onResolve, onReject) => {
          resolve = onResolve;
          reject = onReject;
        });
        const owner: PendingMessage = { message, openTraces: 0, work: [], resolve, reject };
        // Counting the traces the spans would open costs a pass over them: only near the cap.
        if (openTraces() + spans.length > config.maxOpenTraces) makeRoom(assembler.tracesToOpen(spans));
        const added = assembler.add(spans, owner, now());
        stats.lateSpans += added.lateSpans;
        owner.openTraces = added.openedOrJoined.length + added.overflowed.filter((closedTrace) => closedTrace.owners.includes(owner)).length;
        if (owner.openTraces === 0) resolve();
        else pending.add(owner);
        for (const closedTrace of added.overflowed) settle(closedTrace);
        observe();
        schedule();
        return done;
      },
      end() {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        live.delete(entry);
        stats.claimsEnded += 1;
        const dropped = new ClaimEndedError('the traces it fed were not complete');
        for (const owner of pending) owner.reject(dropped);
        pending.clear();
        observe();
      },
    };
  };

  const countWithoutRun = (reason: SkipReason) => stats.tracesWithoutRun.set(reason, (stats.tracesWithoutRun.get(reason) ?? 0) + 1);

  return {
    name: 'otlp',
    stats,
    decode(value) {
      if (value === null) return { success: false, reason: { code: 'invalid_otlp', message: 'the message has no value (a tombstone)' } };
      const decoded = decodeOtlpTraces(value, config.encoding);
      if (!decoded.success) return { success: false, reason: { code: decoded.code, message: decoded.message } };
      const spans = decoded.spans.filter((span) => !isScorestreamSpan(span));
      return { success: true, decoded: { spans, ownSpans: decoded.spans.length - spans.length } };
    },
    claim,
  };
}

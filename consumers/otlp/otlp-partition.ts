// One claimed partition of the OTLP source (otlp-source.ts): its spans buffered per trace
// (src/engine/otlp/trace-assembler.ts) and, when a trace closes — ready, idle, or to make room —
// turned into agent runs (run-from-trace.ts), each done as a run job whose trace context is its
// agent span's own, or into a no-run job (not_an_agent_trace, incomplete_trace, assembly_overflow).
// A trace's work starts through the turn pacer (turn-pacer.ts), and traces close on one timer at
// the assembly's next deadline.
//
// Offsets: a message resolves only once every trace it contributed spans to was closed and that
// trace's work is done, so its offset is committed (PartitionProgress: the contiguous finished
// prefix) only behind that work. A run's records go out through the message that carried its
// agent span. The claim ending drops the assembly and abandons the messages still waiting.
import type { OtlpInputConfig } from '../../src/engine/config/input-schema.ts';
import type { SkipReason } from '../../src/kit/contracts/decision-record.ts';
import { parseOwnedAgentRunEvent } from '../../src/kit/contracts/parse.ts';
import { isAgentSpan } from '../../src/engine/otlp/agent-spans.ts';
import type { OtlpSpan } from '../../src/engine/otlp/otlp-span.ts';
import { runsFromTrace } from '../../src/engine/otlp/run-from-trace.ts';
import { attachLogRecords, isLogRecordCarrier } from '../../src/engine/otlp/otlp-log-record.ts';
import type { AssembledRun } from '../../src/engine/otlp/run-from-trace.ts';
import { TraceAssembler } from '../../src/engine/otlp/trace-assembler.ts';
import type { ClosedTrace } from '../../src/engine/otlp/trace-assembler.ts';
import { spanTraceContext } from '../../otel/run-trace-context.ts';
import { ClaimEndedError } from '../run-source.ts';
import type { MessageHandle, PerformJob, SourcePartition } from '../run-source.ts';
import type { OtlpAssemblyStats } from './otlp-assembly-stats.ts';
import { TurnPacer } from './turn-pacer.ts';

/** What an OTLP message carries once decoded: its spans (own spans left out), and how many were ours. */
/** A message's spans (or GenAI log records), with how many of our own spans and of other log records were left out. */
export type DecodedSpans = { spans: OtlpSpan[]; ownSpans: number; ignoredLogRecords: number };

/** A message whose traces are open: it finishes once every trace it fed was closed and done. */
export type PendingMessage = {
  readonly message: MessageHandle;
  /** Traces this message fed that are still open. */
  openTraces: number;
  readonly work: Array<Promise<unknown>>;
  resolve(): void;
  reject(error: unknown): void;
};

/** What every claimed partition of the source shares: the config's words, the counters, the bound over all assemblies. */
export type OtlpAssembly = {
  readonly config: OtlpInputConfig;
  readonly now: () => number;
  readonly stats: OtlpAssemblyStats;
  readonly findingOptions: Parameters<typeof runsFromTrace>[1];
  /** Why a closed trace yielded no run, by reason. */
  readonly noRunDetails: Readonly<Partial<Record<SkipReason, string>>>;
  /** Open traces of every claimed partition. */
  openTraces(): number;
  /** Closes the oldest open traces of any partition until `opening` more fit within maxOpenTraces. */
  makeRoom(opening: number): void;
  /** The assemblies' sizes into the stats. */
  observe(): void;
  /** This partition's assembly joins the bound, until `leave`. */
  join(entry: AssemblyEntry): void;
  leave(entry: AssemblyEntry): void;
};

/** A claimed partition's assembly as the bound over all of them sees it. */
export type AssemblyEntry = { readonly assembler: TraceAssembler<PendingMessage>; closeOldest(): void };

export function createOtlpPartition(assembly: OtlpAssembly, perform: PerformJob): SourcePartition<DecodedSpans> {
  const { config, now, stats } = assembly;
  const assembler = new TraceAssembler<PendingMessage>(config, isAgentSpan);
  const pending = new Set<PendingMessage>();
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  // Traces close only once the work of those closed before has all started: held while the pacer is busy.
  let closingHeld = false;
  const pacer = new TurnPacer(() => {
    if (!closingHeld) return;
    closingHeld = false;
    schedule();
  });
  const entry: AssemblyEntry = {
    assembler,
    closeOldest() {
      const oldest = assembler.closeOldest();
      if (oldest !== undefined) settle(oldest);
    },
  };
  assembly.join(entry);

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
    if (pacer.busy) {
      closingHeld = true;
      return;
    }
    for (const trace of assembler.closeDue(now())) settle(trace);
    assembly.observe();
    schedule();
  }

  /** A closed trace: its work starts now or within a few turns of the event loop; each of its messages finishes when all its traces' work is done. */
  const settle = (trace: ClosedTrace<PendingMessage>) => {
    stats.tracesClosed[trace.reason] += 1;
    const work = pacer.start(() => completeTrace(trace), () => ended);
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
      const spans = spansWithLogRecords(trace, stats);
      // Only log records, whose spans never came: nothing to score or decide.
      if (spans.length === 0) return Promise.resolve();
      const runs = runsFromTrace(spans, assembly.findingOptions);
      if (runs.length === 1) return scoreRun(runs[0]!, trace);
      if (runs.length > 1) return Promise.all(runs.map((run) => scoreRun(run, trace)));
      const first = trace.owners[0]!.message;
      const reason: SkipReason = trace.reason === 'overflow' ? 'assembly_overflow' : trace.rootArrived ? 'not_an_agent_trace' : 'incomplete_trace';
      countWithoutRun(stats, reason);
      return perform({ kind: 'no-run', traceId: trace.traceId, reason, detail: assembly.noRunDetails[reason] ?? reason, source: first.source }, first);
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
      countWithoutRun(stats, 'incomplete_trace');
      return perform({ kind: 'no-run', traceId: trace.traceId, reason: 'incomplete_trace', detail: `the agent span's run (${run.event.runId}) is not a valid run event: ${problems}`, source: owner.source }, owner);
    }
    stats.runsAssembled += 1;
    // Scored all the same (code scorers may not need the part); each record carries `missing` and goes with its flag (the emitter).
    if (parsed.data.missing !== undefined) stats.runsMissingContent += 1;
    // The run's trace is the agent span's own: its score spans become the agent span's children.
    // Its time began when the trace's first spans arrived; its assembly (the grace, the pacer's turn) ends as the job starts.
    return perform({ kind: 'run', event: parsed.data, trace: spanTraceContext(run.agentSpan), source: owner.source, assembled: { first: trace.owners[0]!.message.arrival } }, owner);
  };

  return {
    take(decoded, message) {
      const { spans } = decoded;
      countDecoded(stats, decoded);
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
      if (assembly.openTraces() + spans.length > config.maxOpenTraces) assembly.makeRoom(assembler.tracesToOpen(spans));
      const added = assembler.add(spans, owner, now());
      stats.lateSpans += added.lateSpans;
      owner.openTraces = added.openedOrJoined.length + added.overflowed.filter((closedTrace) => closedTrace.owners.includes(owner)).length;
      if (owner.openTraces === 0) resolve();
      else pending.add(owner);
      for (const closedTrace of added.overflowed) settle(closedTrace);
      assembly.observe();
      schedule();
      return done;
    },
    end() {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      assembly.leave(entry);
      stats.claimsEnded += 1;
      const dropped = new ClaimEndedError('the traces it fed were not complete');
      for (const owner of pending) owner.reject(dropped);
      pending.clear();
      assembly.observe();
    },
  };
}

/** A closed trace's spans with its log records on them (otlp-log-record.ts); the records without their span counted. */
function spansWithLogRecords(trace: ClosedTrace<PendingMessage>, stats: OtlpAssemblyStats): OtlpSpan[] {
  const { spans, orphans } = attachLogRecords(trace.spans);
  stats.orphanLogRecords += orphans;
  return spans;
}

/** A message's spans, or its log records (a logs message carries only records), and our own spans left out. */
function countDecoded(stats: OtlpAssemblyStats, decoded: DecodedSpans): void {
  if (decoded.spans.length > 0 && isLogRecordCarrier(decoded.spans[0]!)) stats.logRecords += decoded.spans.length;
  else stats.spans += decoded.spans.length;
  stats.ownSpans += decoded.ownSpans;
  stats.ignoredLogRecords += decoded.ignoredLogRecords;
}

function countWithoutRun(stats: OtlpAssemblyStats, reason: SkipReason): void {
  stats.tracesWithoutRun.set(reason, (stats.tracesWithoutRun.get(reason) ?? 0) + 1);
}

// The OTLP source (input.format 'otlp'): messages written by an OpenTelemetry Collector's kafka
// exporter are decoded into spans (src/engine/otlp/decode-otlp.ts; Scorestream's own spans left out),
// buffered per trace (src/engine/otlp/trace-assembler.ts) and, when a trace closes, turned into agent
// runs (src/engine/otlp/run-from-trace.ts), each scored as a run job whose trace context is its agent
// span's own. A trace that yields no run is decided (not_an_agent_trace, incomplete_trace,
// assembly_overflow) for every binding, with the trace id as run id. A run without a user message
// or a final answer is scored all the same, never silently: its event's `missing` goes into every
// record, and each record goes out with a `flagged` / `missing_content` decision (record-emitter.ts).
//
// State belongs to the claim (run-source.ts): one assembly per claimed partition
// (otlp/otlp-partition.ts; its trace work paced by otlp/turn-pacer.ts), ended with the
// claim — a rebalance, a new join, an exactly-once transaction that failed and reset the
// partition — so it is always rebuilt from the partition's committed offset, never assumed. (Set
// the Collector's partition_traces_by_id: a trace whose spans land in two partitions is assembled
// in two parts; docs/otlp.md.)
//
// `maxOpenTraces` bounds the open traces of every claimed partition together: room for a new trace
// is made by closing the oldest open trace of any partition (assembly_overflow).
//
// Offsets: a message resolves only once every trace it contributed spans to was closed and that
// trace's work — its runs scored and their records accepted, or its decisions — is done
// (otlp/otlp-partition.ts).
import type { OtlpInputConfig } from '../src/engine/config/input-schema.ts';
import type { SkipReason } from '../src/kit/contracts/decision-record.ts';
import { isScorestreamSpan } from '../src/engine/otlp/agent-spans.ts';
import { carriesGenAiContent, isLogRecordCarrier } from '../src/engine/otlp/otlp-log-record.ts';
import { decodeOtlpTraces } from '../src/engine/otlp/decode-otlp.ts';
import { decodeFailure } from '../src/kit/contracts/decode-record.ts';
import { OtlpAssemblyStats } from './otlp/otlp-assembly-stats.ts';
import { createOtlpPartition } from './otlp/otlp-partition.ts';
import type { AssemblyEntry, DecodedSpans, OtlpAssembly } from './otlp/otlp-partition.ts';
import type { RunSource } from './run-source.ts';

export { OtlpAssemblyStats } from './otlp/otlp-assembly-stats.ts';
export type { DecodedSpans } from './otlp/otlp-partition.ts';
export { STARTED_PER_TURN } from './otlp/turn-pacer.ts';

export type OtlpSourceOptions = {
  config: OtlpInputConfig;
  /** Clock of the assembly's grace periods and timeouts (default Date.now). */
  now?: () => number;
  stats?: OtlpAssemblyStats;
};

export type OtlpSource = RunSource<DecodedSpans> & { readonly stats: OtlpAssemblyStats };

/** What the claimed partitions share: the config's words said once, the counters, and `maxOpenTraces` over all of them. */
function createAssembly(options: OtlpSourceOptions): OtlpAssembly {
  const { config } = options;
  const stats = options.stats ?? new OtlpAssemblyStats();
  /** Every claimed partition's assembly: `maxOpenTraces` bounds them together. */
  const live = new Set<AssemblyEntry>();
  const noRunDetails = {
    assembly_overflow: `closed to stay within maxOpenTraces (${config.maxOpenTraces}) / maxSpansPerTrace (${config.maxSpansPerTrace}) before an agent span arrived`,
    incomplete_trace: `no root or agent span arrived within idleTimeoutMs (${config.idleTimeoutMs})`,
    not_an_agent_trace: `the trace has no agent span (GenAI invoke_agent, OpenInference AGENT, OpenLLMetry agent, ai.generateText / ai.streamText)${config.rootSpanRuns ? ' and its root span holds no model call' : ', and rootSpanRuns is off'}`,
  } as const satisfies Partial<Record<SkipReason, string>>;
  return {
    config,
    now: options.now ?? Date.now,
    stats,
    findingOptions: { nestedAgents: config.nestedAgents, rootSpanRuns: config.rootSpanRuns },
    noRunDetails,
    openTraces() {
      let open = 0;
      for (const entry of live) open += entry.assembler.openTraces;
      return open;
    },
    makeRoom(opening) {
      for (;;) {
        let open = 0;
        let oldest: AssemblyEntry | undefined;
        for (const entry of live) {
          open += entry.assembler.openTraces;
          const openedAt = entry.assembler.oldestOpenedAt();
          if (openedAt !== undefined && (oldest === undefined || openedAt < oldest.assembler.oldestOpenedAt()!)) oldest = entry;
        }
        if (open + opening <= config.maxOpenTraces || oldest === undefined) return;
        oldest.closeOldest();
      }
    },
    observe() {
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
    },
    join: (entry) => void live.add(entry),
    leave: (entry) => void live.delete(entry),
  };
}

export function createOtlpSource(options: OtlpSourceOptions): OtlpSource {
  const assembly = createAssembly(options);
  const { config, stats } = assembly;
  return {
    name: 'otlp',
    stats,
    decode(value) {
      if (value === null) return decodeFailure('invalid_otlp', 'the message has no value (a tombstone)');
      const decoded = decodeOtlpTraces(value, config.encoding);
      if (!decoded.success) return decoded;
      const spans = decoded.data.filter((span) => !isScorestreamSpan(span));
      // A logs message's records that carry no GenAI content (the app's own log lines) go no further.
      const kept = spans.length > 0 && isLogRecordCarrier(spans[0]!) ? spans.filter(carriesGenAiContent) : spans;
      return { success: true, data: { spans: kept, ownSpans: decoded.data.length - spans.length, ignoredLogRecords: spans.length - kept.length } };
    },
    claim: (perform) => createOtlpPartition(assembly, perform),
  };
}

// The throughput scenarios of the pipeline benchmark (pipeline.bench.ts), in interleaved rounds:
// each round runs every scenario once, in an order rotated every round, each on a broker that
// finished with the one before, so that machine noise hits them alike; the report reads medians.
// The first scenario is itself the target ratios' sides back to back.
import { DEFAULTS } from '../../src/engine/config/defaults.ts';
import type { BenchContext } from './bench-context.ts';
import { untilBrokerQuiet } from './cpu-usage.ts';
import type { FloorsResult } from './floors.ts';
import type { Throughput } from './measurement.ts';
import { nodeFlag, ownHeapGrowthFlag, shippedNodeFlags, whatIfNodeFlags } from './node-flags.ts';
import type { OtlpAloneResult } from './otlp-alone.ts';
import { runPassthrough } from './passthrough.ts';
import type { PipelineAloneResult } from './pipeline-alone.ts';
import { runPlatformaticPassthrough } from './platformatic-passthrough.ts';
import { micros, progress, rate } from './progress-lines.ts';
import type { TracedRun } from './report.ts';
import type { ServiceThroughput } from './scorestream-run.ts';

/** Every round's result of each scenario, in round order. */
export type RoundResults = {
  passthrough: Throughput[];
  passthroughFanOut: Throughput[];
  platformaticPassthrough: Throughput[];
  codeKafkajs: ServiceThroughput[];
  requiredWork: Throughput[];
  code: ServiceThroughput[];
  codeNoOp: ServiceThroughput[];
  codeFlagged: ServiceThroughput[];
  pipelineAlone: PipelineAloneResult[];
  otlpAlone: OtlpAloneResult[];
  floors: FloorsResult[];
  traced: TracedRun[];
  tracedWithFunctionSteps: TracedRun[];
  tracedRecordedOnly: TracedRun[];
  tracedOwnHeapGrowth: TracedRun[];
};

type Scenario = () => Promise<void>;

export async function runRounds(context: BenchContext): Promise<RoundResults> {
  const results: RoundResults = {
    passthrough: [],
    passthroughFanOut: [],
    platformaticPassthrough: [],
    codeKafkajs: [],
    requiredWork: [],
    code: [],
    codeNoOp: [],
    codeFlagged: [],
    pipelineAlone: [],
    otlpAlone: [],
    floors: [],
    traced: [],
    tracedWithFunctionSteps: [],
    tracedRecordedOnly: [],
    tracedOwnHeapGrowth: [],
  };
  for (let round = 0; round < context.sizes.rounds; round += 1) {
    const scenarios = [targetSides(context, results, round), ...otherScenarios(context, results, round)];
    // Rotate the order each round so no scenario always runs first (or right after another).
    for (let index = 0; index < scenarios.length; index += 1) {
      await quietBroker(context);
      await scenarios[(index + round) % scenarios.length]!();
    }
  }
  return results;
}

/** A service child with tracing on, and what the sink received from it meanwhile. */
async function tracedRun(context: BenchContext, name: string, tracing: 'on' | 'with-function-step-spans' | 'recorded-only', nodeFlags = shippedNodeFlags): Promise<TracedRun> {
  const { sink, base, size, childResult } = context;
  const before = sink.received();
  const result = await childResult({ ...base(name), kind: 'code', scorers: 'text', tracing, otlpUrl: sink.url, ...size }, nodeFlags);
  const after = sink.received();
  // The child flushed before it answered: what the sink holds is what was exported.
  return { throughput: result.throughput, tracing: { ended: result.tracing!.ended, exported: after.spans - before.spans }, sinkBytes: after.bytes - before.bytes };
}

/** Each Kafka scenario starts on a broker that finished with the one before (cpu-usage.ts untilBrokerQuiet). */
async function quietBroker(context: BenchContext): Promise<void> {
  const { broker } = context;
  const waitedMs = await untilBrokerQuiet(broker.pid);
  if (waitedMs > 1_000) progress(`(the broker was busy for ${(waitedMs / 1000).toFixed(1)} s after the scenario before)`);
}

function targetSides(context: BenchContext, results: RoundResults, round: number): Scenario {
  const { kafka, sizes, topics, outputs, prefix, base, size, childResult } = context;
  const { passthrough, code, traced, tracedRecordedOnly, requiredWork } = results;
  const passthroughOutputs = outputs.passthrough;
  const requiredWorkOutputs = outputs.requiredWork;
  return async () => {
    // The targets' three ratios' sides back to back — (c) between (a) and (c+tracing), the order
    // reversed every other round — so that each round's (c)/(a) and tracing cost compare runs
    // a few seconds apart: this machine's speed drifts by a third between scenarios otherwise
    // (one full run put (c) and (c+tracing) in different phases and read tracing's cost as 0.2%).
    // (m), the required work alone, runs beside (a), so (m)/(a) — the floor (c)/(a) is read
    // against — compares runs a few seconds apart too.
    const passthroughRun = async () => {
      const result = await runPassthrough({ kafka, inputTopic: topics.runs, outputTopic: passthroughOutputs[round]!, groupId: `${prefix}-a${round}`, partitions: sizes.partitions, ...size });
      passthrough.push(result);
      progress(`round ${round + 1} (a) passthrough: ${rate(result)}`);
    };
    const codeRun = async () => {
      const { throughput } = await childResult({ ...base(`c${round}`), kind: 'code', scorers: 'text', tracing: 'off', ...size });
      code.push(throughput);
      progress(`round ${round + 1} (c) Scorestream: ${rate(throughput)}`);
    };
    const tracedCodeRun = async () => {
      const run = await tracedRun(context, `ct${round}`, 'on');
      traced.push(run);
      progress(`round ${round + 1} (c+tracing): ${rate(run.throughput)}, ${run.tracing.exported} of ${run.tracing.ended} spans exported`);
    };
    // Tracing's cost split in two, beside (c) too: the contract's spans recorded and dropped at
    // their end (no export), so that each round reads what recording them costs and what
    // exporting them adds.
    const recordedOnlyRun = async () => {
      const run = await tracedRun(context, `cr${round}`, 'recorded-only');
      tracedRecordedOnly.push(run);
      progress(`round ${round + 1} (c+tracing) recorded only: ${rate(run.throughput)}, ${run.tracing.ended} spans ended, ${run.tracing.exported} exported`);
    };
    const requiredWorkRun = async () => {
      const { throughput } = await childResult({ ...base(`m${round}`), kind: 'required-work', outputTopic: requiredWorkOutputs[round]!, warmUpEvents: size.warmUpEvents, targetEvents: size.targetEvents });
      requiredWork.push(throughput);
      progress(`round ${round + 1} (m) the required work by hand: ${rate(throughput)}`);
    };
    for (const run of round % 2 === 0 ? [requiredWorkRun, passthroughRun, codeRun, tracedCodeRun, recordedOnlyRun] : [recordedOnlyRun, tracedCodeRun, codeRun, passthroughRun, requiredWorkRun]) {
      await quietBroker(context);
      await run();
    }
  };
}

/** The other scenarios of a round, in the order the rotation starts from. */
function otherScenarios(context: BenchContext, results: RoundResults, round: number): Scenario[] {
  const { kafka, broker, sizes, topics, outputs, prefix, base, size, childResult } = context;
  const { platformaticPassthrough, codeKafkajs, passthroughFanOut, codeNoOp, pipelineAlone, otlpAlone, floors, codeFlagged, tracedWithFunctionSteps, tracedOwnHeapGrowth } = results;
  const platformaticOutputs = outputs.platformatic;
  const fanOutOutputs = outputs.fanOut;
  /** A score record of the three code scorers on the sample runs is ~910 bytes of JSON (measured). */
  const scoreRecordBytes = 910;
  return [
    async () => {
      const result = await runPlatformaticPassthrough({ brokers: broker.brokers, inputTopic: topics.runs, outputTopic: platformaticOutputs[round]!, groupId: `${prefix}-ap${round}`, ...size });
      platformaticPassthrough.push(result);
      progress(`round ${round + 1} (a-p) platformatic passthrough: ${rate(result)}`);
    },
    async () => {
      const { throughput } = await childResult({ ...base(`ck${round}`), kind: 'code', scorers: 'text', tracing: 'off', kafkaClient: 'kafkajs', ...size });
      codeKafkajs.push(throughput);
      progress(`round ${round + 1} (c-k) Scorestream on kafkajs: ${rate(throughput)}`);
    },
    async () => {
      const result = await runPassthrough({
        kafka,
        inputTopic: topics.runs,
        outputTopic: fanOutOutputs[round]!,
        groupId: `${prefix}-a3${round}`,
        partitions: sizes.partitions,
        fanOut: { recordsPerEvent: 3, recordBytes: scoreRecordBytes },
        ...size,
      });
      passthroughFanOut.push(result);
      progress(`round ${round + 1} (a3) passthrough, 3 records per event: ${rate(result)}`);
    },
    async () => {
      const { throughput } = await childResult({ ...base(`c0${round}`), kind: 'code', scorers: 'no-op', tracing: 'off', ...size });
      codeNoOp.push(throughput);
      progress(`round ${round + 1} (c0) Scorestream, no-op scorers: ${rate(throughput)}`);
    },
    async () => {
      const { result } = await childResult({ kind: 'pipeline-alone', poolEvents: sizes.poolEvents, passes: 3, inFlight: DEFAULTS.runsInFlight });
      pipelineAlone.push(result);
      progress(`round ${round + 1} (p) pipeline without Kafka: ${rate(result)}, ${result.records} records, ${result.failedRecords} failed`);
    },
    async () => {
      // A quarter of the pool's count of runs (ten traces each), four counted passes of (o) in turn
      // with four of (p) over as many runs (otlp-alone.ts): long enough (about 4 s of (o) in full
      // mode) that one major GC more or less does not decide (o)/(p), and both under the same drift.
      const { result } = await childResult({ kind: 'otlp-alone', runs: Math.max(1, Math.round(sizes.poolEvents / 4)), passes: 5, inFlight: DEFAULTS.runsInFlight });
      otlpAlone.push(result);
      progress(`round ${round + 1} (o) OTLP input without Kafka: ${Math.round(result.runsPerSecond)} assembled runs/s (${result.runs} runs from ${result.traces} traces in ${result.seconds.toFixed(1)} s), ${result.pairedRatio.toFixed(2)} × the ${Math.round(result.paired.runsPerSecond)} runs/s of (p) passes in turn with it`);
    },
    async () => {
      const { result } = await childResult({ kind: 'floors', poolEvents: sizes.poolEvents, passes: 3, tracedEvents: Math.min(2_000, sizes.poolEvents) });
      floors.push(result);
      progress(`round ${round + 1} (f) floors: decode ${micros(result.decodeSeconds)}, scorers ${micros(result.scorersSeconds)}, records ${micros(result.recordsSeconds)} per event; OTLP ${(result.spans.serializeSecondsPerSpan * 1e6).toFixed(1)} µs per span`);
    },
    async () => {
      const { throughput } = await childResult({ ...base(`cf${round}`), kind: 'code', scorers: 'text', tracing: 'off', ...size }, whatIfNodeFlags);
      codeFlagged.push(throughput);
      progress(`round ${round + 1} (c) with ${nodeFlag}: ${rate(throughput)}`);
    },
    async () => {
      const run = await tracedRun(context, `cs${round}`, 'with-function-step-spans');
      tracedWithFunctionSteps.push(run);
      progress(`round ${round + 1} (c+tracing) with function step spans: ${rate(run.throughput)}, ${run.tracing.exported} of ${run.tracing.ended} spans exported`);
    },
    async () => {
      const run = await tracedRun(context, `cg${round}`, 'on', [...shippedNodeFlags, ownHeapGrowthFlag]);
      tracedOwnHeapGrowth.push(run);
      progress(`round ${round + 1} (c+tracing) with ${ownHeapGrowthFlag}: ${rate(run.throughput)}, peak RSS ${run.throughput.peakRssMb.toFixed(0)} MB`);
    },
  ];
}

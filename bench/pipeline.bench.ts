// The streaming pipeline benchmark: Scorestream against its baselines in one run, on one broker,
// over the same events. Scenarios (docs/benchmarks.md says more; the code is in bench/pipeline/):
//   (a) kafkajs consume → produce passthrough: this client's ceiling here; (a3) the same
//       producing the service's output volume (three score-record-sized records per event);
//   (b) a naive consumer: one message at a time, scorers in turn, one awaited send per record;
//   (c) the service with three code scorers; (c+tracing) the same with the OTel SDK exporting;
//   (c0) the service with three scorers that do no work: the pipeline's own cost;
//   (p) the service's per-message work without Kafka (one thread's scoring rate);
//   (o) the same for the OTLP input: spans decoded and assembled into runs (assembled runs/s);
//   latency of (c) at half its peak rate; (d) one 200 ms judge scorer, C concurrent calls,
//   draining a 200,000-event backlog with RSS sampled.
// (a), (c), (c+tracing) run in interleaved rounds so machine noise hits them alike; the
// service scenarios each run in a fresh child process. Two "what if" rows back the proposals
// in the report: (c+tracing) with a span for every function step too (SCORESTREAM_TRACE_FUNCTION_STEPS),
// and (c)/(d) with the smaller V8 young generation shipped before.
// Usage: node bench/pipeline.bench.ts [--quick] [--profile]     (npm run bench:pipeline)
//        KAFKA_BROKERS=host:port to use an existing broker (its bench-* topics are deleted after).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { DEFAULTS } from '../src/engine/config/defaults.ts';
import { createEventPool } from './pipeline/bench-events.ts';
import { parseBenchOptions } from './pipeline/bench-options.ts';
import { createCodeScorers } from './pipeline/bench-scorers.ts';
import { startChild } from './pipeline/child-protocol.ts';
import { untilBrokerQuiet } from './pipeline/cpu-usage.ts';
import type { ChildBase, ChildResult, ChildSpec } from './pipeline/child-protocol.ts';
import { describeMachine } from './pipeline/machine-info.ts';
import type { Throughput } from './pipeline/measurement.ts';
import { runNaiveConsumer } from './pipeline/naive-consumer.ts';
import { createPacedProducer } from './pipeline/paced-producer.ts';
import { runPassthrough } from './pipeline/passthrough.ts';
import { runPlatformaticPassthrough } from './pipeline/platformatic-passthrough.ts';
import type { FloorsResult } from './pipeline/floors.ts';
import type { PipelineAloneResult } from './pipeline/pipeline-alone.ts';
import type { OtlpAloneResult } from './pipeline/otlp-alone.ts';
import { startOtlpSink } from './pipeline/otlp-sink.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';
import { formatReport, median } from './pipeline/report.ts';
import type { BenchReport, TracedRun } from './pipeline/report.ts';
import type { ServiceThroughput } from './pipeline/scorestream-run.ts';

const sizes = parseBenchOptions(process.argv.slice(2));
const startedAt = performance.now();
const loadBefore = loadavg();
const timeoutMs = 180_000;
/**
 * Service children run with the Node flags the service ships with (scripts/node-flags, used by
 * bin/scorestream and the Dockerfile): a V8 young generation of 16 MB semi-spaces, large enough
 * that a scavenge does not come every few dozen events and copy the runs in flight each time. The
 * what-if rows run with the small one the service shipped before (4 MB), which a user can still
 * choose through NODE_OPTIONS, to show the trade: more garbage collection in (c) for less RSS in
 * (d). What the earlier what-ifs measured is in docs/benchmarks.md.
 */
const shippedNodeFlags = readFileSync(new URL('../scripts/node-flags', import.meta.url), 'utf8').trim().split(/\s+/);
const whatIfNodeFlags = ['--max-semi-space-size=4'];
/** The service's heap growth (service/heap-growth.ts) left to V8's own factor: the what-if of (c+tracing)'s memory. */
const ownHeapGrowthFlag = '--heap-growing-percent=0';
const nodeFlag = whatIfNodeFlags.join(' ');
/** A score record of the three code scorers on the sample runs is ~910 bytes of JSON (measured). */
const scoreRecordBytes = 910;
const progress = (line: string) => console.log(`· ${line}`);
const micros = (seconds: number) => `${Math.round(seconds * 1e6)} µs`;
const rate = (throughput: Pick<Throughput, 'eventsPerSecond' | 'events' | 'seconds'>) => `${Math.round(throughput.eventsPerSecond).toLocaleString('en-US')} events/s (${throughput.events} events in ${throughput.seconds.toFixed(1)} s)`;

async function childResult<Kind extends ChildResult['kind']>(spec: ChildSpec & { kind: Kind }, nodeFlags: string[] = shippedNodeFlags): Promise<Extract<ChildResult, { kind: Kind }>> {
  return (await startChild(spec, { ...sizes, nodeFlags }).result) as Extract<ChildResult, { kind: Kind }>;
}

const broker = await ensureLocalBroker({ ephemeral: true, onProgress: progress });
const sink = await startOtlpSink();
const kafka = quietKafka({ clientId: 'scorestream-bench', brokers: broker.brokers });
const prefix = `bench-${Date.now().toString(36)}`;
try {
  const topics = { runs: `${prefix}-runs`, backlog: `${prefix}-backlog`, latency: `${prefix}-latency`, naive: `${prefix}-b-out` };
  const passthroughOutputs = Array.from({ length: sizes.rounds }, (_, round) => `${prefix}-a${round}-out`);
  const platformaticOutputs = Array.from({ length: sizes.rounds }, (_, round) => `${prefix}-ap${round}-out`);
  const fanOutOutputs = Array.from({ length: sizes.rounds }, (_, round) => `${prefix}-a3${round}-out`);
  const requiredWorkOutputs = Array.from({ length: sizes.rounds }, (_, round) => `${prefix}-m${round}-out`);
  await createTopics(
    kafka,
    [topics.runs, topics.backlog, topics.latency, topics.naive, ...passthroughOutputs, ...platformaticOutputs, ...fanOutOutputs, ...requiredWorkOutputs].map((topic) => ({ topic, partitions: sizes.partitions })),
  );

  const pool = createEventPool(sizes.poolEvents);
  progress(`${sizes.poolEvents} events generated, ${Math.round(pool.averageBytes)} bytes each on average`);
  const producing = performance.now();
  await produceBacklog(kafka, { topic: topics.runs, count: sizes.poolEvents, message: pool.message });
  progress(`produced them to ${topics.runs} in ${((performance.now() - producing) / 1000).toFixed(1)} s`);

  const base = (name: string): ChildBase => ({ brokers: broker.brokers, brokerPid: broker.pid, runsTopic: topics.runs, outputPrefix: `${prefix}-${name}`, groupId: `${prefix}-${name}`, timeoutMs });
  const size = { warmUpEvents: sizes.warmUpEvents, targetEvents: sizes.targetEvents, timeoutMs, brokerPid: broker.pid };
  const passthrough: Throughput[] = [];
  const passthroughFanOut: Throughput[] = [];
  const platformaticPassthrough: Throughput[] = [];
  const codeKafkajs: ServiceThroughput[] = [];
  const requiredWork: Throughput[] = [];
  const code: ServiceThroughput[] = [];
  const codeNoOp: ServiceThroughput[] = [];
  const codeFlagged: ServiceThroughput[] = [];
  const pipelineAlone: PipelineAloneResult[] = [];
  const otlpAlone: OtlpAloneResult[] = [];
  const floors: FloorsResult[] = [];
  const traced: TracedRun[] = [];
  const tracedWithFunctionSteps: TracedRun[] = [];
  const tracedRecordedOnly: TracedRun[] = [];
  const tracedOwnHeapGrowth: TracedRun[] = [];
  const tracedRun = async (name: string, tracing: 'on' | 'with-function-step-spans' | 'recorded-only', nodeFlags = shippedNodeFlags): Promise<TracedRun> => {
    const before = sink.received();
    const result = await childResult({ ...base(name), kind: 'code', scorers: 'text', tracing, otlpUrl: sink.url, ...size }, nodeFlags);
    const after = sink.received();
    // The child flushed before it answered: what the sink holds is what was exported.
    return { throughput: result.throughput, tracing: { ended: result.tracing!.ended, exported: after.spans - before.spans }, sinkBytes: after.bytes - before.bytes };
  };
  /** Each Kafka scenario starts on a broker that finished with the one before (cpu-usage.ts untilBrokerQuiet). */
  const quietBroker = async () => {
    const waitedMs = await untilBrokerQuiet(broker.pid);
    if (waitedMs > 1_000) progress(`(the broker was busy for ${(waitedMs / 1000).toFixed(1)} s after the scenario before)`);
  };
  for (let round = 0; round < sizes.rounds; round += 1) {
    const scenarios = [
      async () => {
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
          const run = await tracedRun(`ct${round}`, 'on');
          traced.push(run);
          progress(`round ${round + 1} (c+tracing): ${rate(run.throughput)}, ${run.tracing.exported} of ${run.tracing.ended} spans exported`);
        };
        // Tracing's cost split in two, beside (c) too: the contract's spans recorded and dropped at
        // their end (no export), so that each round reads what recording them costs and what
        // exporting them adds.
        const recordedOnlyRun = async () => {
          const run = await tracedRun(`cr${round}`, 'recorded-only');
          tracedRecordedOnly.push(run);
          progress(`round ${round + 1} (c+tracing) recorded only: ${rate(run.throughput)}, ${run.tracing.ended} spans ended, ${run.tracing.exported} exported`);
        };
        const requiredWorkRun = async () => {
          const { throughput } = await childResult({ ...base(`m${round}`), kind: 'required-work', outputTopic: requiredWorkOutputs[round]!, warmUpEvents: size.warmUpEvents, targetEvents: size.targetEvents });
          requiredWork.push(throughput);
          progress(`round ${round + 1} (m) the required work by hand: ${rate(throughput)}`);
        };
        for (const run of round % 2 === 0 ? [requiredWorkRun, passthroughRun, codeRun, tracedCodeRun, recordedOnlyRun] : [recordedOnlyRun, tracedCodeRun, codeRun, passthroughRun, requiredWorkRun]) {
          await quietBroker();
          await run();
        }
      },
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
        const run = await tracedRun(`cs${round}`, 'with-function-step-spans');
        tracedWithFunctionSteps.push(run);
        progress(`round ${round + 1} (c+tracing) with function step spans: ${rate(run.throughput)}, ${run.tracing.exported} of ${run.tracing.ended} spans exported`);
      },
      async () => {
        const run = await tracedRun(`cg${round}`, 'on', [...shippedNodeFlags, ownHeapGrowthFlag]);
        tracedOwnHeapGrowth.push(run);
        progress(`round ${round + 1} (c+tracing) with ${ownHeapGrowthFlag}: ${rate(run.throughput)}, peak RSS ${run.throughput.peakRssMb.toFixed(0)} MB`);
      },
    ];
    // Rotate the order each round so no scenario always runs first (or right after another).
    for (let index = 0; index < scenarios.length; index += 1) {
      await quietBroker();
      await scenarios[(index + round) % scenarios.length]!();
    }
  }

  const naive = await runNaiveConsumer({
    kafka,
    inputTopic: topics.runs,
    outputTopic: topics.naive,
    groupId: `${prefix}-b`,
    scorers: createCodeScorers(),
    warmUpEvents: Math.min(200, sizes.warmUpEvents),
    targetEvents: sizes.targetEvents,
    maxSeconds: sizes.naiveMaxSeconds,
    timeoutMs,
    brokerPid: broker.pid,
  });
  progress(`(b) naive consumer: ${rate(naive)}`);

  const latencyRate = Math.round(median(code.map((run) => run.eventsPerSecond)) / 2);
  const latencyChild = startChild({ ...base('latency'), runsTopic: topics.latency, kind: 'latency' }, sizes);
  await Promise.race([latencyChild.ready, latencyChild.result]);
  const paced = await createPacedProducer(kafka, { topic: topics.latency, pool, eventsPerSecond: latencyRate });
  await paced.produceFor(sizes.latencyWarmUpSeconds);
  latencyChild.send({ command: 'measure-from', epochMs: Date.now() });
  const produced = await paced.produceFor(sizes.latencySeconds);
  latencyChild.send({ command: 'finish', produced });
  await paced.close();
  const latency = (await latencyChild.result) as Extract<ChildResult, { kind: 'latency' }>;
  progress(`latency at ${latencyRate} events/s: p50 ${latency.latency.p50Ms.toFixed(0)} ms, p99 ${latency.latency.p99Ms.toFixed(0)} ms`);

  const backlogProducing = performance.now();
  await produceBacklog(kafka, { topic: topics.backlog, count: sizes.backlogEvents, message: pool.message });
  progress(`backlog of ${sizes.backlogEvents} events produced in ${((performance.now() - backlogProducing) / 1000).toFixed(1)} s`);
  const judgeSpec = (name: string): Extract<ChildSpec, { kind: 'judge-backlog' }> => ({
    ...base(name),
    runsTopic: topics.backlog,
    kind: 'judge-backlog',
    judgeDelayMs: sizes.judgeDelayMs,
    judgeCallsPerModel: sizes.judgeCallsPerModel,
    runsInFlight: sizes.runsInFlight,
    warmUpSeconds: sizes.judgeWarmUpSeconds,
    seconds: sizes.judgeSeconds,
    rssIntervalMs: 250,
  });
  // As the service ships (scripts/node-flags), then with the what-if young generation: each from
  // a fresh group, so both face the whole backlog.
  const { result: judge } = await childResult(judgeSpec('d'));
  progress(`(d) judge: ${Math.round(judge.eventsPerSecond)} events/s, peak RSS ${judge.peakRssMb.toFixed(0)} MB`);
  const { result: judgeFlagged } = await childResult(judgeSpec('d-heap'), whatIfNodeFlags);
  progress(`(d) judge with ${nodeFlag}: ${Math.round(judgeFlagged.eventsPerSecond)} events/s, peak RSS ${judgeFlagged.peakRssMb.toFixed(0)} MB`);

  const report: BenchReport = {
    machine: describeMachine(broker),
    load: { before: loadBefore, after: loadavg() },
    sizes,
    passthrough,
    passthroughFanOut,
    platformaticPassthrough,
    codeKafkajs,
    requiredWork,
    naive,
    code,
    codeNoOp,
    codeFlagged: { flag: nodeFlag, runs: codeFlagged },
    pipelineAlone,
    otlpAlone,
    floors,
    traced,
    tracedWithFunctionSteps,
    tracedRecordedOnly,
    tracedOwnHeapGrowth: { flag: ownHeapGrowthFlag, runs: tracedOwnHeapGrowth },
    latency: { eventsPerSecond: latencyRate, result: latency.latency },
    judge,
    judgeFlagged: { flag: nodeFlag, result: judgeFlagged },
    seconds: (performance.now() - startedAt) / 1000,
  };
  console.log('');
  for (const line of formatReport(report)) console.log(line);
  if (sizes.profileDirectory !== undefined) console.log(`CPU profiles of the service children: ${sizes.profileDirectory} (summarise: node bench/pipeline/profile-summary.ts ${sizes.profileDirectory})`);
} finally {
  await sink.close();
  // A broker of our own goes away whole; on a KAFKA_BROKERS one, remove what we created (the
  // backlog alone is ~700 MB).
  if (broker.mode === 'env') await deleteTopicsWithPrefix(kafka, prefix).catch((error: unknown) => progress(`could not delete the benchmark's topics (${prefix}-*): ${String(error)}`));
  await broker.stop();
}

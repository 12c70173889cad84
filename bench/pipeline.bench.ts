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
//
// The scenarios' code: bench/pipeline/interleaved-rounds.ts (the rounds), latency-scenario.ts,
// judge-scenario.ts, naive-consumer.ts; what they share is bench-context.ts.
import { loadavg } from 'node:os';
import { ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { childRunner } from './pipeline/bench-context.ts';
import type { BenchContext } from './pipeline/bench-context.ts';
import { createEventPool } from './pipeline/bench-events.ts';
import { parseBenchOptions } from './pipeline/bench-options.ts';
import { createCodeScorers } from './pipeline/bench-scorers.ts';
import type { ChildBase } from './pipeline/child-protocol.ts';
import { runRounds } from './pipeline/interleaved-rounds.ts';
import { runJudgeBacklog } from './pipeline/judge-scenario.ts';
import { measureJudgedLatency, measureLatency } from './pipeline/latency-scenario.ts';
import { describeMachine } from './pipeline/machine-info.ts';
import { runNaiveConsumer } from './pipeline/naive-consumer.ts';
import { nodeFlag, ownHeapGrowthFlag } from './pipeline/node-flags.ts';
import { startOtlpSink } from './pipeline/otlp-sink.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';
import { progress, rate } from './pipeline/progress-lines.ts';
import { formatReport } from './pipeline/report.ts';
import type { BenchReport } from './pipeline/report.ts';

const sizes = parseBenchOptions(process.argv.slice(2));
const startedAt = performance.now();
const loadBefore = loadavg();
const timeoutMs = 180_000;

const childResult = childRunner(sizes);

const broker = await ensureLocalBroker({ ephemeral: true, onProgress: progress });
const sink = await startOtlpSink();
const kafka = quietKafka({ clientId: 'scorestream-bench', brokers: broker.brokers });
const prefix = `bench-${Date.now().toString(36)}`;
try {
  const topics = { runs: `${prefix}-runs`, backlog: `${prefix}-backlog`, latency: `${prefix}-latency`, latencyJudged: `${prefix}-latency-judged`, naive: `${prefix}-b-out` };
  const passthroughOutputs = Array.from({ length: sizes.rounds }, (_, round) => `${prefix}-a${round}-out`);
  const platformaticOutputs = Array.from({ length: sizes.rounds }, (_, round) => `${prefix}-ap${round}-out`);
  const fanOutOutputs = Array.from({ length: sizes.rounds }, (_, round) => `${prefix}-a3${round}-out`);
  const requiredWorkOutputs = Array.from({ length: sizes.rounds }, (_, round) => `${prefix}-m${round}-out`);
  await createTopics(
    kafka,
    [topics.runs, topics.backlog, topics.latency, topics.latencyJudged, topics.naive, ...passthroughOutputs, ...platformaticOutputs, ...fanOutOutputs, ...requiredWorkOutputs].map((topic) => ({ topic, partitions: sizes.partitions })),
  );

  const pool = createEventPool(sizes.poolEvents);
  progress(`${sizes.poolEvents} events generated, ${Math.round(pool.averageBytes)} bytes each on average`);
  const producing = performance.now();
  await produceBacklog(kafka, { topic: topics.runs, count: sizes.poolEvents, message: pool.message });
  progress(`produced them to ${topics.runs} in ${((performance.now() - producing) / 1000).toFixed(1)} s`);

  const base = (name: string): ChildBase => ({ brokers: broker.brokers, brokerPid: broker.pid, runsTopic: topics.runs, outputPrefix: `${prefix}-${name}`, groupId: `${prefix}-${name}`, timeoutMs });
  const size = { warmUpEvents: sizes.warmUpEvents, targetEvents: sizes.targetEvents, timeoutMs, brokerPid: broker.pid };
  const context: BenchContext = {
    sizes,
    broker,
    kafka,
    sink,
    pool,
    prefix,
    topics,
    outputs: { passthrough: passthroughOutputs, platformatic: platformaticOutputs, fanOut: fanOutOutputs, requiredWork: requiredWorkOutputs },
    timeoutMs,
    base,
    size,
    childResult,
  };
  const rounds = await runRounds(context);

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

  const latency = await measureLatency(context, rounds.code);
  const { judge, judgeFlagged } = await runJudgeBacklog(context);
  const judgedLatency = await measureJudgedLatency(context, judge);

  const report: BenchReport = {
    machine: describeMachine(broker),
    load: { before: loadBefore, after: loadavg() },
    sizes,
    passthrough: rounds.passthrough,
    passthroughFanOut: rounds.passthroughFanOut,
    platformaticPassthrough: rounds.platformaticPassthrough,
    codeKafkajs: rounds.codeKafkajs,
    requiredWork: rounds.requiredWork,
    naive,
    code: rounds.code,
    codeNoOp: rounds.codeNoOp,
    codeFlagged: { flag: nodeFlag, runs: rounds.codeFlagged },
    pipelineAlone: rounds.pipelineAlone,
    otlpAlone: rounds.otlpAlone,
    floors: rounds.floors,
    traced: rounds.traced,
    tracedWithFunctionSteps: rounds.tracedWithFunctionSteps,
    tracedRecordedOnly: rounds.tracedRecordedOnly,
    tracedOwnHeapGrowth: { flag: ownHeapGrowthFlag, runs: rounds.tracedOwnHeapGrowth },
    latency,
    judgedLatency,
    judge,
    judgeFlagged,
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

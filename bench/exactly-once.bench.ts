// Exactly-once's two transaction layouts at the Kafka level, on the shipped client, in one run on
// one throwaway broker: (A) today's transactional producer per input partition against (B) one
// producer per instance committing offsets under the consumer's group metadata (KIP-447, as Kafka
// Streams' exactly-once v2). The same scenario for both: an input topic pre-filled with small JSON
// records, a consumer in a fresh group reading it through the layout's sink on the service's
// cadence, one output record per input record, records and offsets in transactions. After one
// unmeasured run of each, rounds alternate A B / B A; every run is checked (offsets committed, each output record visible once to a
// read_committed reader) outside its clock. Prints every run, the medians and B / A; no asserts on
// timings. docs/benchmarks.md (the exactly-once section) holds the figures and what they decided.
//   node bench/exactly-once.bench.ts [--quick] [--records 60000] [--partitions 6] [--rounds 3]
//   KAFKA_BROKERS=host:port to use an existing broker (its bench-eos-* topics are deleted after).
// The parts: bench/exactly-once/ — layouts.ts (A and B as sinks), consume-through-sink.ts (one run).
import { KAFKA_VERSION, ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { countClientRetries } from './exactly-once/client-retries.ts';
import { consumeThroughSink } from './exactly-once/consume-through-sink.ts';
import { parseExactlyOnceOptions } from './exactly-once/exactly-once-options.ts';
import { formatReport } from './exactly-once/exactly-once-report.ts';
import type { RunResult } from './exactly-once/exactly-once-report.ts';
import { layoutTitles, layoutUnderTest } from './exactly-once/layouts.ts';
import type { LayoutName } from './exactly-once/layouts.ts';
import { recordsOn, verifyOutput } from './exactly-once/verify-output.ts';
import { untilBrokerQuiet } from './pipeline/cpu-usage.ts';
import { describeMachine } from './pipeline/machine-info.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';
import { progress } from './pipeline/progress-lines.ts';

const options = parseExactlyOnceOptions(process.argv.slice(2));
const broker = await ensureLocalBroker({ ephemeral: true, onProgress: progress });
const kafka = quietKafka({ clientId: 'scorestream-bench-eos', brokers: broker.brokers });
const connection = { clientId: 'scorestream-bench-eos', bootstrapBrokers: broker.brokers };
const prefix = `bench-eos-${Date.now().toString(36)}`;
const inputTopic = `${prefix}-input`;
const order = (round: number): LayoutName[] => (round % 2 === 0 ? ['A', 'B'] : ['B', 'A']);
try {
  const rounds = Array.from({ length: options.rounds }, (_, round) => round);
  const outputTopics = [...order(0).map((layout) => `${prefix}-warm-up-${layout.toLowerCase()}-output`), ...rounds.flatMap((round) => order(round).map((layout) => `${prefix}-r${round}-${layout.toLowerCase()}-output`))];
  await createTopics(kafka, [inputTopic, ...outputTopics].map((topic) => ({ topic, partitions: options.partitions })));
  await produceBacklog(kafka, {
    topic: inputTopic,
    count: options.records,
    message: (index) => ({ key: `run-${index}`, value: JSON.stringify({ runId: `run-${index}`, agent: 'bench', output: 'a short answer' }), partition: index % options.partitions }),
  });
  // The filling producer is not idempotent (produce-backlog.ts): on a busy machine its retries write
  // some records twice, so the runs go by what the topic holds.
  const records = await recordsOn(kafka, inputTopic);
  progress(`${records} records on ${inputTopic} (${options.partitions} partitions)${records === options.records ? '' : `: ${records - options.records} written twice by the filling producer's retries`}`);

  /** One run of a layout, checked; `round` undefined: the warm-up, not counted. */
  const runLayout = async (layout: LayoutName, round: number | undefined): Promise<Omit<RunResult, 'round' | 'layout'>> => {
    await untilBrokerQuiet(broker.pid);
    const name = `${prefix}-${round === undefined ? 'warm-up' : `r${round}`}-${layout.toLowerCase()}`;
    const output = `${name}-output`;
    const underTest = layoutUnderTest(layout, { connection, groupId: name, pressureThreshold: Math.max(1, Math.floor(options.runsInFlight / 2)) });
    const counting = countClientRetries();
    const run = await consumeThroughSink({ ...options, records, connection, inputTopic, outputTopic: output, groupId: name, stats: underTest.stats, sink: underTest.sink });
    const retries = counting.stop();
    await verifyOutput(connection, output, records);
    const transactions = underTest.timings.summary();
    const what = round === undefined ? 'warm-up (not counted)' : `round ${round}`;
    progress(`${what} ${layoutTitles[layout]}: ${Math.round(run.recordsPerSecond).toLocaleString('en-US')} records/s, ${transactions.transactions} transactions, txn p50 ${transactions.totalMs.p50.toFixed(1)} ms p99 ${transactions.totalMs.p99.toFixed(1)} ms`);
    return { run, transactions, retries };
  };

  // The first run of each layout pays for compiling its code and for the broker's first transactions.
  for (const layout of order(0)) await runLayout(layout, undefined);
  const results: RunResult[] = [];
  for (const round of rounds) {
    for (const layout of order(round)) {
      results.push({ round, layout, ...(await runLayout(layout, round)) });
    }
  }
  console.log('');
  // describeMachine's own Kafka line names kafkajs, which this benchmark does not use.
  const kafkaLine = broker.mode === 'env' ? `kafka:   KAFKA_BROKERS=${broker.brokers.join(',')}` : `kafka:   Apache Kafka ${KAFKA_VERSION}, single node on this machine (${broker.mode})`;
  for (const line of formatReport({ ...options, records }, [...describeMachine(broker).slice(0, 2), kafkaLine], results)) console.log(line);
} finally {
  if (broker.mode === 'env') await deleteTopicsWithPrefix(kafka, prefix).catch((error: unknown) => progress(`could not delete the benchmark's topics (${prefix}-*): ${String(error)}`));
  await broker.stop();
}

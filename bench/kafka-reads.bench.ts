// Group-less reads against the throwaway-group readers they replace, in the same run, on the same
// broker and topics: (1) reading one message back by its position — createMessageFetcher
// (bench/kafka-reads/throwaway-group-fetch.ts: kafkajs, a consumer group joined and deleted per read) against
// fetchAt (kafka/fetch-at.ts: one fetch request) — as p50 / p95 over `--reads` reads each,
// interleaved; (2) reading a compacted changelog partition of `--records` records (written in
// transactions of 100, so commit markers lie between them) to its end — readChangelogPartition
// against readRange(until: 'end-at-start') — over `--rounds` interleaved rounds after one unmeasured
// round each (the first read of each kind pays for compiling its code).
// Prints a Markdown table with ratios (old / new).
//   node bench/kafka-reads.bench.ts [--reads 30] [--records 5000] [--rounds 10]
//   KAFKA_BROKERS=127.0.0.1:39092 node bench/kafka-reads.bench.ts
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createFetchAt } from '../kafka/fetch-at.ts';
import { createMessageFetcher } from './kafka-reads/throwaway-group-fetch.ts';
import { readChangelogPartition } from './kafka-reads/throwaway-group-changelog.ts';
import { readRange } from '../kafka/read-range.ts';
import { ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';

const { values } = parseArgs({ options: { reads: { type: 'string', default: '30' }, records: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '10' } } });
const readCount = Math.max(1, Number(values.reads));
const recordCount = Math.max(1, Number(values.records));
const rounds = Math.max(1, Number(values.rounds));
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The value at quantile `q` of `samples` (nearest rank). */
function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const broker = await ensureLocalBroker({ ephemeral: true });
const kafka = quietKafka({ clientId: 'scorestream-bench-reads', brokers: broker.brokers });
const connection = { clientId: 'scorestream-bench-reads', bootstrapBrokers: broker.brokers };
const logger = pino({ level: 'silent' });
const prefix = `bench-reads-${Date.now().toString(36)}`;
const runsTopic = `${prefix}-runs`;
const changelogTopic = `${prefix}-changelog`;
try {
  await createTopics(kafka, [{ topic: runsTopic, partitions: 1 }]);
  const runCount = 200;
  await produceBacklog(kafka, { topic: runsTopic, count: runCount, message: (index) => ({ key: `run-${index}`, value: JSON.stringify({ runId: `run-${index}`, output: 'x'.repeat(400) }) }) });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic: changelogTopic, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }] });
  await admin.disconnect();
  const producer = kafka.producer({ transactionalId: `${prefix}-writer`, idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  for (let start = 0; start < recordCount; start += 100) {
    const transaction = await producer.transaction();
    const size = Math.min(100, recordCount - start);
    await transaction.send({ topic: changelogTopic, messages: Array.from({ length: size }, (_, index) => ({ key: `thread-${start + index}`, value: JSON.stringify({ turns: start + index, state: 'y'.repeat(200) }) })) });
    await transaction.commit();
  }
  await producer.disconnect();
  log(`wrote ${runCount} runs to ${runsTopic} and ${recordCount} changelog records to ${changelogTopic}`);

  // (1) One message back by position.
  const oldFetch = createMessageFetcher(kafka, { groupPrefix: `${prefix}.run-fetch-`, logger });
  const reader = createFetchAt(connection);
  const position = (index: number) => ({ topic: runsTopic, partition: 0, offset: String((index * 37) % runCount) });
  const check = (found: { found: boolean }) => {
    if (!found.found) throw new Error('a run was not read back');
  };
  // Warm-up: connections, metadata, the group coordinator.
  check(await oldFetch(position(0)));
  check(await reader.fetchAt(position(0)));
  const oldReads: number[] = [];
  const newReads: number[] = [];
  for (let index = 1; index <= readCount; index += 1) {
    oldReads.push(await timed(async () => check(await oldFetch(position(index)))));
    newReads.push(await timed(async () => check(await reader.fetchAt(position(index)))));
  }
  await reader.close();
  log(`read ${readCount} runs back each way`);

  // (2) A compacted changelog partition to its end.
  const oldRestores: number[] = [];
  const newRestores: number[] = [];
  for (let round = 0; round <= rounds; round += 1) {
    let oldCount = 0;
    oldRestores.push(await timed(async () => (oldCount = await readChangelogPartition(kafka, { topic: changelogTopic, partition: 0, groupPrefix: `${prefix}.thread-restore-`, onRecord: () => undefined, logger }))));
    let newCount = 0;
    newRestores.push(
      await timed(async () => {
        const read = readRange(connection, { partitions: [{ topic: changelogTopic, partition: 0 }], from: 'beginning', until: 'end-at-start', onBatch: (_topic, _partition, messages) => void (newCount += messages.length) });
        await read.done;
      }),
    );
    if (oldCount !== recordCount || newCount !== recordCount) throw new Error(`round ${round}: the old reader read ${oldCount}, the new ${newCount} of ${recordCount} records`);
    log(`round ${round}${round === 0 ? ' (warm-up, not counted)' : ''}: old ${oldRestores.at(-1)?.toFixed(0)} ms, new ${newRestores.at(-1)?.toFixed(0)} ms`);
    if (round === 0) {
      oldRestores.pop();
      newRestores.pop();
    }
  }

  const ms = (value: number) => value.toFixed(1);
  const ratio = (old: number, current: number) => `${(old / current).toFixed(1)}×`;
  console.log(`\n# group-less reads vs throwaway groups (${readCount} reads by position; a ${recordCount}-record compacted partition, ${rounds} rounds)`);
  console.log('| measure | old p50 ms | old p95 ms | new p50 ms | new p95 ms | p50 old / new | p95 old / new |\n|---|---:|---:|---:|---:|---:|---:|');
  const row = (name: string, old: number[], current: number[]) =>
    console.log(`| ${name} | ${ms(quantile(old, 0.5))} | ${ms(quantile(old, 0.95))} | ${ms(quantile(current, 0.5))} | ${ms(quantile(current, 0.95))} | ${ratio(quantile(old, 0.5), quantile(current, 0.5))} | ${ratio(quantile(old, 0.95), quantile(current, 0.95))} |`);
  row('one message by position: createMessageFetcher → fetchAt', oldReads, newReads);
  row(`${recordCount}-record changelog partition to its end: readChangelogPartition → readRange`, oldRestores, newRestores);
} finally {
  await deleteTopicsWithPrefix(kafka, prefix).catch(() => undefined);
  await broker.stop();
}

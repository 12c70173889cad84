// `scorestream produce`: publishes agent runs to Kafka — generated sample traffic (`--sample`,
// each run in its own trace) or runs from a JSON Lines file (`--file`) — optionally paced to a
// rate. Brokers: --brokers, else KAFKA_BROKERS, else the local default broker (started if needed).
// Progress goes to stderr, the summary to stdout. Exit codes: 0 all sent, 1 failure or invalid
// lines in the file (the valid ones are still sent), 2 usage error or Kafka refusing access (TLS,
// SASL or ACL: KAFKA_SSL* and KAFKA_SASL_* are read as by the service), 130 interrupted.
import { access } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Context } from '@opentelemetry/api';
import { createKafkaEdge } from '../../kafka/kafka-edge.ts';
import { readRunLines } from '../../producers/read-run-lines.ts';
import { createRunPublisher, DEFAULT_RUNS_TOPIC } from '../../producers/run-publisher.ts';
import type { RunPublisher } from '../../producers/run-publisher.ts';
import type { PublishableRun } from '../../producers/run-validation.ts';
import { createSampleRunGenerator, sampleRunContext } from '../../producers/sample/index.ts';
import type { Problem } from '../../src/kit/contracts/problems.ts';
import { formatProblems } from '../../src/kit/contracts/problems.ts';
import { resolveCliBrokers } from '../brokers.ts';
import { kafkaSecurityFromEnvironment } from '../../kafka/kafka-security.ts';
import { explainKafkaError, kafkaPreflight } from '../../kafka/kafka-preflight.ts';
import { tlsOptions } from '../../kafka/service-access.ts';
import { kafkaAccessError } from '../../kafka/kafka-access-error.ts';

export const usage = `usage: scorestream produce --sample [--count N] [--seed S] [options]
       scorestream produce --file runs.jsonl [options]

  --sample        generate realistic agent runs, each with its own trace context
  --count N       how many sample runs (default 100)
  --seed S        sample seed, for the same runs again (default: random, printed)
  --file PATH     publish the runs of a JSON Lines file (one AgentRunEvent per line);
                  invalid lines are reported with their line numbers and skipped
  --rate R        runs per second (default: as fast as possible)
  --topic T       topic to publish to (default ${DEFAULT_RUNS_TOPIC}; created when missing)
  --partitions P  partitions when the topic is created (default 6)
  --brokers LIST  comma-separated bootstrap brokers (default KAFKA_BROKERS, else the local broker)`;

export type ProduceArgs = {
  source: { kind: 'sample'; count: number; seed: string } | { kind: 'file'; path: string };
  rate?: number;
  topic: string;
  partitions: number;
  brokers?: string;
};

const MAX_BATCH = 500;

function positiveNumber(name: string, text: string | undefined, integer: boolean): number | string | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    return `--${name} expects a positive ${integer ? 'integer' : 'number'}, got '${text}'`;
  }
  return value;
}

/** Parses and checks the arguments; `{ error }` for a usage error, `{ help: true }` for --help. */
export function parseProduceArgs(argv: string[], randomSeed: () => string = () => String(Date.now())): ProduceArgs | { error: string } | { help: true } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        sample: { type: 'boolean' },
        count: { type: 'string' },
        seed: { type: 'string' },
        file: { type: 'string' },
        rate: { type: 'string' },
        topic: { type: 'string' },
        partitions: { type: 'string' },
        brokers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (values.help === true) return { help: true };
  if ((values.sample === true) === (values.file !== undefined)) return { error: 'give exactly one of --sample or --file' };
  if (values.file !== undefined && (values.count !== undefined || values.seed !== undefined)) return { error: '--count and --seed only apply to --sample' };
  if (values.file === '') return { error: '--file expects a path' };
  if (values.topic === '') return { error: '--topic expects a topic name' };
  const count = positiveNumber('count', values.count, true);
  const rate = positiveNumber('rate', values.rate, false);
  const partitions = positiveNumber('partitions', values.partitions, true);
  for (const checked of [count, rate, partitions]) if (typeof checked === 'string') return { error: checked };
  return {
    source: values.file !== undefined ? { kind: 'file', path: values.file } : { kind: 'sample', count: (count as number | undefined) ?? 100, seed: values.seed ?? randomSeed() },
    ...(rate === undefined ? {} : { rate: rate as number }),
    topic: values.topic ?? DEFAULT_RUNS_TOPIC,
    partitions: (partitions as number | undefined) ?? 6,
    ...(values.brokers === undefined ? {} : { brokers: values.brokers }),
  };
}

export type Batch = { runs: PublishableRun[]; contexts?: Context[] };
type InvalidLine = { line: number; problems: Problem[] };

async function* sampleBatches(count: number, seed: string, batchSize: number): AsyncGenerator<Batch> {
  const generator = createSampleRunGenerator({ seed });
  for (let produced = 0; produced < count; ) {
    const samples = Array.from({ length: Math.min(batchSize, count - produced) }, () => generator.next());
    produced += samples.length;
    yield { runs: samples.map((sample) => sample.event), contexts: samples.map(sampleRunContext) };
  }
}

async function* fileBatches(path: string, batchSize: number, invalid: InvalidLine[]): AsyncGenerator<Batch> {
  let runs: PublishableRun[] = [];
  for await (const entry of readRunLines(path)) {
    if ('problems' in entry) invalid.push(entry);
    else runs.push(entry.run as PublishableRun);
    if (runs.length >= batchSize) {
      yield { runs };
      runs = [];
    }
  }
  if (runs.length > 0) yield { runs };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type PublishOutcome = { sent: number; seconds: number; error?: unknown };

export async function publishAll(publisher: RunPublisher, batches: AsyncIterable<Batch>, rate: number | undefined, signal: AbortSignal, total: number | undefined): Promise<PublishOutcome> {
  const started = performance.now();
  let queued = 0;
  let sent = 0;
  let lastProgress = started;
  // One batch is sent while the next is generated or read: at most one publish outstanding.
  // Its failure is kept (never left unhandled) and rethrown before anything else is sent.
  let inFlight: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const settle = async () => {
    await inFlight;
    if (failure !== undefined) throw failure.error;
  };
  try {
    for await (const batch of batches) {
      if (signal.aborted) break;
      // Runs are due evenly spaced: wait until the batch's first run is due.
      if (rate !== undefined) {
        const wait = started + (queued * 1000) / rate - performance.now();
        if (wait > 0) await sleep(wait);
      }
      await settle();
      const contexts = batch.contexts;
      queued += batch.runs.length;
      inFlight = publisher.publish(batch.runs, contexts === undefined ? {} : { contextFor: (_run, index) => contexts[index] }).then((report) => {
        sent += report.count;
        const now = performance.now();
        if (now - lastProgress >= 1000) {
          lastProgress = now;
          console.error(`produce: ${sent}${total === undefined ? '' : `/${total}`} runs sent (${Math.round((sent * 1000) / (now - started))}/s)`);
        }
      }, (error: unknown) => {
        failure = { error };
      });
    }
    await settle();
  } catch (error) {
    await inFlight;
    return { sent, seconds: (performance.now() - started) / 1000, error };
  }
  return { sent, seconds: (performance.now() - started) / 1000 };
}

function describeInvalid(invalid: InvalidLine[]): string {
  const shown = invalid.slice(0, 20).map((entry) => `  line ${entry.line}:\n${formatProblems(entry.problems.slice(0, 5), '    - ')}${entry.problems.length > 5 ? `\n    … ${entry.problems.length - 5} more` : ''}`);
  const more = invalid.length > 20 ? `\n  … and ${invalid.length - 20} more invalid lines` : '';
  return `${invalid.length} invalid line${invalid.length === 1 ? '' : 's'} skipped (line numbers: ${invalid.map((entry) => entry.line).slice(0, 50).join(', ')}${invalid.length > 50 ? ', …' : ''}):\n${shown.join('\n')}${more}`;
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseProduceArgs(argv);
  if ('help' in parsed) {
    console.log(usage);
    return 0;
  }
  if ('error' in parsed) {
    console.error(`scorestream produce: ${parsed.error}\n\n${usage}`);
    return 2;
  }
  const { source, topic } = parsed;
  if (source.kind === 'file') {
    try {
      await access(source.path);
    } catch {
      console.error(`scorestream produce: cannot read '${source.path}'; give the path of a JSON Lines file with one agent run per line`);
      return 1;
    }
  }

  const brokers = await resolveCliBrokers({ brokers: parsed.brokers, start: true, onProgress: (line) => console.error(`kafka: ${line}`) });
  // TLS and SASL from the KAFKA_SSL* / KAFKA_SASL_* variables, as for the service.
  const { settings, security, ...who } = kafkaSecurityFromEnvironment(process.env);
  const kafkaAccess = { brokers, ...who, topics: [{ topic, operations: 'WRITE (and CREATE while it does not exist)' }] };
  const edge = createKafkaEdge({ clientId: 'scorestream-produce', brokers, ...settings });
  const created = await kafkaPreflight(edge.connection, { tls: tlsOptions(security.ssl) }, kafkaAccess)
    .then(() => edge.admin.createTopics([{ topic, numPartitions: parsed.partitions }]))
    .catch((error: unknown) => {
      throw explainKafkaError(error, kafkaAccess);
    })
    .finally(() => edge.close());
  if (created.length > 0) console.error(`produce: created topic ${topic} (${parsed.partitions} partitions)`);
  const what = source.kind === 'sample' ? `${source.count} sample runs (seed ${source.seed})` : `runs from ${source.path}`;
  console.error(`produce: publishing ${what} to ${topic} on ${brokers.join(',')}${parsed.rate === undefined ? '' : ` at ${parsed.rate}/s`}`);

  const batchSize = parsed.rate === undefined ? MAX_BATCH : Math.max(1, Math.min(MAX_BATCH, Math.ceil(parsed.rate / 10)));
  const invalid: InvalidLine[] = [];
  const batches = source.kind === 'sample' ? sampleBatches(source.count, source.seed, batchSize) : fileBatches(source.path, batchSize, invalid);
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  // The producer SDK, as an agent runs it (producers/run-publisher.ts), with the same settings.
  const publisher = createRunPublisher({ brokers, topic, clientId: 'scorestream-produce', ...security });
  let result;
  try {
    result = await publishAll(publisher, batches, parsed.rate, interrupt.signal, source.kind === 'sample' ? source.count : undefined);
  } finally {
    process.removeListener('SIGINT', onSignal);
    await publisher.close();
  }

  const perSecond = result.seconds > 0 ? Math.round(result.sent / result.seconds) : result.sent;
  console.log(`sent ${result.sent} runs to ${topic} in ${result.seconds.toFixed(1)} s (${perSecond} runs/s)${source.kind === 'sample' ? `; seed ${source.seed}` : ''}`);
  if (invalid.length > 0) console.log(describeInvalid(invalid));
  const refused = result.error === undefined ? undefined : kafkaAccessError(result.error, kafkaAccess);
  if (refused !== undefined) {
    console.error(`scorestream produce: stopped after ${result.sent} runs: ${refused.message}`);
    return 2;
  }
  if (result.error !== undefined) {
    console.error(`scorestream produce: stopped after ${result.sent} runs: ${result.error instanceof Error ? result.error.message : String(result.error)}`);
    return 1;
  }
  if (interrupt.signal.aborted) {
    console.error('produce: interrupted');
    return 130;
  }
  return invalid.length > 0 ? 1 : 0;
}

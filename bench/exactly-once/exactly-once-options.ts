// The exactly-once benchmark's command line (exactly-once.bench.ts): the sizes of the scenario and
// the sink's cadence, validated once, with errors that name the option and what it takes.
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../../src/engine/config/defaults.ts';
import { KAFKA_DEFAULTS } from '../../kafka/kafka-defaults.ts';

/** The scoring consumer's fetch size per partition (consumers/scoring-consumer.ts). */
const serviceFetchBytesPerPartition = Math.max(KAFKA_DEFAULTS.consumer.minBytesPerPartition, DEFAULTS.maxMessageBytes + 1024);

export type ExactlyOnceOptions = {
  quick: boolean;
  /** Records pre-filled on the input topic; each run of a layout reads all of them. */
  records: number;
  /** Partitions of the input topic and of each output topic. */
  partitions: number;
  /** Rounds of both layouts, in the order A B, B A, A B, … */
  rounds: number;
  /** How often the sink commits what finished (the service's commit timer, consumers/scoring-consumer.ts). */
  commitIntervalMs: number;
  /** Messages in memory at most (the service's run slots); half of it held triggers an early commit, as in service/delivery-sink.ts. */
  runsInFlight: number;
  /**
   * What one fetch brings of a partition at most. The service's (consumers/scoring-consumer.ts) by
   * default: with small records a fetch then holds a whole partition's backlog, so the messages in
   * flight are mostly of one or two partitions; a small value interleaves the partitions.
   */
  fetchBytesPerPartition: number;
  /** A run that has not committed every record by then fails the benchmark. */
  timeoutMs: number;
};

export const usage = `usage: node bench/exactly-once.bench.ts [--quick] [--records N] [--partitions N] [--rounds N] [--commit-interval-ms N] [--runs-in-flight N] [--fetch-bytes-per-partition N]
  --quick               6,000 records, one round: a smoke run
  --records N           records on the input topic (default 60,000)
  --partitions N        partitions of the input and output topics (default 6)
  --rounds N            rounds of both layouts, alternating A B / B A (default 3)
  --commit-interval-ms  the sink's commit interval (default 100)
  --runs-in-flight N    messages in memory at most, as the service's run slots (default ${DEFAULTS.runsInFlight})
  --fetch-bytes-per-partition N
                        what a fetch brings of one partition at most (default the service's, ${serviceFetchBytesPerPartition});
                        a small value (16384) interleaves the partitions among the messages in flight
  KAFKA_BROKERS=host:port uses that broker instead of starting one`;

function wholeNumber(name: string, text: string | undefined, fallback: number, range: { min: number; max: number }): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new Error(`--${name} needs a whole number from ${range.min} to ${range.max}, not ${JSON.stringify(text)}\n${usage}`);
  }
  return value;
}

const optionsSpecification = {
  quick: { type: 'boolean', default: false },
  records: { type: 'string' },
  partitions: { type: 'string' },
  rounds: { type: 'string' },
  'commit-interval-ms': { type: 'string' },
  'runs-in-flight': { type: 'string' },
  'fetch-bytes-per-partition': { type: 'string' },
} as const;

function parseArguments(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: optionsSpecification });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${usage}`, { cause: error });
  }
}

export function parseExactlyOnceOptions(argv: readonly string[]): ExactlyOnceOptions {
  const { values } = parseArguments(argv);
  const quick = values.quick === true;
  return {
    quick,
    records: wholeNumber('records', values.records, quick ? 6_000 : 60_000, { min: 1, max: 10_000_000 }),
    partitions: wholeNumber('partitions', values.partitions, 6, { min: 1, max: 256 }),
    rounds: wholeNumber('rounds', values.rounds, quick ? 1 : 3, { min: 1, max: 20 }),
    commitIntervalMs: wholeNumber('commit-interval-ms', values['commit-interval-ms'], 100, { min: 1, max: 60_000 }),
    runsInFlight: wholeNumber('runs-in-flight', values['runs-in-flight'], DEFAULTS.runsInFlight, { min: 2, max: 100_000 }),
    fetchBytesPerPartition: wholeNumber('fetch-bytes-per-partition', values['fetch-bytes-per-partition'], serviceFetchBytesPerPartition, { min: 1_024, max: 100 * 1_048_576 }),
    timeoutMs: 300_000,
  };
}

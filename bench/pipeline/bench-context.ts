// What every scenario of the pipeline benchmark (pipeline.bench.ts) runs against: the broker and
// its topics, the event pool already produced to the runs topic, the OTLP sink, the sizes, and how
// a scenario starts a service child (a fresh Node per scenario: child-protocol.ts).
import type { Kafka } from 'kafkajs';
import type { BrokerHandle } from '../../local/kafka/index.ts';
import type { EventPool } from './bench-events.ts';
import type { BenchSizes } from './bench-options.ts';
import { startChild } from './child-protocol.ts';
import type { ChildBase, ChildResult, ChildSpec } from './child-protocol.ts';
import { shippedNodeFlags } from './node-flags.ts';
import type { OtlpSink } from './otlp-sink.ts';

/** How the run's scenarios start a service child and wait for its result (with --profile, each writes a CPU profile). */
export function childRunner(sizes: BenchSizes) {
  return async function childResult<Kind extends ChildResult['kind']>(spec: ChildSpec & { kind: Kind }, nodeFlags: string[] = shippedNodeFlags): Promise<Extract<ChildResult, { kind: Kind }>> {
    return (await startChild(spec, { ...sizes, nodeFlags }).result) as Extract<ChildResult, { kind: Kind }>;
  };
}

export type BenchContext = {
  sizes: BenchSizes;
  broker: BrokerHandle;
  kafka: Kafka;
  sink: OtlpSink;
  pool: EventPool;
  /** Every topic and group of this run starts with it (`bench-<time>`), so that an existing broker can be cleaned up after. */
  prefix: string;
  topics: { runs: string; backlog: string; latency: string; latencyJudged: string; naive: string };
  /** Each round's own output topics of (a), (a-p), (a3) and (m). */
  outputs: { passthrough: string[]; platformatic: string[]; fanOut: string[]; requiredWork: string[] };
  timeoutMs: number;
  /** A service child's spec on the runs topic, its output topics and group named after `name`. */
  base(name: string): ChildBase;
  /** How much each Kafka scenario measures. */
  size: { warmUpEvents: number; targetEvents: number; timeoutMs: number; brokerPid: number | undefined };
  /** Runs a child to its result, with the shipped Node flags unless others are given. */
  childResult: ReturnType<typeof childRunner>;
};

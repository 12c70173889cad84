// Scenario (p): the service's per-message work without Kafka. The same events as every other
// scenario go through the message path (consumers/message-path.ts) of the run-event source —
// decode, validate, eligibility, the three code scorers,
// score records, JSON — with as many messages in flight as the service allows, and a publisher
// that accepts at once. Its rate is what one thread can score when no client work shares it:
// with the client's own cost per event (scenario (a3)) it estimates what a single-threaded
// consumer can reach on this machine, which is how the report explains (c).
import pino from 'pino';
import type { MessageContext } from '../../consumers/message-context.ts';
import { untracedMessage } from '../../consumers/message-trace.ts';
import { createMessagePath } from '../../consumers/message-path.ts';
import { runEventSource } from '../../consumers/run-event-source.ts';
import { defaultPublishRetry } from '../../consumers/publish-until-acknowledged.ts';
import type { MessageOutput } from '../../consumers/record-sink.ts';
import { ServiceStats } from '../../consumers/service-stats.ts';
import { resolveConfig } from '../../src/engine/config/resolve-config.ts';
import type { ScorerLike } from '../../src/engine/config/config-types.ts';
import type { PassCriterion } from '../../src/kit/verdict/pass-criterion.ts';
import { asConsumedMessages } from './bench-events.ts';
import type { EventPool } from './bench-events.ts';
import { coresUsed, sampleCpu } from './cpu-usage.ts';

export type PipelineAloneOptions = {
  pool: EventPool;
  scorers: readonly ScorerLike[];
  /** Messages in flight at once (the service's runsInFlight). */
  inFlight: number;
  /** Passes over the pool; the first warms the JIT up and is not counted. */
  passes: number;
  /** Every binding declares this pass criterion, so every scored record gets a verdict (bench/verdict.bench.ts). */
  pass?: PassCriterion;
};

export type PipelineAloneResult = {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** Records the pipeline handed to its publisher over the counted passes (3 per event here). */
  records: number;
  failedRecords: number;
  /** Cores this process kept busy meanwhile: above 1, V8's helper threads (GC) ran beside the main thread. */
  cores: { node: number; mainThread: number; broker: undefined };
};

/**
 * What the message path needs to run as in the service, without Kafka: the benchmark's scorers,
 * fresh counters, and warnings only.
 */
export function serviceMessageContext(scorers: readonly ScorerLike[], pass?: PassCriterion): MessageContext {
  const config = resolveConfig({
    kafka: { brokers: ['127.0.0.1:9'] },
    groupId: 'bench-without-kafka',
    topics: { runs: 'runs', results: 'scores', deadLetter: 'dlq' },
    scorers: scorers.map((scorer) => ({ scorer, ...(pass === undefined ? {} : { pass }) })),
  });
  return { config, stats: new ServiceStats(), logger: pino({ level: 'warn' }, pino.destination(2)), now: Date.now, hardStop: new AbortController().signal, publishRetry: defaultPublishRetry };
}

/** One pass of (p) over the pool at a time, and what the passes so far handed to the publisher. */
export type RunEventPasses = { pass(): Promise<void>; readonly events: number; readonly records: number; readonly failedRecords: number };

/** (p)'s work as passes over the pool, for whoever times them (measurePipelineAlone; (o)'s paired passes, otlp-alone.ts). */
export function runEventPasses(options: Omit<PipelineAloneOptions, 'passes'>): RunEventPasses {
  const messages = asConsumedMessages(options.pool);
  let records = 0;
  const context = serviceMessageContext(options.scorers, options.pass);
  const output: MessageOutput = { publish: async (batch) => void (records += batch.length) };
  const { config, stats } = context;
  const partition = createMessagePath(context).partition(runEventSource);
  return {
    events: messages.length,
    get records() {
      return records;
    },
    get failedRecords() {
      return stats.totals().failed;
    },
    async pass() {
      let next = 0;
      const lane = async () => {
        while (next < messages.length) {
          const index = next++;
          const message = messages[index]!;
          await partition.process(message, { source: { topic: config.topics.runs, partition: 0, offset: message.offset }, output, trace: untracedMessage(message) });
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.inFlight, messages.length) }, lane));
    },
  };
}

export async function measurePipelineAlone(options: PipelineAloneOptions): Promise<PipelineAloneResult> {
  const passes = runEventPasses(options);
  await passes.pass();
  const recordsBefore = passes.records;
  const failedBefore = passes.failedRecords;
  const cpuBefore = sampleCpu(undefined);
  const startedAt = performance.now();
  for (let counted = 1; counted < options.passes; counted += 1) await passes.pass();
  const seconds = (performance.now() - startedAt) / 1000;
  const { node, mainThread } = coresUsed(cpuBefore, sampleCpu(undefined));
  const events = passes.events * (options.passes - 1);
  return { events, seconds, eventsPerSecond: events / seconds, records: passes.records - recordsBefore, failedRecords: passes.failedRecords - failedBefore, cores: { node, mainThread, broker: undefined } };
}

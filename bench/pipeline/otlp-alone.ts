// Scenario (o): the OTLP input's per-message work without Kafka, against the run-event path (p).
// The same number of agent runs arrive as OTLP: traces with an invoke_agent span, a model call and
// a tool span that travels in the next message (a late descendant), beside plain traces (nine in
// ten, as in the 10,000-trace test), encoded as the Collector's kafka exporter writes them
// (otlp_proto, 100 traces per message). They go through createOtlpSource — decode, assemble,
// runs to run events, the three code scorers, records — with a zero grace period, so the figure is
// the work and not the wait. The run-event path scores the same count of runs with
// the message path of the run-event source. Reported as assembled (scored) runs per second.
// Usage: node bench/pipeline/otlp-alone.ts [runs]   (npm run bench:otlp)
import type { KafkaMessage } from 'kafkajs';
import { untracedMessage } from '../../consumers/message-trace.ts';
import { createMessagePath } from '../../consumers/message-path.ts';
import { createOtlpSource } from '../../consumers/otlp-source.ts';
import type { MessageOutput } from '../../consumers/record-sink.ts';
import { OTLP_DEFAULTS } from '../../src/config/input-schema.ts';
import { otlpTraffic } from '../../test/helpers/otlp-traces.ts';
import { createEventPool } from './bench-events.ts';
import { createCodeScorers } from './bench-scorers.ts';
import { coresUsed, sampleCpu } from './cpu-usage.ts';
import { measurePipelineAlone, serviceMessageContext } from './pipeline-alone.ts';

export type OtlpAloneResult = {
  runs: number;
  traces: number;
  spans: number;
  seconds: number;
  runsPerSecond: number;
  records: number;
  peakBufferedSpans: number;
  /** Cores this process kept busy meanwhile (as in (p)). */
  cores: { node: number; mainThread: number; broker: undefined };
};

export async function measureOtlpAlone(options: { runs: number; inFlight: number; passes: number }): Promise<OtlpAloneResult> {
  const traffic = otlpTraffic({ traces: options.runs * 10, agentEvery: 10, encoding: 'otlp_proto', tracesPerMessage: 100 });
  const messages: KafkaMessage[] = traffic.messages.map((message, index) => ({ key: null, value: message.value, headers: {}, timestamp: String(Date.now()), attributes: 0, offset: String(index) }) as KafkaMessage);
  const scorers = createCodeScorers();
  let records = 0;
  const output: MessageOutput = { publish: async (batch) => void (records += batch.length) };
  let stats = { runsAssembled: 0, spans: 0, peakBufferedSpans: 0 };
  const pass = async () => {
    // A fresh source per pass: a trace closed in an earlier pass would count its spans as late.
    const input = createOtlpSource({ config: { format: 'otlp', ...OTLP_DEFAULTS, gracePeriodMs: 0, maxOpenTraces: traffic.traces } });
    const context = serviceMessageContext(scorers);
    const partition = createMessagePath(context).partition(input);
    let next = 0;
    const lane = async () => {
      while (next < messages.length) {
        const message = messages[next++]!;
        await partition.process(message, { source: { topic: 'runs', partition: 0, offset: message.offset }, output, trace: untracedMessage(message) });
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.inFlight, messages.length) }, lane));
    partition.end();
    stats = input.stats;
  };
  await pass();
  const recordsBefore = records;
  const cpuBefore = sampleCpu(undefined);
  const startedAt = performance.now();
  let runs = 0;
  let spans = 0;
  let peak = 0;
  for (let counted = 1; counted < options.passes; counted += 1) {
    await pass();
    runs += stats.runsAssembled;
    spans += stats.spans;
    peak = Math.max(peak, stats.peakBufferedSpans);
  }
  const seconds = (performance.now() - startedAt) / 1000;
  const { node, mainThread } = coresUsed(cpuBefore, sampleCpu(undefined));
  return { runs, traces: traffic.traces * (options.passes - 1), spans, seconds, runsPerSecond: runs / seconds, records: records - recordsBefore, peakBufferedSpans: peak, cores: { node, mainThread, broker: undefined } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? '2000');
  const otlp = await measureOtlpAlone({ runs, inFlight: 256, passes: 3 });
  const runEvents = await measurePipelineAlone({ pool: createEventPool(runs), scorers: createCodeScorers(), inFlight: 256, passes: 3 });
  console.log(`(o) OTLP input without Kafka: ${Math.round(otlp.runsPerSecond).toLocaleString('en-US')} assembled runs/s (${otlp.runs} runs from ${otlp.traces} traces, ${otlp.spans} spans, in ${otlp.seconds.toFixed(2)} s; ${otlp.records} records; peak ${otlp.peakBufferedSpans} buffered spans)`);
  console.log(`(p) run events without Kafka: ${Math.round(runEvents.eventsPerSecond).toLocaleString('en-US')} runs/s (${runEvents.events} runs in ${runEvents.seconds.toFixed(2)} s; ${runEvents.records} records)`);
  console.log(`ratio (o)/(p): ${(otlp.runsPerSecond / runEvents.eventsPerSecond).toFixed(2)}`);
}

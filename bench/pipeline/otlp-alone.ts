// Scenario (o): the OTLP input's per-message work without Kafka, against the run-event path (p).
// The same number of agent runs arrive as OTLP: traces with an invoke_agent span, a model call and
// a tool span that travels in the next message (a late descendant), beside plain traces (nine in
// ten, as in the 10,000-trace test), encoded as the Collector's kafka exporter writes them
// (otlp_proto, 100 traces per message). They go through createOtlpSource — decode, assemble,
// runs to run events, the three code scorers, records — with a zero grace period, so the figure is
// the work and not the wait. Reported as assembled (scored) runs per second.
//
// (o) ≥ 0.7 × (p) is a ratio of two rates, and this machine's speed drifts by a third within
// seconds: measured in two processes at two moments, the drift decided the ratio (one full run had
// (o) at 5,579, 3,254 and 3,571 runs/s in its three rounds while (p) held 6,839–7,419). So the
// same process also scores the same count of runs as run events, pass for pass in turn with (o)
// (o, p, then p, o, ...), and `pairedRatio` divides the two sums: both sides under the same drift.
// Usage: node bench/pipeline/otlp-alone.ts [runs]   (npm run bench:otlp)
import type { KafkaMessage } from 'kafkajs';
import { untracedMessage } from '../../consumers/message-trace.ts';
import { createMessagePath } from '../../consumers/message-path.ts';
import { createOtlpSource } from '../../consumers/otlp-source.ts';
import type { MessageOutput } from '../../consumers/record-sink.ts';
import { OTLP_DEFAULTS } from '../../src/engine/config/input-schema.ts';
import { otlpTraffic } from '../../test/helpers/otlp-traces.ts';
import { createEventPool } from './bench-events.ts';
import { createCodeScorers } from './bench-scorers.ts';
import { sampleCpu } from './cpu-usage.ts';
import { runEventPasses, serviceMessageContext } from './pipeline-alone.ts';

export type OtlpAloneResult = {
  runs: number;
  traces: number;
  spans: number;
  seconds: number;
  runsPerSecond: number;
  records: number;
  peakBufferedSpans: number;
  /** Cores this process kept busy during the (o) passes (as in (p)). */
  cores: { node: number; mainThread: number; broker: undefined };
  /** The same count of runs as run events through (p)'s path, passes alternated with (o)'s. */
  paired: { runsPerSecond: number; seconds: number };
  /** (o)'s rate over the paired (p)'s, both from the same stretch of time. */
  pairedRatio: number;
};

export async function measureOtlpAlone(options: { runs: number; inFlight: number; passes: number }): Promise<OtlpAloneResult> {
  const traffic = otlpTraffic({ traces: options.runs * 10, agentEvery: 10, encoding: 'otlp_proto', tracesPerMessage: 100 });
  const messages: KafkaMessage[] = traffic.messages.map((message, index) => ({ key: null, value: message.value, headers: {}, timestamp: String(Date.now()), attributes: 0, offset: String(index) }) as KafkaMessage);
  const scorers = createCodeScorers();
  const runEvents = runEventPasses({ pool: createEventPool(options.runs), scorers: createCodeScorers(), inFlight: options.inFlight });
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
  await runEvents.pass();
  const recordsBefore = records;
  let runs = 0;
  let spans = 0;
  let peak = 0;
  let otlpSeconds = 0;
  let runEventSeconds = 0;
  let nodeMs = 0;
  let mainThreadMs = 0;
  const otlpPass = async () => {
    const before = sampleCpu(undefined);
    await pass();
    const after = sampleCpu(undefined);
    otlpSeconds += (after.at - before.at) / 1000;
    nodeMs += after.nodeMs - before.nodeMs;
    mainThreadMs += after.mainThreadMs - before.mainThreadMs;
    runs += stats.runsAssembled;
    spans += stats.spans;
    peak = Math.max(peak, stats.peakBufferedSpans);
  };
  const runEventPass = async () => {
    const startedAt = performance.now();
    await runEvents.pass();
    runEventSeconds += (performance.now() - startedAt) / 1000;
  };
  for (let counted = 1; counted < options.passes; counted += 1) {
    // Each side goes first every other pass, so neither always follows the other's garbage.
    if (counted % 2 === 1) {
      await otlpPass();
      await runEventPass();
    } else {
      await runEventPass();
      await otlpPass();
    }
  }
  const runsPerSecond = runs / otlpSeconds;
  const paired = { runsPerSecond: (runEvents.events * (options.passes - 1)) / runEventSeconds, seconds: runEventSeconds };
  return {
    runs,
    traces: traffic.traces * (options.passes - 1),
    spans,
    seconds: otlpSeconds,
    runsPerSecond,
    records: records - recordsBefore,
    peakBufferedSpans: peak,
    cores: { node: nodeMs / 1000 / otlpSeconds, mainThread: mainThreadMs / 1000 / otlpSeconds, broker: undefined },
    paired,
    pairedRatio: runsPerSecond / paired.runsPerSecond,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? '2000');
  const otlp = await measureOtlpAlone({ runs, inFlight: 256, passes: 5 });
  console.log(`(o) OTLP input without Kafka: ${Math.round(otlp.runsPerSecond).toLocaleString('en-US')} assembled runs/s (${otlp.runs} runs from ${otlp.traces} traces, ${otlp.spans} spans, in ${otlp.seconds.toFixed(2)} s; ${otlp.records} records; peak ${otlp.peakBufferedSpans} buffered spans)`);
  console.log(`(p) run events without Kafka, passes alternated with (o)'s: ${Math.round(otlp.paired.runsPerSecond).toLocaleString('en-US')} runs/s (in ${otlp.paired.seconds.toFixed(2)} s)`);
  console.log(`ratio (o)/(p): ${otlp.pairedRatio.toFixed(2)}`);
}

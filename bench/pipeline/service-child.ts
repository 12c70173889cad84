// Entry point of a scenario child process (see child-protocol.ts): receives one ChildSpec over
// IPC, runs that scenario with the real service in this process, reports one result, exits.
import { silenceKafkajsWarnings } from '../../local/kafka/index.ts';
import { applyHeapGrowth } from '../../service/heap-growth.ts';
import { applyMemoryTarget } from '../../service/memory-target.ts';
import type { ChildMessage, ChildResult, ChildSpec, LatencyCommand } from './child-protocol.ts';
import { createEventPool } from './bench-events.ts';
import { createCodeScorers, createNoOpScorers, createSlowJudge } from './bench-scorers.ts';
import { runJudgeBacklog } from './judge-backlog.ts';
import { collectLatencies } from './latency-service.ts';
import { measurePipelineAlone } from './pipeline-alone.ts';
import { measureService, startBenchService } from './scorestream-run.ts';
import type { ServiceThroughput } from './scorestream-run.ts';

const reply = (message: ChildMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

async function runCode(spec: Extract<ChildSpec, { kind: 'code' }>): Promise<ChildResult> {
  // Registered before the service starts, as a deployment's telemetry set-up would be. Imported
  // only here, so the other children's memory is the service's alone (the SDK adds RSS of its own; docs/benchmarks.md).
  const exportSpans = spec.tracing === 'on' || spec.tracing === 'with-function-step-spans';
  if (exportSpans && spec.otlpUrl === undefined) throw new Error(`a tracing child that exports needs the sink's otlpUrl`);
  const tracing = spec.tracing === 'off' ? undefined : await (await import('./tracing.ts')).startBenchTracing(exportSpans ? { exportSpans, url: spec.otlpUrl! } : { exportSpans });
  let throughput: ServiceThroughput;
  try {
    throughput = await measureService({ ...spec, functionStepSpans: spec.tracing === 'with-function-step-spans', scorers: spec.scorers === 'text' ? createCodeScorers() : createNoOpScorers() }, spec, `(c) ${spec.scorers} scorers, tracing ${spec.tracing}`);
  } catch (error) {
    await tracing?.stop().catch(() => undefined);
    throw error;
  }
  const totals = await tracing?.stop();
  return { kind: 'code', throughput, ...(totals === undefined ? {} : { tracing: { ended: totals.ended, exported: 0 } }) };
}

async function runLatency(spec: Extract<ChildSpec, { kind: 'latency' }>): Promise<ChildResult> {
  const judge = spec.judge === undefined ? undefined : createSlowJudge(spec.judge.delayMs);
  const scorers = judge === undefined ? { scorers: createCodeScorers() } : { scorers: [judge.scorer], models: judge.models, judgeCallsPerModel: spec.judge!.callsPerModel, runsInFlight: spec.judge!.runsInFlight };
  const service = await startBenchService({ ...spec, ...scorers });
  try {
    const collector = collectLatencies(service, spec.timeoutMs, spec.brokerPid);
    process.on('message', (command: LatencyCommand) => collector.handle(command));
    // Joined and fetching: the parent's warm-up events are flowing through.
    await reply({ type: 'ready' });
    const { latency, completed } = await collector.finished;
    return { kind: 'latency', latency, completed };
  } finally {
    await service.stop({ timeoutMs: 10_000 });
  }
}

async function run(spec: ChildSpec): Promise<ChildResult> {
  if (spec.kind === 'code') return runCode(spec);
  if (spec.kind === 'latency') return runLatency(spec);
  if (spec.kind === 'required-work') {
    const { runRequiredWork } = await import('./required-work.ts');
    return { kind: 'required-work', throughput: await runRequiredWork({ ...spec, inputTopic: spec.runsTopic, scorers: createCodeScorers() }) };
  }
  if (spec.kind === 'pipeline-alone') {
    const pool = createEventPool(spec.poolEvents);
    return { kind: 'pipeline-alone', result: await measurePipelineAlone({ pool, scorers: createCodeScorers(), inFlight: spec.inFlight, passes: spec.passes }) };
  }
  if (spec.kind === 'otlp-alone') {
    const { measureOtlpAlone } = await import('./otlp-alone.ts');
    return { kind: 'otlp-alone', result: await measureOtlpAlone(spec) };
  }
  if (spec.kind === 'floors') {
    // Imported here only: it loads the tracing SDK, which the other children must not carry.
    const { measureFloors } = await import('./floors.ts');
    return { kind: 'floors', result: await measureFloors({ pool: createEventPool(spec.poolEvents), scorers: createCodeScorers(), passes: spec.passes, tracedEvents: spec.tracedEvents }) };
  }
  return { kind: 'judge-backlog', result: await runJudgeBacklog(spec) };
}

// As the command line does: V8's heap growth as shipped, unless the child's flags give their own (a what-if row).
const heapGrowth = applyHeapGrowth();

/**
 * Children that hold their whole input in memory — pools of run events or OTLP requests, up to a
 * gigabyte, far past the service's target by design — measure the per-message path, not the
 * service's memory, and keep the shipped growth alone: under the target their pools would be
 * marked again every few megabytes allocated.
 */
const holdsItsInput = (kind: ChildSpec['kind']) => kind === 'pipeline-alone' || kind === 'otlp-alone' || kind === 'floors';

silenceKafkajsWarnings();
process.once('message', (spec: ChildSpec) => {
  // The service's memory target, as the command line starts it (none with the child's own growth).
  if (!holdsItsInput(spec.kind)) applyMemoryTarget(process.env, heapGrowth);
  run(spec)
    .then((result) => reply({ type: 'result', result }))
    .catch((error: unknown) => reply({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }))
    // Whatever kafkajs or the OTLP exporter still holds open must not keep the child alive.
    .finally(() => process.exit(0));
});

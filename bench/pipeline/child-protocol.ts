// The service scenarios run in child processes: each gets a fresh Node (its own heap, no
// OpenTelemetry globals left over from another scenario, its own RSS), and the parent — which
// holds the event pool and runs the Kafka-only baselines — stays out of their measurements.
// This module is the contract between the two sides and the parent's way to start a child.
import type { KafkaClientName } from '../../src/engine/config/config-types.ts';
import { fork } from 'node:child_process';
import { nodeCompileCacheDirectory } from '../../local/kafka/index.ts';
import type { FloorsResult } from './floors.ts';
import type { Throughput } from './measurement.ts';
import type { OtlpAloneResult } from './otlp-alone.ts';
import type { PipelineAloneResult } from './pipeline-alone.ts';
import type { ServiceThroughput } from './scorestream-run.ts';
import type { TracingTotals } from './tracing.ts';
import type { LatencyBreakdown } from './latency-stages.ts';

export type ChildBase = { brokers: string[]; brokerPid?: number | undefined; runsTopic: string; outputPrefix: string; groupId: string; timeoutMs: number; /** The scoring path's client (`kafka.client`; default kafkajs). */ kafkaClient?: KafkaClientName };

export type ChildSpec =
  | (ChildBase & { kind: 'code'; scorers: 'text' | 'no-op'; tracing: 'off' | 'on' | 'with-function-step-spans' | 'recorded-only'; otlpUrl?: string; warmUpEvents: number; targetEvents: number })
  /** The latency run: the three code scorers, or — `judge` — one judge scorer whose mock judge answers after `delayMs`, C = `callsPerModel`. */
  | (ChildBase & { kind: 'latency'; judge?: { delayMs: number; callsPerModel: number; runsInFlight: number } })
  // (m): the required work by hand on the shipped client (required-work.ts), into `outputTopic`.
  | (ChildBase & { kind: 'required-work'; outputTopic: string; warmUpEvents: number; targetEvents: number })
  // No broker: the child regenerates the same seeded pool of `poolEvents` runs.
  | { kind: 'pipeline-alone'; poolEvents: number; passes: number; inFlight: number }
  | { kind: 'otlp-alone'; runs: number; passes: number; inFlight: number }
  | { kind: 'floors'; poolEvents: number; passes: number; tracedEvents: number }
  | (ChildBase & { kind: 'judge-backlog'; judgeDelayMs: number; judgeCallsPerModel: number; runsInFlight: number; warmUpSeconds: number; seconds: number; rssIntervalMs: number });

export type LatencyResult = {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Most events seen waiting (consumer lag + in flight) while measuring: small when the service kept up. */
  maxBehind: number;
  /**
   * Events waiting when the measured window opened and when its last event was produced: a
   * backlog left from the warm-up shrinks between the two, a rate beyond the service grows it.
   */
  behindAtStart: number;
  behindAtEnd: number;
  /** Cores busy over the window: the child's JavaScript thread, and the broker (undefined when not known). */
  cores: { mainThread: number; broker: number | undefined };
  /** Where the window's records' time went, stage by stage, against their end-to-end time. */
  stages: LatencyBreakdown;
};

export type JudgeBacklogResult = {
  /** Events completed in the measured window (after warm-up). */
  events: number;
  seconds: number;
  eventsPerSecond: number;
  completedTotal: number;
  lagAtEnd: number;
  judgeCalls: number;
  maxActiveJudgeCalls: number;
  peakRssMb: number;
  /** This process's RSS with everything loaded, before the service started. */
  rssBeforeServiceMb: number;
  rssAtEndMb: number;
  /** process.memoryUsage() when the peak RSS was seen. */
  atPeakMb: { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  rssSamples: number;
  failedRecords: number;
};

export type ChildResult =
  | { kind: 'code'; throughput: ServiceThroughput; tracing?: TracingTotals }
  | { kind: 'latency'; latency: LatencyResult; completed: number }
  | { kind: 'required-work'; throughput: Throughput }
  | { kind: 'pipeline-alone'; result: PipelineAloneResult }
  | { kind: 'otlp-alone'; result: OtlpAloneResult }
  | { kind: 'floors'; result: FloorsResult }
  | { kind: 'judge-backlog'; result: JudgeBacklogResult };

/** Messages the parent sends a latency child after it reported `ready`. */
export type LatencyCommand = { command: 'measure-from'; epochMs: number } | { command: 'finish'; produced: number };

export type ChildMessage = { type: 'ready' } | { type: 'result'; result: ChildResult } | { type: 'error'; message: string };

export type RunningChild = {
  /** Resolves once the child's service is consuming (latency children say so). */
  ready: Promise<void>;
  result: Promise<ChildResult>;
  send(command: LatencyCommand): void;
};

const childEntry = new URL('./service-child.ts', import.meta.url);

let profiles = 0;
/**
 * `code-c1.3.cpuprofile`: the scenario's kind, its run's name in the bench (`c1` is (c)'s second
 * round, `ck0` (c-k)'s first, `ct2` the third traced one) and a sequence number, so that
 * `node bench/pipeline/profile-summary.ts <directory>` can say which profile is which.
 */
function profileName(spec: ChildSpec): string {
  profiles += 1;
  const run = 'outputPrefix' in spec ? spec.outputPrefix.slice(spec.outputPrefix.lastIndexOf('-') + 1) : spec.kind;
  return `${spec.kind}-${run}.${profiles}.cpuprofile`;
}

/**
 * Starts a scenario child. With `profileDirectory` the child writes a V8 CPU profile there
 * (node --cpu-prof), which is how a missed target gets explained; `nodeFlags` are added to the
 * child's Node options (e.g. a heap limit).
 */
export function startChild(spec: ChildSpec, options: { profileDirectory?: string | undefined; nodeFlags?: readonly string[] } = {}): RunningChild {
  const execArgv = [
    ...process.execArgv,
    ...(options.nodeFlags ?? []),
    ...(options.profileDirectory === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.profileDirectory}`, `--cpu-prof-name=${profileName(spec)}`]),
  ];
  // Modules load the way bin/scorestream runs the service: through Node's compile cache, in the same place.
  const child = fork(childEntry, [], { execArgv, env: { ...process.env, NODE_COMPILE_CACHE: nodeCompileCacheDirectory() }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const result = new Promise<ChildResult>((resolve, reject) => {
    let settled = false;
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') markReady();
      else if (message.type === 'result') {
        settled = true;
        resolve(message.result);
      } else {
        settled = true;
        reject(new Error(`benchmark child (${spec.kind}) failed: ${message.message}`));
      }
    });
    child.on('exit', (code, signal) => {
      if (!settled) reject(new Error(`benchmark child (${spec.kind}) exited with ${signal ?? `code ${code}`} before reporting a result`));
    });
    child.on('error', reject);
  });
  result.catch(() => undefined);
  child.send(spec);
  return { ready, result, send: (command) => child.send(command) };
}

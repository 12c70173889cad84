// Runs the project's Collector (build-collector.ts) as a child process with a generated config:
// an OTLP/HTTP receiver on a free loopback port, the batch processor, and the Kafka exporter
// writing traces to `topic` in `encoding`, keyed by trace id when `partitionTracesById`; with
// `logs`, a logs pipeline too (OTLP in, the Kafka exporter out to its topic). What tests and
// `scorestream demo --otlp` put between an instrumented agent and Scorestream, and what tests put
// between the service's evaluation log records and a reader.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../kafka/ports.ts';
import { lastLines } from '../kafka/run-command.ts';
import { ensureCollectorBinary } from './build-collector.ts';
import type { EnsureCollectorOptions } from './build-collector.ts';

export type CollectorOptions = {
  brokers: readonly string[];
  topic: string;
  encoding: 'otlp_proto' | 'otlp_json';
  /** The exporter's partition_traces_by_id: one message per trace, keyed by the hex trace id. */
  partitionTracesById?: boolean;
  /** A logs pipeline as well: OTLP log records to this topic (evaluation log records, docs/observability.md). */
  logs?: { topic: string; encoding: 'otlp_proto' | 'otlp_json'; partitionByTraceId?: boolean };
  /** The batch processor's timeout (default 200 ms: tests want spans on Kafka quickly). */
  batchTimeoutMs?: number;
  build?: EnsureCollectorOptions;
};

export type RunningCollector = {
  /** The OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces. */
  readonly tracesUrl: string;
  /** The OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT), e.g. http://127.0.0.1:4318. */
  readonly endpoint: string;
  readonly pid: number;
  /** What the Collector wrote to stderr so far (its log). */
  log(): string;
  /** SIGTERM (the Collector flushes its batches and exporter queue), SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
};

export function collectorConfig(options: CollectorOptions & { httpPort: number }): string {
  return [
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http:',
    `        endpoint: 127.0.0.1:${options.httpPort}`,
    'processors:',
    '  batch:',
    `    timeout: ${options.batchTimeoutMs ?? 200}ms`,
    'exporters:',
    '  kafka:',
    `    brokers: [${options.brokers.map((broker) => JSON.stringify(broker)).join(', ')}]`,
    '    traces:',
    `      topic: ${JSON.stringify(options.topic)}`,
    `      encoding: ${options.encoding}`,
    ...(options.logs === undefined ? [] : ['    logs:', `      topic: ${JSON.stringify(options.logs.topic)}`, `      encoding: ${options.logs.encoding}`]),
    `    partition_traces_by_id: ${options.partitionTracesById === true}`,
    // Log records keyed by their trace id: on the runs topic, each lands in its trace's partition (docs/otlp.md).
    ...(options.logs?.partitionByTraceId === true ? ['    partition_logs_by_trace_id: true'] : []),
    'service:',
    '  telemetry:',
    '    logs:',
    '      level: warn',
    '    metrics:',
    '      level: none',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    '      processors: [batch]',
    '      exporters: [kafka]',
    ...(options.logs === undefined ? [] : ['    logs:', '      receivers: [otlp]', '      processors: [batch]', '      exporters: [kafka]']),
    '',
  ].join('\n');
}

export async function startCollector(options: CollectorOptions): Promise<RunningCollector> {
  const binary = await ensureCollectorBinary(options.build);
  const httpPort = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'scorestream-collector-'));
  const configPath = join(directory, 'collector.yaml');
  await writeFile(configPath, collectorConfig({ ...options, httpPort }));
  const child: ChildProcess = spawn(binary, ['--config', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    log = (log + chunk).slice(-64_000);
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const stop = async (timeoutMs = 10_000) => {
    if (!exited) {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exit;
      clearTimeout(killed);
    }
    await rm(directory, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (!(await listening(httpPort))) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`the OpenTelemetry Collector did not start (${exited ? `exited with ${child.exitCode}` : 'no OTLP/HTTP listener after 30 s'}):\n${lastLines(log, 15)}`);
    }
    await sleep(100);
  }
  return { tracesUrl: `http://127.0.0.1:${httpPort}/v1/traces`, endpoint: `http://127.0.0.1:${httpPort}`, pid: child.pid!, log: () => log, stop };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

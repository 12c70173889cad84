// Runs `scorestream start` as a real child process (so tests can SIGKILL or SIGTERM it), with
// brokers, group and topics passed through the environment overrides.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { testBrokers } from './kafka.ts';
import { testKafkaClient } from './service.ts';
import type { ServiceTopics } from './service.ts';

const cli = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));
const fixtureConfig = fileURLToPath(new URL('../fixtures/service.config.ts', import.meta.url));

export type ServiceProcess = {
  child: ChildProcess;
  /** Every log line so far (JSON, as the service writes them). */
  readonly output: string[];
  /** The lines written to stderr alone, in their order (stdout and stderr interleave in \`output\` as the pipes are read). */
  readonly errorOutput: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export function spawnService(options: { topics: ServiceTopics; groupId: string; env?: Record<string, string>; config?: string }): ServiceProcess {
  const output: string[] = [];
  const errorOutput: string[] = [];
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--disable-warning=TimeoutNegativeWarning', cli, 'start', '--config', options.config ?? fixtureConfig], {
    env: {
      ...process.env,
      KAFKA_BROKERS: testBrokers().join(','),
      SCORESTREAM_GROUP_ID: options.groupId,
      SCORESTREAM_TOPIC_RUNS: options.topics.runs,
      SCORESTREAM_TOPIC_RESULTS: options.topics.results,
      SCORESTREAM_TOPIC_DEAD_LETTER: options.topics.deadLetter,
      SCORESTREAM_LOG_LEVEL: 'info',
      SCORESTREAM_KAFKA_CLIENT: testKafkaClient(),
      // No collector listens in tests; a test that sets OTEL_* variables is about export.
      ...(Object.keys(options.env ?? {}).some((name) => name.startsWith('OTEL_')) ? {} : { OTEL_SDK_DISABLED: 'true' }),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const linesOf = (chunk: Buffer) => chunk.toString('utf8').split('\n').filter(Boolean);
  child.stdout!.on('data', (chunk: Buffer) => output.push(...linesOf(chunk)));
  child.stderr!.on('data', (chunk: Buffer) => {
    const lines = linesOf(chunk);
    output.push(...lines);
    errorOutput.push(...lines);
  });
  // 'close', not 'exit': by then both pipes are drained, so the output holds the last words too.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, output, errorOutput, exited };
}

/** Resolves when a log line matching `pattern` appeared. */
export async function waitForLog(service: ServiceProcess, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = service.output.find((candidate) => pattern.test(candidate));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no log line matching ${pattern} within ${timeoutMs} ms; output:\n${service.output.slice(-30).join('\n')}`);
    if (service.child.exitCode !== null) throw new Error(`service exited (${service.child.exitCode}) before logging ${pattern}; output:\n${service.output.slice(-30).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

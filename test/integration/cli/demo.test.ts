// The README's first command, `./bin/scorestream demo`, as a user runs it (the real script, as a
// child process), on the test broker through KAFKA_BROKERS: live scores within seconds, a clean
// exit on Ctrl-C; and a word on the terminal when Kafka does not answer at once, then an error
// that says what to check.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testBrokers, uniqueName } from '../../helpers/kafka.ts';

const script = fileURLToPath(new URL('../../../bin/scorestream', import.meta.url));

function runDemo(brokers: string, environment: Record<string, string> = {}, args: string[] = []) {
  let stdout = '';
  let stderr = '';
  const child = spawn(script, ['demo', '--rate', '50', ...args], { env: { ...process.env, KAFKA_BROKERS: brokers, OTEL_SDK_DISABLED: 'true', ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // 'close': the process exited and its output was read to the end.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const waitFor = async (what: string, condition: () => boolean, timeoutMs: number, poll?: () => Promise<unknown>) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await poll?.();
      if (condition()) return;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`demo: no ${what} within ${timeoutMs} ms (exit ${child.exitCode});\nstdout:\n${stdout.slice(-2000)}\nstderr:\n${stderr.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { child, exited, waitFor, stdout: () => stdout, stderr: () => stderr };
}

/** Scored records in the latest frame of the live view. */
const scoredSoFar = (stdout: string) => Math.max(0, ...[...stdout.matchAll(/^scored (\d+)/gm)].map((match) => Number(match[1])));

describe('scorestream demo', () => {
  it('shows live scores within seconds and stops cleanly on Ctrl-C', async () => {
    // Conversations quiet for 2 s are scored (the example's 20 s would add that much to the test).
    const demo = runDemo(testBrokers().join(','), { SCORESTREAM_EXAMPLE_THREAD_IDLE_MS: '2000' });
    const started = Date.now();
    await demo.waitFor('scored records in the live view', () => scoredSoFar(demo.stdout()) > 0, 60_000);
    console.log(`demo: first scores on screen after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(demo.stdout()).toMatch(/^scorer +mean +scored/m);
    expect(demo.stdout()).toMatch(/^completeness +\d\.\d{3} +\d+/m);
    // The demo starts the dashboard and prints its URL; the page's data answers there.
    const dashboardUrl = /^Dashboard: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(demo.stdout())?.[1];
    expect(dashboardUrl).toBeDefined();
    const snapshot = (await (await fetch(`${dashboardUrl}api/snapshot`)).json()) as { windowMs: number };
    expect(snapshot.windowMs).toBe(6 * 3_600_000);
    // The trajectory scorers score the sample traffic's unoffered tools, loops and bad arguments,
    // in the live view and on the dashboard.
    const trajectoryScorers = ['unoffered-tool-calls', 'tool-argument-validity', 'repeated-tool-calls', 'tool-error-recovery', 'step-budget'];
    await demo.waitFor('trajectory scores in the live view', () => trajectoryScorers.every((id) => new RegExp(`^${id} +\\d\\.\\d{3} +[1-9]`, 'm').test(demo.stdout())), 60_000);
    let dashboardText = '';
    await demo.waitFor('trajectory scores on the dashboard', () => trajectoryScorers.every((id) => dashboardText.includes(`"${id}"`)), 60_000, async () => (dashboardText = await (await fetch(`${dashboardUrl}api/snapshot`)).text()));
    // The sample traffic carries thumbs; the demo's feedback join turns them into agreement
    // windows the dashboard's feedback view reads, disagreements among them.
    type Agreements = { state: string; windows: { n: number; agreements: number }[]; disagreements: unknown[] };
    let agreements: Agreements | undefined;
    await demo.waitFor(
      'agreement windows on the dashboard',
      () => agreements !== undefined && agreements.windows.some((window) => window.n > 0) && agreements.disagreements.length > 0,
      60_000,
      async () => (agreements = ((await (await fetch(`${dashboardUrl}api/snapshot`)).json()) as { agreements: Agreements }).agreements),
    );
    expect(agreements?.state).toBe('reading');
    // The sample traffic holds conversations and the example config binds two thread scorers:
    // each conversation quiet for their idle gap is scored as a whole (docs/threads.md).
    await demo.waitFor('thread scores in the live view', () => /^turn-count +\d+\.\d{3} +[1-9]/m.test(demo.stdout()) && /^run-score-mean +\d\.\d{3} +[1-9]/m.test(demo.stdout()), 60_000);
    console.log(`demo: thread scores on screen after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The dashboard reads them back from the latest-score view too (its threads view; docs/dashboard.md).
    let counts: { latestScores: number; threads: number } | undefined;
    await demo.waitFor('thread scores read from the latest-score view', () => (counts?.latestScores ?? 0) > 0 && (counts?.threads ?? 0) > 0, 30_000, async () => (counts = ((await (await fetch(`${dashboardUrl}api/snapshot`)).json()) as { counts: typeof counts }).counts));
    // The example config re-scores keyword-coverage on a thumbs-down (rescoreOn): the join asks, the service scores again.
    await demo.waitFor('a re-score on feedback in the live view', () => /^re-scores on feedback .*\badmitted \d+/m.test(demo.stdout()), 60_000);

    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    expect(demo.stderr()).toContain('stopping: finishing in-flight runs');
    expect(demo.stdout()).toMatch(/failed 0/);
  });

  it("shows a monitor breaching when the sample traffic degrades the support agent, and recovering", async () => {
    // Topics of its own: the monitors restore their state from the alerts topic.
    const topics = { SCORESTREAM_TOPIC_RUNS: uniqueName('demo-runs'), SCORESTREAM_TOPIC_RESULTS: uniqueName('demo-scores'), SCORESTREAM_TOPIC_ALERTS: uniqueName('demo-alerts') };
    const demo = runDemo(testBrokers().join(','), topics, ['--degrade-after', '5s', '--degrade-for', '40s']);
    const started = Date.now();
    await demo.waitFor('a breach of support-agent-completeness', () => /support-agent-completeness breached: mean of completeness \(agent support-agent\) 0\.\d+ < 0\.25/.test(demo.stdout()), 120_000);
    console.log(`demo: breach on screen ${((Date.now() - started) / 1000).toFixed(1)} s after start (degraded from 5 s)`);
    await demo.waitFor('its recovery', () => /support-agent-completeness recovered: mean of completeness \(agent support-agent\) 0\.\d+, threshold < 0\.25/.test(demo.stdout()), 120_000);
    console.log(`demo: recovery on screen ${((Date.now() - started) / 1000).toFixed(1)} s after start (normal again from 45 s)`);
    // The other agents never degraded; the scores kept arriving.
    expect(demo.stdout()).not.toMatch(/completeness-scores-arriving breached/);
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
  }, 240_000);

  it('ends, not hangs, when a start step after the service fails', async () => {
    // The dashboard refuses a non-http trace link once the service already runs: the demo must
    // stop the service and the traffic it started, or their Kafka clients keep it alive.
    const demo = runDemo(testBrokers().join(','), { SCORESTREAM_TRACE_URL: 'ftp://traces.example/{traceId}' });
    const code = await Promise.race([demo.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running after 60 s'), 60_000))]);
    expect({ code, stderr: demo.stderr() }).toMatchObject({ code: 1, stderr: expect.stringMatching(/^scorestream: .*only http and https links are allowed, got 'ftp:'/m) });
    expect(demo.stdout()).not.toContain('Scorestream demo —');
  }, 90_000);

  it('says where to look when Kafka does not answer', async () => {
    // A port that accepts connections and never answers: Kafka requests wait there.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const demo = runDemo(`127.0.0.1:${(silent.address() as AddressInfo).port}`);
    await demo.waitFor('notice about the slow start', () => demo.stderr().includes('still connecting to Kafka'), 20_000);
    expect(demo.stderr()).toMatch(/still connecting to Kafka \(creating topics, joining the consumer group\); progress and errors: .*demo\.log/);
    expect(demo.stdout()).not.toContain('Scorestream demo —');

    // The pre-flight gives up after its requests' timeouts (about 40 s, kafka-defaults.ts); the error then says what to check.
    expect(await demo.exited).toBe(1);
    expect(demo.stderr()).toMatch(/^scorestream: .+\nKafka did not answer.*KAFKA_BROKERS/m);
  }, 120_000);
});

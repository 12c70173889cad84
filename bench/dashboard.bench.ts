// The dashboard's bounds, measured on the real command (`bin/scorestream dashboard`, a child
// process whose RSS is read from /proc): (1) a 6-hour look-back — score records spread over the
// last six hours (Kafka timestamps and scoredAt alike), read at start: catch-up time, snapshot
// size and the page's load time in Debian's chromium; (2) a long run — records fed as fast as one
// producer sends them while a page stays connected over SSE, RSS sampled throughout, to show
// memory stays flat at the configured bounds whatever the volume.
// Records mimic the demo's: its four code scorers and three judge scorers (with judge evidence),
// the sample agents and tenants, ~85% scored, ~10% not scorable, ~5% failed, plus skip decisions.
// Usage: KAFKA_BROKERS=host:port node bench/dashboard.bench.ts [lookBackRecords] [liveRecords]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { tenants } from '../producers/sample/tenants.ts';
import { scoreIdFor } from '../src/kit/contracts/score-id.ts';

const lookBackRecords = Number(process.argv[2] ?? 100_000);
const liveRecords = Number(process.argv[3] ?? 200_000);
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
if (brokers.length === 0) throw new Error('set KAFKA_BROKERS to a running broker (e.g. ./bin/scorestream kafka start prints it)');

const hour = 3_600_000;
const codeScorers = ['completeness', 'tool-error-rate', 'keyword-coverage', 'tool-call-accuracy'];
const judgeScorers = ['answer-relevancy', 'toxicity', 'support-tone'];
const agents = ['support-agent', 'research-agent', 'coding-assistant', 'trip-planner'];
const skipReasons = ['sampling', 'filter', 'sampling', 'when'] as const;
const prompt = 'You are grading a customer-support answer. Rate how relevant the answer is to the question on a scale from 0 to 1 and explain briefly.\n\nQuestion: Where is my order #12345? It was supposed to arrive on Monday and the tracking page has not changed for three days.\n\nAnswer: I looked up order #12345: it left our warehouse on Friday and the carrier reports a delay in the regional hub. It should arrive within two business days; I have added a note so that support follows up if it does not.';

function record(index: number, at: number) {
  const judged = index % 4 === 3;
  const scorerId = judged ? judgeScorers[index % judgeScorers.length]! : codeScorers[Math.floor(index / 4) % codeScorers.length]!;
  const runId = `bench-run-${index}`;
  const roll = (index * 7919) % 100;
  const status = roll < 85 ? 'scored' : roll < 95 ? 'not_scorable' : 'failed';
  const score = ((index * 37) % 101) / 100;
  return {
    schemaVersion: 1,
    scoreId: scoreIdFor({ runId, scorerId }),
    status,
    ...(status === 'scored' ? { score, reason: judged ? 'The answer addresses the order and gives a concrete delivery estimate.' : `${Math.round(score * 10)} of 10 checks passed` } : {}),
    ...(status === 'not_scorable' ? { notScorable: { step: 'preprocess', reason: 'the run made no tool calls' } } : {}),
    ...(status === 'failed' ? { error: { name: 'APICallError', message: 'the judge did not answer within 30 s', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: true } } : {}),
    runId,
    scorerId,
    entity: { type: 'agent', id: agents[index % agents.length] },
    metadata: { tenantId: tenants[index % tenants.length]!.id, environment: 'production', tags: ['bench'] },
    steps: judged ? { analyze: { relevant: true, missing: [] } } : { preprocess: { toolCalls: index % 5 } },
    prompts: judged ? { generateScore: prompt } : {},
    ...(judged
      ? { judge: { generateScore: { executions: [{ status: 'success', prompt, judgeModelId: 'llama3.1:8b', judgeProvider: 'ollama', attemptCount: 1, modelCallCount: 1, durationMs: 850, output: score, usage: { inputTokens: 210, outputTokens: 9, totalTokens: 219 } }] } } }
      : {}),
    trace: { traceId: (index * 2654435761).toString(16).padStart(32, '0').slice(-32), spanId: (index * 40503).toString(16).padStart(16, '0').slice(-16) },
    source: { topic: 'agent-runs', partition: index % 6, offset: String(index) },
    scoredAt: new Date(at).toISOString(),
    durationMs: judged ? 900 : 2,
  };
}

const decision = (index: number, at: number) => ({
  schemaVersion: 1,
  runId: `bench-run-${index}`,
  scorerId: judgeScorers[index % judgeScorers.length],
  decision: 'skipped',
  reason: skipReasons[index % skipReasons.length],
  source: { topic: 'agent-runs', partition: index % 6, offset: String(index) },
  decidedAt: new Date(at).toISOString(),
});

const kafka = new Kafka({ clientId: 'bench-dashboard', brokers, logLevel: logLevel.NOTHING });
const suffix = Date.now().toString(36);
const topics = { results: `bench-dashboard-scores-${suffix}`, decisions: `bench-dashboard-decisions-${suffix}` };
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: [{ topic: topics.results, numPartitions: 6 }, { topic: topics.decisions, numPartitions: 6 }], waitForLeaders: true });
const producer = kafka.producer({ allowAutoTopicCreation: false });
await producer.connect();

let bytesSent = 0;
async function send(count: number, timeOf: (index: number) => number, offset = 0): Promise<void> {
  const batch = 1_000;
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    const messages = Array.from({ length: size }, (_, i) => {
      const index = offset + start + i;
      const value = JSON.stringify(record(index, timeOf(index)));
      bytesSent += value.length;
      return { key: `bench-run-${index}`, value, timestamp: String(timeOf(index)) };
    });
    const decisions = Array.from({ length: Math.ceil(size / 4) }, (_, i) => {
      const index = offset + start + i * 4;
      return { key: `bench-run-${index}`, value: JSON.stringify(decision(index, timeOf(index))), timestamp: String(timeOf(index)) };
    });
    await producer.sendBatch({ acks: 1, topicMessages: [{ topic: topics.results, messages }, { topic: topics.decisions, messages: decisions }] });
  }
}

/** The child's resident set, from /proc (Linux). */
const rssOf = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
type Counts = { records: number; decisions: number; duplicates: number; ringRecords: number; ringBytes: number; runs: number; buckets: number };
const countsOf = async (url: string) => ((await (await fetch(`${url}api/snapshot`)).json()) as { counts: Counts }).counts;

/** `bin/scorestream dashboard` on the bench topics; resolves with its URL once it printed it. */
function startDashboardProcess() {
  const child = spawn(fileURLToPath(new URL('../bin/scorestream', import.meta.url)), ['dashboard', '--brokers', brokers.join(','), '--topic', topics.results, '--decisions-topic', topics.decisions, '--since', '6h', '--port', '0', '--trace-url', 'jaeger'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /dashboard: (http:\/\/\S+\/)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`scorestream dashboard exited (${code}) before printing its URL`)));
  });
  return { child, url };
}

try {
  // (1) The look-back.
  const startOfLookBack = Date.now() - 6 * hour;
  let began = Date.now();
  await send(lookBackRecords, (index) => startOfLookBack + 60_000 + Math.floor((index / lookBackRecords) * (6 * hour - 120_000)));
  console.log(`produced ${lookBackRecords} records over the last 6 h (${Math.round(bytesSent / 1024 / 1024)} MB of JSON, ${Math.ceil(lookBackRecords / 4)} decisions) in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  began = Date.now();
  const process_ = startDashboardProcess();
  const dashboard = { url: await process_.url };
  const pid = process_.child.pid!;
  const startRss = rssOf(pid);
  while ((await countsOf(dashboard.url)).records < lookBackRecords) await new Promise((resolve) => setTimeout(resolve, 100));
  const catchUpMs = Date.now() - began;
  const counts = await countsOf(dashboard.url);
  const afterLookBack = rssOf(pid);
  console.log(`look-back read in ${(catchUpMs / 1000).toFixed(1)} s from the command's start (${Math.round(counts.records / (catchUpMs / 1000))} records/s): ${JSON.stringify(counts)}`);
  const snapshotBytes = (await (await fetch(`${dashboard.url}api/snapshot`)).text()).length;

  const profile = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.SCORESTREAM_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 1000 },
  });
  const loads: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    const page = await browser.newPage();
    const started = Date.now();
    await page.goto(dashboard.url);
    // Loaded: the table filled and a card with its three charts for every scorer.
    await page.waitForFunction(
      (charts) => {
        const page = (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document;
        return page.querySelectorAll('#records tbody tr').length > 0 && page.querySelectorAll('.scorer-card canvas').length >= charts;
      },
      (codeScorers.length + judgeScorers.length) * 3,
      { timeout: 60_000, polling: 20 },
    ).catch(async (error: unknown) => {
      console.error(`page did not finish loading: ${await page.locator('#records tbody tr').count()} rows, ${await page.locator('.scorer-card').count()} cards, ${await page.locator('.scorer-card canvas').count()} charts`);
      throw error;
    });
    loads.push(Date.now() - started);
    await page.close();
  }
  console.log(`snapshot ${Math.round(snapshotBytes / 1024)} kB; page load (navigation to table and ${codeScorers.length + judgeScorers.length} scorer cards drawn) ${loads.join(', ')} ms`);

  // (2) The long run, with a page connected.
  const page = await browser.newPage();
  await page.goto(dashboard.url);
  await page.waitForSelector('#records tbody tr');
  const samples: { records: number; rss: number }[] = [{ records: 0, rss: rssOf(pid) }];
  began = Date.now();
  const chunk = Math.max(1_000, Math.floor(liveRecords / 10));
  for (let sent = 0; sent < liveRecords; sent += chunk) {
    await send(Math.min(chunk, liveRecords - sent), () => Date.now(), lookBackRecords + sent);
    const target = counts.records + sent + Math.min(chunk, liveRecords - sent);
    while ((await countsOf(dashboard.url)).records < target) await new Promise((resolve) => setTimeout(resolve, 100));
    samples.push({ records: sent + Math.min(chunk, liveRecords - sent), rss: rssOf(pid) });
  }
  const liveMs = Date.now() - began;
  const rowsOnPage = await page.locator('#records tbody tr').count();
  console.log(`long run: ${liveRecords} records fed and shown live in ${(liveMs / 1000).toFixed(1)} s (${Math.round(liveRecords / (liveMs / 1000))} records/s end to end, one producer), page rows ${rowsOnPage}`);
  console.log(`final counts ${JSON.stringify(await countsOf(dashboard.url))}`);
  console.log('\n| `scorestream dashboard` | RSS MB |\n|---|---:|');
  console.log(`| just started (URL printed) | ${startRss} |`);
  console.log(`| 6 h look-back read (${lookBackRecords} records) | ${afterLookBack} |`);
  for (const sample of samples.slice(1)) console.log(`| +${sample.records} live records | ${sample.rss} |`);
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  process_.child.kill('SIGTERM');
  await new Promise((resolve) => process_.child.once('exit', resolve));
} finally {
  await producer.disconnect();
  await admin.deleteTopics({ topics: [topics.results, topics.decisions] }).catch(() => undefined);
  await admin.disconnect();
}

// Takes the docs' pictures of the dashboard during the demo: runs `bin/scorestream demo` on
// topics of its own (so it disturbs no other user of the broker), lets it score sample traffic
// for a few minutes, opens `bin/scorestream dashboard --since 10m` on the demo's topics in
// Debian's chromium, and writes screenshots of the scores view (with the overview), a record's
// detail, compare (the first half of the traffic against the second) and the feedback view.
//
// The feedback view reads agreement records, which the feedback join will publish — it is not
// built yet (docs/feedback.md). Standing in for it, this script publishes agreement records made
// from the demo's real score records and simulated thumbs (a person agrees with the judge's
// pass/fail four times in five), counted with the project's agreement code (src/agreement/).
// Usage: KAFKA_BROKERS=host:port node scripts/dashboard-screenshot.ts [seconds of traffic] [out.png]
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { chromium } from 'playwright-core';
import { agreementFigures } from '../src/agreement/agreement-figures.ts';
import { confusionMatrix } from '../src/agreement/confusion-matrix.ts';
import { agreementIdFor } from '../src/contracts/agreement-id.ts';
import type { AgreementPair, AgreementWindow } from '../src/contracts/agreement-record.ts';
import { feedbackIdFor } from '../src/contracts/feedback-id.ts';
import { parseScoreRecord } from '../src/contracts/parse.ts';
import type { ScoredRecord } from '../src/contracts/score-record.ts';

const seconds = Number(process.argv[2] ?? 180);
const out = process.argv[3] ?? fileURLToPath(new URL('../docs/images/dashboard.png', import.meta.url));
const picture = (name: string) => out.replace(/\.png$/, `-${name}.png`);
const cli = fileURLToPath(new URL('../bin/scorestream', import.meta.url));
const suffix = Date.now().toString(36);
const topics = {
  runs: `screenshot-runs-${suffix}`,
  results: `screenshot-scores-${suffix}`,
  decisions: `screenshot-decisions-${suffix}`,
  deadLetter: `screenshot-dlq-${suffix}`,
  agreements: `screenshot-agreements-${suffix}`,
};
const env = {
  ...process.env,
  OTEL_SDK_DISABLED: 'true',
  SCORESTREAM_GROUP_ID: `screenshot-${suffix}`,
  SCORESTREAM_TOPIC_RUNS: topics.runs,
  SCORESTREAM_TOPIC_RESULTS: topics.results,
  SCORESTREAM_TOPIC_DECISIONS: topics.decisions,
  SCORESTREAM_TOPIC_DEAD_LETTER: topics.deadLetter,
  SCORESTREAM_TOPIC_AGREEMENTS: topics.agreements,
};
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
if (brokers.length === 0) throw new Error('set KAFKA_BROKERS=host:port: the script publishes to the demo\'s topics and deletes them afterwards');
const kafka = new Kafka({ clientId: 'screenshot', brokers, logLevel: logLevel.NOTHING });

function run(args: string[], waitFor: RegExp): { child: ChildProcess; match: Promise<RegExpExecArray> } {
  const child = spawn(cli, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const match = new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = waitFor.exec(output);
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`scorestream ${args[0]} exited (${code}):\n${output.slice(-2000)}`)));
  });
  return { child, match };
}

const stop = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : (child.once('exit', resolve), child.kill('SIGINT'))));

/** The demo's scored records so far, read from the results topic. */
async function scoredRecords(): Promise<ScoredRecord[]> {
  const admin = kafka.admin();
  await admin.connect();
  const high = (await admin.fetchTopicOffsets(topics.results)).reduce((sum, partition) => sum + Number(partition.high), 0);
  await admin.disconnect();
  const consumer = kafka.consumer({ groupId: `screenshot-reader-${suffix}`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topics.results], fromBeginning: true });
  const records: ScoredRecord[] = [];
  let read = 0;
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async ({ message }) => {
        read += 1;
        const parsed = parseScoreRecord(JSON.parse(message.value!.toString('utf8')));
        if (parsed.success && parsed.data.status === 'scored') records.push(parsed.data);
        if (read >= high) resolve();
      },
    });
  });
  await consumer.disconnect();
  return records;
}

/** Agreement records as the join would publish them: thumbs for one run in six, one-minute windows. */
function standInAgreements(records: ScoredRecord[]): (AgreementPair | AgreementWindow)[] {
  const judged = records.filter((record) => record.scorerId === 'completeness' || record.scorerId === 'keyword-coverage');
  const pairs: AgreementPair[] = [];
  judged.forEach((record, index) => {
    if (index % 6 !== 0) return;
    const judgeLabel = record.score >= 0.5 ? 'pass' : 'fail';
    const agree = index % 30 !== 0;
    const humanLabel = agree ? judgeLabel : judgeLabel === 'pass' ? 'fail' : 'pass';
    const target = { type: 'run' as const, runId: record.runId };
    const feedbackId = feedbackIdFor({ target, name: 'thumbs', source: 'end_user', submitterId: `user-${index % 7}` });
    pairs.push({
      schemaVersion: 1,
      kind: 'pair',
      agreementId: agreementIdFor({ feedbackId, scoreId: record.scoreId }),
      feedbackId,
      scoreId: record.scoreId,
      runId: record.runId,
      scorerId: record.scorerId,
      entity: record.entity,
      ...(record.metadata === undefined ? {} : { metadata: record.metadata }),
      judge: { score: record.score, label: judgeLabel },
      human: { name: 'thumbs', value: humanLabel === 'pass', label: humanLabel, source: 'end_user', submitter: { id: `user-${index % 7}` }, ...(agree ? {} : { comment: humanLabel === 'fail' ? 'It did not answer what I asked.' : 'That was exactly right.' }) },
      agree,
      measuredAt: new Date(Date.parse(record.scoredAt) + 5_000).toISOString(),
    });
  });
  const windows: AgreementWindow[] = [];
  const minute = 60_000;
  for (const scorerId of new Set(pairs.map((pair) => pair.scorerId))) {
    const own = pairs.filter((pair) => pair.scorerId === scorerId);
    const first = Math.floor(Math.min(...own.map((pair) => Date.parse(pair.measuredAt))) / minute) * minute;
    for (let start = first; start < Date.now(); start += minute) {
      const inWindow = own.filter((pair) => Date.parse(pair.measuredAt) >= start && Date.parse(pair.measuredAt) < start + minute);
      if (inWindow.length === 0) continue;
      const matrix = confusionMatrix(['pass', 'fail'], inWindow.map((pair) => ({ reference: pair.human.label, predicted: pair.judge.label })));
      const figures = agreementFigures(matrix);
      windows.push({
        schemaVersion: 1,
        kind: 'window',
        scorerId,
        windowStart: new Date(start).toISOString(),
        windowEnd: new Date(start + minute).toISOString(),
        n: figures.n,
        agreements: figures.agreements,
        accuracy: figures.accuracy ?? null,
        kappa: figures.kappa ?? null,
        confusion: { labels: [...matrix.labels], counts: matrix.counts },
        measuredAt: new Date(start + minute).toISOString(),
      });
    }
  }
  return [...pairs, ...windows];
}

const demoStarted = Date.now();
const demo = run(['demo', '--rate', '25'], /^Dashboard: (\S+)$/m);
await demo.match;
console.error(`demo running on ${topics.runs}; scoring sample traffic for ${seconds} s`);
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const demoStopped = Date.now();

const producer = kafka.producer();
await producer.connect();
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: [{ topic: topics.agreements, numPartitions: 1 }], waitForLeaders: true });
await admin.disconnect();
const agreements = standInAgreements(await scoredRecords());
await producer.send({ topic: topics.agreements, messages: agreements.map((record) => ({ key: record.kind === 'pair' ? record.runId : record.scorerId, value: JSON.stringify(record) })) });
await producer.disconnect();
console.error(`published ${agreements.length} stand-in agreement records`);

const dashboard = run(['dashboard', '--since', '10m', '--port', '0', '--trace-url', 'jaeger'], /dashboard: (http:\/\/\S+\/)/);
const url = (await dashboard.match)[1]!;
const profile = mkdtempSync(join(tmpdir(), 'screenshot-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.SCORESTREAM_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 1250 },
});
try {
  const page = await browser.newPage();
  await page.goto(`${url}?scorer=`);
  await page.waitForSelector('#records tbody tr');
  await page.waitForTimeout(3000);
  await page.screenshot({ path: out });
  await page.locator('#overview').screenshot({ path: picture('overview') });
  await page.locator('#records tbody tr').first().click();
  await page.waitForSelector('#detail-outcome');
  await page.screenshot({ path: picture('detail') });

  const middle = Math.round((demoStarted + demoStopped) / 2);
  const iso = (ms: number) => new Date(ms).toISOString();
  await page.goto(`${url}?view=compare&scorer=keyword-coverage&aFrom=${iso(demoStarted)}&aTo=${iso(middle)}&bFrom=${iso(middle)}&bTo=${iso(demoStopped + 60_000)}`);
  await page.waitForSelector('#compare-table');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: picture('compare'), fullPage: true });

  await page.goto(`${url}?view=feedback`);
  await page.waitForSelector('#disagreements tbody tr');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: picture('feedback') });
  console.error(`wrote ${out} and its -overview, -detail, -compare and -feedback pictures`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  await stop(dashboard.child);
  await stop(demo.child);
  // The demo's topics were this script's own.
  const cleanup = kafka.admin();
  await cleanup.connect();
  await cleanup.deleteTopics({ topics: Object.values(topics) }).catch(() => undefined);
  await cleanup.disconnect();
}

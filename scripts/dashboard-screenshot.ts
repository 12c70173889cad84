// Takes the docs' pictures of the dashboard during the demo: runs `bin/scorestream demo` on
// topics of its own (so it disturbs no other user of the broker), lets it score sample traffic
// for a few minutes, opens `bin/scorestream dashboard --since 10m` on the demo's topics in
// Debian's chromium, and writes screenshots of the scores view (with the overview), a record's
// detail, compare (the first half of the traffic against the second), the feedback view and the
// threads view (the demo's conversations, scored after their idle gap).
//
// The feedback view shows what the demo's feedback join publishes from its sample thumbs
// (docs/feedback.md).
// Usage: KAFKA_BROKERS=host:port node scripts/dashboard-screenshot.ts [seconds of traffic] [out.png]
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { chromium } from 'playwright-core';

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
  feedback: `screenshot-feedback-${suffix}`,
  feedbackDeadLetter: `screenshot-feedback-${suffix}-dlq`,
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
  SCORESTREAM_TOPIC_FEEDBACK: topics.feedback,
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

const demoStarted = Date.now();
const demo = run(['demo', '--rate', '25'], /^Dashboard: (\S+)$/m);
await demo.match;
console.error(`demo running on ${topics.runs}; scoring sample traffic for ${seconds} s`);
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const demoStopped = Date.now();

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

  // The demo's conversations close after their idle gap: the threads view, with the first thread's history open.
  await page.goto(`${url}?view=threads`);
  await page.waitForSelector('#thread-list tbody tr');
  // The thread of the latest version, most turns breaking ties (a resumed conversation's history,
  // when the demo has one), opened by its URL: the list re-renders as records stream in.
  const chosen = await page.evaluate(`(() => {
    const rows = [...document.querySelectorAll('#thread-list tbody tr')].map((row, index) => ({ key: row.dataset.thread, index, version: Number(row.children[4].textContent), turns: Number(row.children[5].textContent) }));
    rows.sort((a, b) => b.version - a.version || b.turns - a.turns || a.index - b.index);
    return rows[0].key;
  })()`);
  await page.goto(`${url}?view=threads&thread=${encodeURIComponent(String(chosen))}`);
  await page.waitForSelector('.thread-versions > li');
  // The history opens above the list: the top of the page shows it and the first rows.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: picture('threads') });
  console.error(`wrote ${out} and its -overview, -detail, -compare, -feedback and -threads pictures`);
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

// The dashboard shows the in-stream monitors: /api/alerts has each monitor's phase from its last
// notice on the alerts topic and the recent notices; record summaries carry their verdict, which
// the overview's pass-rate column counts; the monitors panel (a panel of panels.js, under the
// overview) shows each scorer with its monitors' states, and the alert records at the top of the
// records view — hostile monitor names and alert labels (agent, tenant) as text, never markup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../src/kit/contracts/alert-record.ts';
import { alertKeyFor } from '../../../src/kit/contracts/record-key.ts';
import { launchBrowser } from '../../helpers/browser.ts';
import type { TestBrowser } from '../../helpers/browser.ts';
import { scoreRecord } from '../../helpers/dashboard-records.ts';
import { useTopic } from '../../helpers/kafka.ts';
import { useDashboard, useDashboardTopics, useProducer } from './dashboard-helpers.ts';

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const hostile = '<img src=x onerror="window.__pwned=1">';
const hostileTenant = '<script>window.__pwned=2</script>';
const notice = (kind: 'breach' | 'recovered', at: number, name: string, scope: { agent?: string; tenant?: string } = { agent: 'support-agent' }): AlertRecord => ({
  schemaVersion: 1,
  alertId: `${name}-${kind}-${at}`,
  kind,
  monitor: { name, scorer: 'completeness', ...scope, aggregation: 'mean', windowMs: 60_000, threshold: { below: 0.25 }, forMs: 15_000, cooldownMs: 0, noData: 'keep', minSamples: 1 },
  value: kind === 'breach' ? 0.125 : 0.375,
  samples: 40,
  noData: false,
  since: new Date(at - 15_000).toISOString(),
  at: new Date(at).toISOString(),
});

describe('the dashboard and the monitors', () => {
  it('serves the monitors, their notices and the verdicts, and the page shows them as text', async () => {
    const topics = await useDashboardTopics();
    const alertsTopic = await useTopic({ prefix: 'dashboard-alerts' });
    const producer = await useProducer();
    const now = Date.now();
    await producer.send({
      topic: alertsTopic,
      messages: [notice('breach', now - 120_000, 'support-completeness'), notice('recovered', now - 60_000, 'support-completeness'), notice('breach', now - 30_000, hostile, { agent: hostile, tenant: hostileTenant })].map((record) => ({ key: alertKeyFor(record), value: JSON.stringify(record) })),
    });
    await producer.send({
      topic: topics.results,
      messages: [0.9, 0.8, 0.1].map((score, index) => {
        const record = { ...scoreRecord({ status: 'scored', score }, { scoreId: `v-${index}`, runId: `run-${index}`, at: now - 10_000 }), verdict: score >= 0.5 ? 'pass' : 'fail' };
        return { key: record.runId, value: JSON.stringify(record) };
      }),
    });
    const dashboard = await useDashboard(topics, { alertsTopic });

    let alerts: { monitors: { monitor: { name: string }; phase: string }[]; notices: AlertRecord[] } = { monitors: [], notices: [] };
    for (let attempt = 0; attempt < 100 && alerts.notices.length < 3; attempt += 1) {
      alerts = (await (await fetch(`${dashboard.url}api/alerts`)).json()) as typeof alerts;
      if (alerts.notices.length < 3) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(alerts.monitors.map((view) => [view.monitor.name, view.phase])).toEqual([[hostile, 'firing'], ['support-completeness', 'ok']]);
    expect(alerts.notices.map((entry) => entry.kind)).toEqual(['breach', 'recovered', 'breach']);
    const snapshot = (await (await fetch(`${dashboard.url}api/snapshot`)).json()) as { recent: { scoreId: string; verdict?: string }[] };
    expect(Object.fromEntries(snapshot.recent.map((summary) => [summary.scoreId, summary.verdict]))).toEqual({ 'v-0': 'pass', 'v-1': 'pass', 'v-2': 'fail' });

    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => {
      errors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(dashboard.url);
    const panel = page.locator('#alerts');
    await panel.locator('table.monitors tbody tr').nth(1).waitFor({ timeout: 30_000 });
    // The panel sits in the scores view, right under the overview.
    expect(await page.locator('[data-panels="scores"] > section').evaluateAll((sections) => sections.slice(0, 2).map((section) => section.id))).toEqual(['overview', 'alerts']);
    // One scorer: its name spans its two monitors' rows.
    expect(await panel.locator('table.monitors tbody th.scorer').allInnerTexts()).toEqual(['completeness']);
    // Its pass rate is the overview's, from the records' verdicts: 2 of 3.
    expect(await page.locator('#overview td[data-field="pass-rate"]').allInnerTexts()).toEqual(['66.7%']);
    expect(await panel.locator('table.monitors tbody tr').allInnerTexts()).toEqual([
      expect.stringContaining(`${hostile}\tmean of completeness (agent ${hostile}, tenant ${hostileTenant}) < 0.25 over 60 s\tfiring\t0.125`),
      expect.stringContaining('support-completeness\tmean of completeness (agent support-agent) < 0.25 over 60 s\tok\t0.375'),
    ]);
    // The alert records, newest first, in the records view above the score records.
    const records = page.locator('.records-panel #alert-records');
    await records.locator('li').nth(2).waitFor({ timeout: 30_000 });
    expect(await page.locator('.records-panel > *').evaluateAll((children) => children.map((child) => child.id).filter(Boolean))).toEqual(['alert-records', 'records']);
    const items = await records.locator('li').allInnerTexts();
    expect(items).toHaveLength(3);
    expect(items[0]).toContain(`breach ${hostile} (completeness · ${hostile} · ${hostileTenant}): mean 0.125 over 40 samples`);
    expect(items[1]).toContain('recovered support-completeness (completeness · support-agent): mean 0.375 over 40 samples');
    expect(await records.locator('li[data-kind="breach"]').count()).toBe(2);
    expect(await page.locator('#alert-records script, #alerts script').count()).toBe(0);
    expect(await page.locator('#alerts img, #alert-records img').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  });
});

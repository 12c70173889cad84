// The dashboard in a real browser (Debian's chromium through playwright-core) against the real
// broker: the page loads and shows what the topics hold, new records appear without a reload,
// filters change the charts and the table, the detail view shows judge evidence, trace links
// follow the configured preset, crafted records (feedback comments and labels too) stay inert, and a page reconnects to a restarted
// server and catches up.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementPair, agreementWindow, decisionRecord, scoreRecord } from '../../helpers/dashboard-records.ts';
import type { TestBrowser } from '../../helpers/browser.ts';
import { launchBrowser } from '../../helpers/browser.ts';
import { openDashboardPage, problemsOf, publish, useDashboard, useDashboardTopics, useProducer } from './dashboard-helpers.ts';

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const judged = (fields: Parameters<typeof scoreRecord>[1], score = 0.7) => {
  const record = scoreRecord({ status: 'scored', score }, fields);
  return {
    ...record,
    reason: 'the answer covers the question',
    steps: { analyze: { covered: ['refund', 'order'] } },
    prompts: { generateScore: 'Rate the answer from 0 to 1.' },
    judge: {
      generateScore: {
        executions: [
          { status: 'success' as const, prompt: 'Rate the answer from 0 to 1.', judgeModelId: 'judge-model-7b', judgeProvider: 'ollama', attemptCount: 2, modelCallCount: 2, durationMs: 1234, output: { score: score }, usage: { inputTokens: 321, outputTokens: 12, totalTokens: 333 } },
        ],
      },
    },
  };
};

const openPage = (url: string) => openDashboardPage(browser, url);
const row = (page: Page, scoreId: string) => page.locator(`#records tbody tr[data-score-id="${scoreId}"]`);

describe('dashboard page', () => {
  it('loads what the topics hold, then shows a newly published record within seconds without a reload', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const now = Date.now();
    await publish(producer, topics.results, [judged({ scoreId: 'first', runId: 'run-a', at: now - 60_000, tenant: 'acme' })]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(dashboard.url);
    await expect.poll(() => row(page, 'first').count()).toBe(1);
    await expect.poll(() => page.locator('#connection').getAttribute('data-state')).toBe('live');
    expect(await page.locator('.scorer-card[data-scorer="completeness"] .summary').textContent()).toContain('scored 1');

    const published = Date.now();
    await publish(producer, topics.results, [judged({ scoreId: 'second', runId: 'run-b', at: Date.now(), tenant: 'acme' }, 0.2)]);
    await expect.poll(() => row(page, 'second').count(), { timeout: 10_000 }).toBe(1);
    // A live update, not a reload: the page's navigation count is unchanged.
    expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(1);
    expect(Date.now() - published).toBeLessThan(10_000);
    await expect.poll(() => page.locator('.scorer-card[data-scorer="completeness"] .summary').textContent()).toContain('scored 2');
    expect(problemsOf(page)).toEqual([]);
  });

  it('filters change the charts and the table, and live in the URL', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const now = Date.now();
    await publish(producer, topics.results, [
      scoreRecord({ status: 'scored', score: 0.9 }, { scoreId: 'acme-high', runId: 'r1', tenant: 'acme', at: now - 120_000 }),
      scoreRecord({ status: 'scored', score: 0.1 }, { scoreId: 'globex-low', runId: 'r2', tenant: 'globex', at: now - 60_000 }),
      scoreRecord({ status: 'failed' }, { scoreId: 'acme-failed', runId: 'r3', tenant: 'acme', at: now - 30_000 }),
      scoreRecord({ status: 'scored', score: 0.5 }, { scoreId: 'tox', runId: 'r4', scorerId: 'toxicity', tenant: 'acme', at: now - 30_000 }),
    ]);
    await publish(producer, topics.decisions, [decisionRecord({ runId: 'r5', scorerId: 'toxicity', reason: 'sampling', at: now - 10_000 })]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(dashboard.url);
    await expect.poll(() => page.locator('#records tbody tr').count()).toBe(4);
    const summary = page.locator('.scorer-card[data-scorer="completeness"] .summary');
    expect(await summary.textContent()).toBe('scored 2 · mean 0.5 · not scorable 0 · failed 1 · skipped 0');
    expect(await page.locator('.scorer-card[data-scorer="toxicity"] .skips').textContent()).toContain('sampling 1');
    expect(await page.locator('.scorer-card[data-scorer="completeness"] [data-chart="distribution"]').getAttribute('data-total')).toBe('2');

    await page.selectOption('#filters [name="tenant"]', 'acme');
    await expect.poll(() => summary.textContent()).toBe('scored 1 · mean 0.9 · not scorable 0 · failed 1 · skipped 0');
    expect(await page.locator('#records tbody tr').count()).toBe(3);
    expect(page.url()).toContain('tenant=acme');

    await page.fill('#filters [name="max"]', '0.5');
    await page.locator('#filters [name="max"]').dispatchEvent('change');
    await expect.poll(() => page.locator('#records tbody tr').count()).toBe(1);
    expect(await row(page, 'tox').count()).toBe(1);
    await expect.poll(() => summary.textContent()).toBe('scored 0 · not scorable 0 · failed 0 · skipped 0');
    expect(await page.locator('.scorer-card[data-scorer="completeness"] [data-chart="mean"]').getAttribute('data-points')).toBe('0');

    // The URL is the view: opened fresh, it shows the same.
    const shared = await openPage(page.url());
    await expect.poll(() => shared.locator('#records tbody tr').count()).toBe(1);
    expect(await shared.locator('#filters [name="tenant"]').inputValue()).toBe('acme');

    await page.selectOption('#filters [name="scorer"]', 'completeness');
    await page.click('#reset');
    await expect.poll(() => page.locator('#records tbody tr').count()).toBe(4);
    await page.selectOption('#filters [name="status"]', 'failed');
    await expect.poll(() => page.locator('#records tbody tr').count()).toBe(1);
    expect(await row(page, 'acme-failed').count()).toBe(1);

    // Sorting by score: highest first, records without a score last.
    await page.selectOption('#filters [name="status"]', '');
    await page.click('#records th button[data-sort="score"]');
    await expect.poll(() => page.locator('#records tbody tr').first().getAttribute('data-score-id')).toBe('acme-high');
    expect(await page.locator('#records tbody tr').last().getAttribute('data-score-id')).toBe('acme-failed');
    expect(page.url()).toContain('sort=score');
    expect(problemsOf(page)).toEqual([]);
  });

  it('the detail view shows the steps and the judge evidence, with Prev and Next', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const now = Date.now();
    await publish(producer, topics.results, [
      judged({ scoreId: 'older', runId: 'run-1', at: now - 60_000 }, 0.4),
      judged({ scoreId: 'newer', runId: 'run-2', at: now - 30_000 }, 0.8),
    ]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(dashboard.url);
    await row(page, 'newer').click();
    const execution = page.locator('#detail-body .execution');
    await expect.poll(() => execution.count()).toBe(1);
    const evidence = await execution.textContent();
    for (const text of ['ollama / judge-model-7b', 'attempts2', 'model calls2', '1234 ms', 'in 321, out 12, total 333', 'Rate the answer from 0 to 1.']) expect(evidence).toContain(text);
    expect(await execution.locator('[data-field="response"]').textContent()).toContain('"score": 0.8');
    expect(await page.locator('#detail-body [data-field="step-analyze"]').textContent()).toContain('refund');
    expect(await page.locator('#detail-body [data-field="reason"]').textContent()).toBe('the answer covers the question');
    expect(await page.locator('#detail-outcome').textContent()).toBe('score 0.8');
    expect(page.url()).toContain('record=');

    await page.click('#detail-next');
    await expect.poll(() => page.locator('#detail-outcome').textContent()).toBe('score 0.4');
    await page.click('#detail-prev');
    await expect.poll(() => page.locator('#detail-outcome').textContent()).toBe('score 0.8');

    // "Why no score?" lists the run's records and decisions.
    await publish(producer, topics.decisions, [decisionRecord({ runId: 'run-2', scorerId: 'toxicity', reason: 'filter', at: Date.now() })]);
    await expect.poll(() => dashboard.state.run('run-2')?.entries.length).toBe(2);
    await page.click('#detail-close');
    await page.fill('#run-form [name="runId"]', 'run-2');
    await page.click('#run-form button');
    await expect.poll(() => page.locator('#run-result li').count()).toBe(2);
    expect(await page.locator('#run-result li[data-kind="decision"]').textContent()).toContain('toxicity: skipped (filter)');
    await page.fill('#run-form [name="runId"]', 'run-unknown');
    await page.click('#run-form button');
    await expect.poll(() => page.locator('#run-result').textContent()).toContain('No score record and no skip decision for run run-unknown');
    expect(problemsOf(page)).toEqual([]);
  });

  it.each([
    ['jaeger', 'http://localhost:16686/trace/4bf92f3577b34da6a3ce929d0e0e4736?uiFind=00f067aa0ba902b7'],
    ['https://traces.example/{traceId}/{spanId}', 'https://traces.example/4bf92f3577b34da6a3ce929d0e0e4736/00f067aa0ba902b7'],
    ['tempo=http://grafana.local:3000', 'tempo'],
    [undefined, undefined],
  ])('trace links for --trace-url %s', async (traceUrl, expected) => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    await publish(producer, topics.results, [judged({ scoreId: 'traced', at: Date.now() - 1000, trace: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' } })]);
    const dashboard = await useDashboard(topics, { traceUrl });
    const page = await openPage(dashboard.url);
    await expect.poll(() => row(page, 'traced').count()).toBe(1);
    const link = row(page, 'traced').locator('a.trace-link');
    await row(page, 'traced').click();
    await expect.poll(() => page.locator('#detail-outcome').count()).toBe(1);
    if (expected === undefined) {
      expect(await link.count()).toBe(0);
      expect(await page.locator('#detail-trace').isVisible()).toBe(false);
      return;
    }
    const href = (await link.getAttribute('href'))!;
    expect(await page.locator('#detail-trace').getAttribute('href')).toBe(href);
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    if (expected !== 'tempo') {
      expect(href).toBe(expected);
      return;
    }
    const url = new URL(href);
    expect(`${url.origin}${url.pathname}`).toBe('http://grafana.local:3000/explore');
    const panes = JSON.parse(url.searchParams.get('panes')!);
    expect(panes.trace.queries[0]).toMatchObject({ queryType: 'traceql', query: '4bf92f3577b34da6a3ce929d0e0e4736', datasource: { type: 'tempo' } });
  });

  it('records crafted with <script> and onerror payloads stay inert text', async () => {
    const topics = await useDashboardTopics({ agreements: true });
    const producer = await useProducer();
    const script = '<script>window.__xss = "script"</script>';
    const image = '<img src=x onerror="window.__xss = \'img\'; alert(1)" id="injected">';
    const crafted = judged({ scoreId: 'crafted', runId: `run-${image}`, scorerId: `scorer-${image}`, agent: `agent-${script}`, tenant: image, at: Date.now() - 1000 });
    const record = {
      ...crafted,
      reason: `${image} ${script}`,
      metadata: { tenantId: image, note: script, tags: [image] },
      steps: { analyze: { html: image } },
      judge: { generateScore: { executions: [{ ...crafted.judge.generateScore.executions[0]!, prompt: `${script}${image}`, judgeModelId: image, output: image }] } },
    };
    await publish(producer, topics.results, [record]);
    await publish(producer, topics.decisions, [{ ...decisionRecord({ runId: `run-${image}`, scorerId: `scorer-${image}`, at: Date.now() - 500, agent: `agent-${script}`, tenant: image }), detail: image }]);
    // Feedback as people type it: comments, labels, values and names with markup in them.
    await publish(producer, topics.agreements!, [
      agreementPair({
        agreementId: 'crafted-pair',
        scoreId: 'crafted',
        runId: `run-${image}`,
        scorerId: `scorer-${image}`,
        version: script,
        tenant: image,
        at: Date.now() - 400,
        judge: { score: 0.7, label: image },
        human: { name: `thumbs-${script}`, value: image, label: script, source: 'reviewer', submitter: { id: image, name: script }, comment: `${script} ${image}`, correction: { scorerId: image, label: script } },
      }),
      agreementWindow({ scorerId: `scorer-${image}`, version: script, start: Date.now() - 3_600_000, end: Date.now() - 300, labels: [image, script], counts: [[1, 0], [0, 1]], kappa: 1, accuracy: 1 }),
    ]);
    const dashboard = await useDashboard(topics, { traceUrl: 'jaeger' });
    const page = await openPage(dashboard.url);
    await expect.poll(() => row(page, 'crafted').count()).toBe(1);
    await row(page, 'crafted').click();
    await expect.poll(() => page.locator('#detail-body .execution').count()).toBe(1);
    expect(await page.locator('#detail-body [data-field="prompt"]').textContent()).toBe(`${script}${image}`);
    expect(await page.locator('#detail-body [data-field="metadata"]').textContent()).toContain('onerror');
    expect(await page.locator('#detail-body .execution dd').first().textContent()).toBe(`ollama / ${image}`);
    await page.click('#detail-close');
    await page.fill('#run-form [name="runId"]', `run-${image}`);
    await page.click('#run-form button');
    await expect.poll(() => page.locator('#run-result li').count()).toBe(2);
    await page.selectOption('#filters [name="tenant"]', image);
    await expect.poll(() => page.locator('#records tbody tr').count()).toBe(1);

    // Shown as text everywhere…
    expect(await row(page, 'crafted').locator('td.reason').textContent()).toBe(`${image} ${script}`);
    expect(await page.locator('#run-result li[data-kind="decision"]').textContent()).toContain(image);
    expect(await page.locator(`.scorer-card h2`).first().textContent()).toBe(`scorer-${image}`);
    expect(await page.locator(`#overview tbody tr td.name`).first().textContent()).toBe(`scorer-${image}`);
    expect(await page.locator('.scorer-card .skips').first().textContent()).toBe('skipped for tenant ' + image + ': sampling 1');

    // The feedback view and a disagreement opened from it.
    await page.click('#views a[data-view="feedback"]');
    const disagreement = page.locator('#disagreements tbody tr[data-agreement-id="crafted-pair"]');
    await expect.poll(() => disagreement.count()).toBe(1);
    expect(await disagreement.locator('[data-field="comment"]').textContent()).toBe(`${script} ${image}`);
    expect(await disagreement.locator('[data-field="person"]').textContent()).toBe(`${script} (thumbs-${script}: ${image})`);
    expect(await disagreement.locator('[data-field="by"]').textContent()).toBe(`reviewer ${script}`);
    expect(await page.locator('.agreement-card h2').textContent()).toBe(`scorer-${image} v${script}`);
    expect(await page.locator('.agreement-card table.confusion thead').textContent()).toBe(`person \\ judge${image}${script}`);
    await disagreement.click();
    await expect.poll(() => page.locator('#detail-body [data-field="comment"]').count()).toBe(1);
    expect(await page.locator('#detail-body [data-field="comment"]').textContent()).toBe(`${script} ${image}`);
    expect(await page.locator('#detail-body [data-field="verdicts"]').textContent()).toContain(`correction${image}: ${script}`);
    // …and never run: no dialog, no injected element, no global set, no script but the page's own.
    expect(problemsOf(page)).toEqual([]);
    expect(await page.locator('#injected, img[src="x"]').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.evaluate('[...document.scripts].map((element) => element.getAttribute("src"))')).toEqual(['/assets/app.js']);
  });

  it('a page reconnects to a restarted server and catches up without a reload', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 0.3 }, { scoreId: 'before', at: Date.now() - 1000 })]);
    const first = await useDashboard(topics);
    const page = await openPage(first.url);
    await expect.poll(() => row(page, 'before').count()).toBe(1);
    const firstEpoch = await page.locator('#connection').getAttribute('data-epoch');
    const port = first.server.port;

    await first.close();
    await expect.poll(() => page.locator('#connection').getAttribute('data-state')).toBe('reconnecting');
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 0.6 }, { scoreId: 'while-down', at: Date.now() })]);
    const second = await useDashboard(topics, { port });
    await expect.poll(() => row(page, 'while-down').count(), { timeout: 15_000 }).toBe(1);
    expect(await row(page, 'before').count()).toBe(1);
    await expect.poll(() => page.locator('#connection').getAttribute('data-state')).toBe('live');
    expect(await page.locator('#connection').getAttribute('data-epoch')).toBe(second.state.epoch);
    expect(second.state.epoch).not.toBe(firstEpoch);
    expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(1);

    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 0.9 }, { scoreId: 'after', at: Date.now() })]);
    await expect.poll(() => row(page, 'after').count(), { timeout: 10_000 }).toBe(1);
    expect(problemsOf(page)).toEqual([]);
  });
});

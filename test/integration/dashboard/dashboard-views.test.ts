// The views a team opens every morning, in a real browser against records on a real broker: time
// axes that span the selected window whatever the history (a regression: right after the demo
// started, a lone point made uPlot draw mid-2027 to mid-2029), the overview of every scorer worst
// first, re-scores on feedback counted apart and marked, skips split by agent and tenant, compare (two time ranges, two versions) and the
// feedback view on the agreements topic, and the threads view of thread scorers' records and of the
// latest-score view — each keyed in the URL.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../helpers/browser.ts';
import { launchBrowser } from '../../helpers/browser.ts';
import { agreementPair, agreementWindow, decisionRecord, scoreRecord, threadDecisionRecord, threadScoreRecord } from '../../helpers/dashboard-records.ts';
import { openDashboardPage, problemsOf, publish, publishView, useDashboard, useDashboardTopics, useProducer } from './dashboard-helpers.ts';
import { useTopic } from '../../helpers/kafka.ts';

let browser: TestBrowser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const minute = 60_000;
const hour = 60 * minute;
const openPage = (url: string) => openDashboardPage(browser, url);

/** The x range a time chart drew (epoch ms), read from what uPlot reported after drawing. */
async function drawnRange(page: Page, scorer: string, chart: 'mean' | 'status'): Promise<{ min: number; max: number; buckets: number; points: number }> {
  const element = page.locator(`.scorer-card[data-scorer="${scorer}"] [data-chart="${chart}"]`);
  await expect.poll(() => element.getAttribute('data-x-max')).not.toBeNull();
  const [min, max] = await Promise.all([element.getAttribute('data-x-min'), element.getAttribute('data-x-max')]);
  const mean = page.locator(`.scorer-card[data-scorer="${scorer}"] [data-chart="mean"]`);
  return { min: Number(min), max: Number(max), buckets: Number(await mean.getAttribute('data-buckets')), points: Number(await mean.getAttribute('data-points')) };
}

/** Within one bucket of `expected` (the page's axis starts at a bucket boundary and ends at its now). */
const near = (actual: number, expected: number, bucketMs: number) => expect(Math.abs(actual - expected), `${new Date(actual).toISOString()} vs ${new Date(expected).toISOString()}`).toBeLessThanOrEqual(bucketMs + 5_000);

describe('time axes', () => {
  it('span the whole look-back with a few seconds of data, at load and after a live record', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 0.8 }, { scoreId: 'first', at: Date.now() - 2_000 })]);
    const dashboard = await useDashboard(topics, { sinceMs: 6 * hour });
    const page = await openPage(dashboard.url);
    const bucketMs = dashboard.state.limits.bucketMs;
    for (const chart of ['mean', 'status'] as const) {
      const range = await drawnRange(page, 'completeness', chart);
      near(range.min, Date.now() - 6 * hour, bucketMs);
      near(range.max, Date.now(), bucketMs);
    }
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 0.4 }, { scoreId: 'second', at: Date.now() })]);
    await expect.poll(() => page.locator('.scorer-card[data-scorer="completeness"] .summary').textContent(), { timeout: 10_000 }).toContain('scored 2');
    const later = await drawnRange(page, 'completeness', 'mean');
    near(later.min, Date.now() - 6 * hour, bucketMs);
    near(later.max, Date.now(), bucketMs);
    expect(later.max - later.min).toBeGreaterThan(5.9 * hour);
    expect(problemsOf(page)).toEqual([]);
  });

  it('draw a gap as a gap: every bucket of the window is a point, empty ones without a mean', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    await publish(producer, topics.results, [
      scoreRecord({ status: 'scored', score: 0.9 }, { scoreId: 'early', at: Date.now() - 25 * minute }),
      scoreRecord({ status: 'scored', score: 0.3 }, { scoreId: 'late', at: Date.now() - minute }),
    ]);
    const dashboard = await useDashboard(topics, { sinceMs: 30 * minute, bucketMs: 10_000 });
    const page = await openPage(dashboard.url);
    const range = await drawnRange(page, 'completeness', 'mean');
    near(range.min, Date.now() - 30 * minute, 10_000);
    near(range.max, Date.now(), 10_000);
    // 30 minutes of 10 s buckets, two of them with a score.
    expect(range.buckets).toBeGreaterThanOrEqual(180);
    expect(range.buckets).toBeLessThanOrEqual(182);
    expect(range.points).toBe(2);
  });

  it('span a range selected in the URL, and the last hour when asked', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    await publish(producer, topics.results, [
      scoreRecord({ status: 'scored', score: 0.5 }, { scoreId: 'one', at: Date.now() - 3 * hour }),
      scoreRecord({ status: 'scored', score: 0.7 }, { scoreId: 'two', at: Date.now() - 10 * minute }),
    ]);
    const dashboard = await useDashboard(topics, { sinceMs: 6 * hour });
    const bucketMs = dashboard.state.limits.bucketMs;
    const from = Date.now() - 4 * hour;
    const to = Date.now() - 2 * hour;
    const page = await openPage(`${dashboard.url}?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
    const selected = await drawnRange(page, 'completeness', 'mean');
    near(selected.min, from, bucketMs);
    expect(selected.max).toBe(to);
    await page.click('#zoom-reset');
    await page.selectOption('#filters [name="range"]', '1h');
    const status = page.locator('.scorer-card[data-scorer="completeness"] [data-chart="status"]');
    await expect.poll(async () => Number(await status.getAttribute('data-x-max')) - Number(await status.getAttribute('data-x-min'))).toBeLessThan(hour + bucketMs + 5_000);
    expect(page.url()).toContain('range=1h');
  });
});

describe('the overview', () => {
  it('lists every scorer worst first with mean, pass rate, failure share and volume, and opens a scorer\'s detail', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const at = Date.now() - 10 * minute;
    let id = 0;
    const scored = (scorerId: string, score: number, verdict?: 'pass' | 'fail') => scoreRecord({ status: 'scored', score, ...(verdict === undefined ? {} : { verdict }) }, { scoreId: `s-${(id += 1)}`, scorerId, tenant: 'acme', at });
    await publish(producer, topics.results, [
      scored('relevancy', 0.9, 'pass'), scored('relevancy', 0.1, 'fail'), scored('relevancy', 0.2, 'fail'), scored('relevancy', 0.8, 'pass'),
      scored('tone', 0.9, 'pass'), scored('tone', 0.7, 'pass'), scored('tone', 0.6, 'pass'), scored('tone', 0.2, 'fail'),
      scored('completeness', 0.5), scored('completeness', 0.7),
      scoreRecord({ status: 'failed' }, { scoreId: 'c-failed', scorerId: 'completeness', tenant: 'acme', at }),
      scored('keyword', 1),
    ]);
    await publish(producer, topics.decisions, [decisionRecord({ runId: 'skip-1', scorerId: 'tone', reason: 'sampling', at, agent: 'support-agent', tenant: 'acme' })]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(dashboard.url);
    const rows = page.locator('#overview tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    expect(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-scorer')))).toEqual(['relevancy', 'tone', 'completeness', 'keyword']);
    const cells = async (scorer: string) =>
      page.locator(`#overview tr[data-scorer="${scorer}"] td[data-field]`).evaluateAll((elements) => Object.fromEntries(elements.map((element) => [element.getAttribute('data-field'), element.textContent])));
    expect(await cells('relevancy')).toMatchObject({ mean: '0.5', 'pass-rate': '50%', failed: '0%', records: '4', skipped: '0' });
    expect(await cells('tone')).toMatchObject({ 'pass-rate': '75%', skipped: '1' });
    expect(await cells('completeness')).toMatchObject({ mean: '0.6', 'pass-rate': '—', failed: '33.3%', records: '3' });
    expect(await page.locator('#overview tr[data-scorer="relevancy"] svg.sparkline circle, #overview tr[data-scorer="relevancy"] svg.sparkline polyline').count()).toBeGreaterThan(0);

    await page.click('#overview tr[data-scorer="completeness"]');
    await expect.poll(() => page.locator('.scorer-card').count()).toBe(1);
    expect(await page.locator('.scorer-card').getAttribute('data-scorer')).toBe('completeness');
    expect(page.url()).toContain('scorer=completeness');
    expect(await page.locator('#records tbody tr').count()).toBe(3);
    expect(await page.locator('#overview tr[data-scorer="completeness"]').getAttribute('data-selected')).toBe('true');
    // The overview still lists every scorer: the scorer filter narrows the detail below it.
    expect(await rows.count()).toBe(4);
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('re-scores on feedback', () => {
  it('are counted apart from their scorer\'s scores, marked in the table, the detail and "why no score?", and arrive live; their strings stay text', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const at = Date.now() - 10 * minute;
    const image = '<img src=x onerror="window.__xss = 1" id="injected">';
    const rescore = { feedbackId: `fb-${image}`, reason: 'thumbs-down' as const };
    // Two runs judged 0.9 and 0.7 (both pass); a person disagreed with the first, and its re-score said 0.1 (fail).
    const again = { ...scoreRecord({ status: 'scored', score: 0.1, verdict: 'fail' }, { scoreId: 'again', runId: 'run-disputed', scorerId: 'relevancy', at: at + 1_000, rescore }), reason: `the answer ${image} misses the question` };
    await publish(producer, topics.results, [
      scoreRecord({ status: 'scored', score: 0.9, verdict: 'pass' }, { scoreId: 'judged', runId: 'run-disputed', scorerId: 'relevancy', at }),
      scoreRecord({ status: 'scored', score: 0.7, verdict: 'pass' }, { scoreId: 'other', runId: 'run-other', scorerId: 'relevancy', at }),
      again,
    ]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(dashboard.url);
    const summary = page.locator('.scorer-card[data-scorer="relevancy"] .summary');
    await expect.poll(() => summary.textContent()).toBe('scored 2 · mean 0.8 · not scorable 0 · failed 0 · skipped 0 · re-scores 1 (not in these figures)');
    const cells = () => page.locator('#overview tr[data-scorer="relevancy"] td[data-field]').evaluateAll((elements) => Object.fromEntries(elements.map((element) => [element.getAttribute('data-field'), element.textContent])));
    expect(await cells()).toMatchObject({ mean: '0.8', 'pass-rate': '100%', records: '2', rescores: '1' });

    // The table: the re-score's row is marked, its reason and feedback id are text.
    const row = page.locator('#records tbody tr[data-score-id="again"]');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getAttribute('data-rescore')).toBe('thumbs-down');
    expect(await row.locator('.rescore-mark').textContent()).toBe('re-score (thumbs-down)');
    expect(await row.locator('.rescore-mark').getAttribute('title')).toBe(`re-score (thumbs-down) for feedback fb-${image}`);
    expect(await row.locator('td.reason').textContent()).toBe(`the answer ${image} misses the question`);
    expect(await page.locator('#records tbody tr[data-score-id="judged"]').getAttribute('data-rescore')).toBeNull();
    expect(await page.locator('#records tbody .rescore-mark').count()).toBe(1);

    // The detail view says what it is and for which feedback.
    await row.click();
    await expect.poll(() => page.locator('#detail-outcome').textContent()).toBe('score 0.1 · fail · re-score (thumbs-down)');
    expect(await page.locator('#detail-body [data-field="rescore"]').textContent()).toContain(`feedbackfb-${image}`);
    expect(await page.locator('#detail-body [data-field="reason"]').textContent()).toBe(`the answer ${image} misses the question`);
    await page.click('#detail-close');

    // "Why no score?": the re-score right after the judged score it revisits.
    await page.fill('#run-form [name="runId"]', 'run-disputed');
    await page.click('#run-form button');
    const entries = page.locator('#run-result li');
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.nth(0).getAttribute('data-rescore')).toBeNull();
    expect(await entries.nth(0).textContent()).toContain('relevancy: scored 0.9');
    expect(await entries.nth(1).getAttribute('data-rescore')).toBe('thumbs-down');
    expect(await entries.nth(1).textContent()).toContain(`relevancy: re-score (thumbs-down) for feedback fb-${image}: scored 0.1 — the answer ${image} misses the question`);

    // A re-score arriving live is counted apart too, without a reload.
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 0.2, verdict: 'fail' }, { scoreId: 'again-live', runId: 'run-other', scorerId: 'relevancy', at: Date.now(), rescore: { feedbackId: 'fb-live', reason: 'correction' } })]);
    await expect.poll(() => summary.textContent(), { timeout: 10_000 }).toBe('scored 2 · mean 0.8 · not scorable 0 · failed 0 · skipped 0 · re-scores 2 (not in these figures)');
    expect(await cells()).toMatchObject({ mean: '0.8', 'pass-rate': '100%', records: '2', rescores: '2' });
    expect(await page.locator('#records tbody tr[data-score-id="again-live"] .rescore-mark').textContent()).toBe('re-score (correction)');

    expect(problemsOf(page)).toEqual([]);
    expect(await page.locator('#injected, img[src="x"]').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
  });
});

describe('skip reasons by agent and tenant', () => {
  it('follow the agent and tenant filters, and say in words which skips they cannot place', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const at = Date.now() - 5 * minute;
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 0.5 }, { scoreId: 'r', scorerId: 'toxicity', tenant: 'acme', at })]);
    await publish(producer, topics.decisions, [
      decisionRecord({ runId: 'a1', scorerId: 'toxicity', reason: 'sampling', at, agent: 'support-agent', tenant: 'acme' }),
      decisionRecord({ runId: 'a2', scorerId: 'toxicity', reason: 'filter', at, agent: 'support-agent', tenant: 'globex' }),
      decisionRecord({ runId: 'old', scorerId: 'toxicity', reason: 'sampling', at }),
    ]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(dashboard.url);
    const skips = page.locator('.scorer-card[data-scorer="toxicity"] .skips');
    await expect.poll(() => skips.textContent()).toBe('skipped: sampling 2 · filter 1');
    await page.selectOption('#filters [name="tenant"]', 'globex');
    await expect.poll(() => skips.textContent()).toBe(
      'skipped for tenant globex: filter 1 (and 1 skip of runs whose agent and tenant were not recorded — decisions from an older Scorestream — left out of this filter)',
    );
    expect(await skips.textContent()).not.toContain('entity');
  });
});

describe('compare', () => {
  it('puts two versions side by side with sample sizes, means, pass rates and a significance hint', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const at = Date.now() - 30 * minute;
    const records = [
      ...[0.2, 0.3, 0.25, 0.35, 0.3, 0.2].map((score, index) => scoreRecord({ status: 'scored', score, verdict: score >= 0.3 ? 'pass' : 'fail' }, { scoreId: `v1-${index}`, scorerId: 'relevancy', version: '1', at })),
      ...[0.8, 0.9, 0.85, 0.95, 0.9, 0.8].map((score, index) => scoreRecord({ status: 'scored', score, verdict: 'pass' }, { scoreId: `v2-${index}`, scorerId: 'relevancy', version: '2', at })),
    ];
    await publish(producer, topics.results, records);
    const dashboard = await useDashboard(topics);
    const page = await openPage(`${dashboard.url}?view=compare&scorer=relevancy&cmp=version`);
    const cell = (field: string, side: 'a' | 'b') => page.locator(`#compare-table tr[data-field="${field}"] td[data-side="${side}"]`).textContent();
    await expect.poll(() => cell('n', 'a')).toBe('6');
    expect(await page.locator('#compare-table th[data-side="a"]').textContent()).toBe('A: version 1');
    expect(await page.locator('#compare-table th[data-side="b"]').textContent()).toBe('B: version 2');
    expect(await cell('mean', 'a')).toMatch(/^0\.267 ± 0\.06/);
    expect(await cell('mean', 'b')).toMatch(/^0\.867 ± 0\.06/);
    expect(await cell('pass-rate', 'a')).toBe('50% of 6');
    expect(await cell('pass-rate', 'b')).toBe('100% of 6');
    const means = await page.locator('#compare-hints li[data-test="means"]').textContent();
    expect(means).toContain("B − A = 0.6 (Welch's t");
    expect(means).toContain('very unlikely to be chance');
    expect(await page.locator('#compare-hints li[data-test="distributions"]').textContent()).toContain('a B score is above an A score in 100% of pairs');
    expect(await page.locator('.distribution tbody tr').count()).toBeGreaterThan(2);

    // The same page from its URL alone; then two time ranges, chosen in the page, into the URL.
    const shared = await openPage(page.url());
    await expect.poll(() => shared.locator('#compare-table tr[data-field="n"] td[data-side="b"]').textContent()).toBe('6');
    await page.selectOption('#compare-controls [name="compare-mode"]', 'time');
    await expect.poll(() => page.url()).not.toContain('cmp=version');
    // By default the last hour against the hour before: all twelve records are in B.
    await expect.poll(() => cell('n', 'b')).toBe('12');
    expect(await cell('n', 'a')).toBe('0');
    expect(await page.locator('#compare-hints li[data-test="means"]').textContent()).toBe('means: too few records on a side to tell');
    expect(problemsOf(page)).toEqual([]);
  });

  it('compares two time ranges named in the URL, and says when a scorer has only one version', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const now = Date.now();
    await publish(producer, topics.results, [
      ...[0.9, 0.8, 0.85].map((score, index) => scoreRecord({ status: 'scored', score }, { scoreId: `a-${index}`, at: now - 3 * hour })),
      ...[0.4, 0.5].map((score, index) => scoreRecord({ status: 'scored', score }, { scoreId: `b-${index}`, at: now - 30 * minute })),
      scoreRecord({ status: 'failed' }, { scoreId: 'b-failed', at: now - 30 * minute }),
    ]);
    const dashboard = await useDashboard(topics);
    const iso = (ms: number) => new Date(ms).toISOString();
    const page = await openPage(`${dashboard.url}?view=compare&scorer=completeness&aFrom=${iso(now - 4 * hour)}&aTo=${iso(now - 2 * hour)}&bFrom=${iso(now - hour)}&bTo=${iso(now)}`);
    const cell = (field: string, side: 'a' | 'b') => page.locator(`#compare-table tr[data-field="${field}"] td[data-side="${side}"]`).textContent();
    await expect.poll(() => cell('n', 'a')).toBe('3');
    expect(await cell('n', 'b')).toBe('2');
    expect(await cell('failed', 'b')).toBe('1');
    expect(await cell('pass-rate', 'a')).toBe('—');
    expect(await page.locator('#compare-hints li[data-test="pass rates"]').textContent()).toBe('pass rates: these records carry no verdicts');
    await page.selectOption('#compare-controls [name="compare-mode"]', 'version');
    await expect.poll(() => page.locator('#compare-note').textContent()).toContain('has only version (no version) in the look-back');
    expect(page.url()).toContain('cmp=version');
  });
});

describe('the feedback view', () => {
  it('says so when the agreements topic does not exist', async () => {
    const topics = await useDashboardTopics();
    const dashboard = await useDashboard({ ...topics, agreements: `${topics.results}-no-agreements` });
    const page = await openPage(`${dashboard.url}?view=feedback`);
    await expect.poll(() => page.locator('#feedback-notice').textContent()).toContain(`The agreements topic '${topics.results}-no-agreements' does not exist`);
    expect(await page.locator('#feedback-notice').textContent()).toContain('scorestream agreement');
    expect(await page.locator('#view-scores').isHidden()).toBe(true);
  });

  it('shows agreement over time per scorer version and the disagreements, each opening the run with both verdicts and the judge\'s evidence', async () => {
    const topics = await useDashboardTopics({ agreements: true });
    const producer = await useProducer();
    const now = Date.now();
    const record = {
      ...scoreRecord({ status: 'scored', score: 0.9, verdict: 'pass' }, { scoreId: 'judged', runId: 'run-77', scorerId: 'answer-relevancy', version: '2', at: now - 20 * minute }),
      judge: { generateScore: { executions: [{ status: 'success' as const, prompt: 'Is the answer relevant?', judgeModelId: 'judge-7b', attemptCount: 1, modelCallCount: 1, durationMs: 800, output: { verdict: 'yes' }, usage: { inputTokens: 50, outputTokens: 3, totalTokens: 53 } }] } },
    };
    await publish(producer, topics.results, [record]);
    await publish(producer, topics.agreements!, [
      agreementWindow({ version: '2', start: now - 3 * hour, end: now - 2 * hour, counts: [[10, 4], [6, 10]], kappa: 0.33, accuracy: 0.667 }),
      agreementWindow({ version: '2', start: now - 2 * hour, end: now - hour, counts: [[15, 2], [3, 10]], kappa: 0.65, accuracy: 0.833 }),
      agreementPair({ agreementId: 'disagree-1', scoreId: 'judged', runId: 'run-77', version: '2', at: now - 10 * minute, judge: { score: 0.9, label: 'pass' }, human: { name: 'thumbs', value: false, label: 'fail', source: 'end_user', submitter: { id: 'u-1', name: 'Dana' }, comment: 'It answered a different question.' } }),
      agreementPair({ agreementId: 'agree-1', version: '2', agree: true, at: now - 9 * minute }),
    ]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(`${dashboard.url}?view=feedback`);
    const card = page.locator('.agreement-card[data-scorer="answer-relevancy"][data-version="2"]');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.locator('h2').textContent()).toBe('answer-relevancy v2');
    expect(await card.locator('.summary').textContent()).toContain('30 labelled pairs · accuracy 0.833 · κ 0.65');
    expect(await card.locator('[data-chart="agreement"]').getAttribute('data-points')).toBe('2');
    expect(await card.locator('table.confusion tbody').textContent()).toBe('pass152fail310');
    expect(await page.locator('#feedback-notice').textContent()).toBe('');
    const rows = page.locator('#disagreements tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator('[data-field="judge"]').textContent()).toBe('pass (0.9)');
    expect(await rows.first().locator('[data-field="person"]').textContent()).toBe('fail (thumbs: false)');
    expect(await rows.first().locator('[data-field="by"]').textContent()).toBe('end user Dana');

    await rows.first().click();
    await expect.poll(() => page.locator('#detail-disagreement').count()).toBe(1);
    expect(await page.locator('#detail-outcome').textContent()).toBe('score 0.9 · pass');
    expect(await page.locator('#detail-body [data-field="verdicts"]').textContent()).toContain('judgepass (score 0.9)personfail (thumbs: false)');
    expect(await page.locator('#detail-body [data-field="comment"]').textContent()).toBe('It answered a different question.');
    expect(await page.locator('#detail-body .execution').textContent()).toContain('Is the answer relevant?');
    expect(page.url()).toContain('pair=disagree-1');

    // The URL opens the same disagreement; the scorer filter narrows the view.
    const shared = await openPage(page.url());
    await expect.poll(() => shared.locator('#detail-disagreement').count()).toBe(1);
    await page.click('#detail-close');
    await page.selectOption('#filters [name="scorer"]', 'answer-relevancy');
    await expect.poll(() => page.url()).toContain('scorer=answer-relevancy');
    expect(await rows.count()).toBe(1);

    // Live: a new disagreement and an updated window arrive without a reload.
    await publish(producer, topics.agreements!, [
      agreementPair({ agreementId: 'disagree-2', scoreId: 'judged', runId: 'run-77', version: '2', at: Date.now(), human: { comment: 'Still wrong.' } }),
      agreementWindow({ version: '2', start: now - 2 * hour, end: now - hour, counts: [[16, 2], [3, 10]], kappa: 0.66, accuracy: 0.839, measuredAt: now }),
    ]);
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    expect(await rows.first().getAttribute('data-agreement-id')).toBe('disagree-2');
    await expect.poll(() => card.locator('.summary').textContent()).toContain('31 labelled pairs');
    expect(await card.locator('[data-chart="agreement"]').getAttribute('data-points')).toBe('2');
    expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(1);
    expect(problemsOf(page)).toEqual([]);
    expect(problemsOf(shared)).toEqual([]);
  });
});

describe('the threads view', () => {
  it('lists threads with their latest version and scores, opens a thread\'s history newest first, each score opening its record, and follows live versions', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const now = Date.now();
    const hostile = '<img src=x onerror="window.pwned=1">';
    await publish(producer, topics.results, [
      threadScoreRecord({ status: 'scored', score: 2 }, { threadId: 'support-42', tenant: 'acme', version: 1, turns: 2, at: now - 30 * minute }),
      threadScoreRecord({ status: 'scored', score: 0.4, verdict: 'fail' }, { threadId: 'support-42', tenant: 'acme', version: 1, turns: 2, scorerId: 'resolution', at: now - 30 * minute }),
      threadScoreRecord({ status: 'scored', score: 3 }, { threadId: 'support-42', tenant: 'acme', version: 2, turns: 3, at: now - 10 * minute, supersedes: 'acme:support-42-v1', closedBy: 'ended' }),
      threadScoreRecord({ status: 'scored', score: 0.9, verdict: 'pass' }, { threadId: 'support-42', tenant: 'acme', version: 2, turns: 3, scorerId: 'resolution', at: now - 10 * minute, supersedes: 'acme:support-42-v1', closedBy: 'ended' }),
      // Another tenant's thread of the same id is another thread; a hostile id stays text.
      threadScoreRecord({ status: 'scored', score: 1 }, { threadId: 'support-42', tenant: 'beta', version: 1, turns: 1, at: now - 20 * minute }),
      threadScoreRecord({ status: 'failed' }, { threadId: hostile, tenant: 'beta', version: 1, turns: 4, at: now - 25 * minute }),
      scoreRecord({ status: 'scored', score: 0.5 }, { scoreId: 'a-run-score', at: now - 5 * minute }),
    ]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(`${dashboard.url}?view=threads`);
    const rows = page.locator('#thread-list tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-thread')))).toEqual(['acme:support-42', 'beta:support-42', `beta:${hostile}`]);
    const first = rows.first();
    expect(await first.locator('td').allTextContents()).toEqual([expect.any(String), 'support-42', 'support-agent', 'acme', '2', '3', 'ended', '0.9 pass', '3']);
    expect(await rows.nth(2).locator('[data-field="id"]').textContent()).toBe(hostile);
    expect(await rows.nth(2).locator('[data-scorer="turn-count"]').textContent()).toBe('failed');
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('#thread-list img').count()).toBe(0);

    await first.click();
    await expect.poll(() => page.url()).toContain('thread=acme%3Asupport-42');
    const versions = page.locator('.thread-versions > li');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-version')))).toEqual(['2', '1']);
    expect(await versions.first().locator('.version-line').textContent()).toBe('version 2: the whole conversation, 3 turns (support-42-run-1 → support-42-run-3), closed by ended by the agent, supersedes acme:sup');
    expect(await versions.nth(1).locator('li').allTextContents()).toEqual([expect.stringMatching(/^resolution: 0\.4 fail · /), expect.stringMatching(/^turn-count: 2 · /)]);
    await versions.nth(1).locator('button[data-score-id="acme:support-42-v1-resolution"]').click();
    await expect.poll(() => page.locator('#detail-outcome').textContent()).toBe('score 0.4 · fail');

    // The URL opens the same thread; a filter narrows the list.
    const shared = await openPage(page.url().replace(/&record=[^&]*/, ''));
    await expect.poll(() => shared.locator('.thread-versions > li').count()).toBe(2);
    await page.click('#detail-close');
    await page.selectOption('#filters [name="tenant"]', 'beta');
    await expect.poll(() => rows.count()).toBe(2);
    await page.selectOption('#filters [name="tenant"]', '');

    // Live: the thread resumes and is scored as version 3 without a reload.
    await publish(producer, topics.results, [threadScoreRecord({ status: 'scored', score: 5 }, { threadId: 'support-42', tenant: 'acme', version: 3, turns: 5, at: Date.now(), supersedes: 'acme:support-42-v2' })]);
    await expect.poll(() => versions.count(), { timeout: 10_000 }).toBe(3);
    expect(await first.locator('td').nth(4).textContent()).toBe('3');
    expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(1);
    expect(problemsOf(page)).toEqual([]);
    expect(problemsOf(shared)).toEqual([]);
  });

  it('shows every thread\'s latest scores from the latest-score view, older than the look-back too, with the history the results hold, and follows the view live', async () => {
    const topics = await useDashboardTopics();
    const view = await useTopic({ prefix: 'dashboard-thread-scores', partitions: 2, config: { 'cleanup.policy': 'compact' } });
    const producer = await useProducer();
    const now = Date.now();
    const hostile = '<script>window.pwned=1</script>';
    // Scored two days ago: beyond the 6-hour look-back, only the view still names them.
    const old = [
      threadScoreRecord({ status: 'scored', score: 6 }, { threadId: 'ticket-7', tenant: 'acme', version: 2, turns: 6, at: now - 48 * hour, supersedes: 'acme:ticket-7-v1' }),
      threadScoreRecord({ status: 'scored', score: 0.8, verdict: 'pass' }, { threadId: 'ticket-7', tenant: 'acme', version: 2, turns: 6, scorerId: 'resolution', at: now - 48 * hour, supersedes: 'acme:ticket-7-v1' }),
      threadScoreRecord({ status: 'not_scorable' }, { threadId: hostile, tenant: 'beta', version: 1, turns: 1, at: now - 30 * hour }),
    ];
    // A thread of the look-back: both its versions on the results topic, its latest on the view.
    const recent = [
      threadScoreRecord({ status: 'scored', score: 2 }, { threadId: 'chat-1', tenant: 'acme', version: 1, turns: 2, at: now - 40 * minute }),
      threadScoreRecord({ status: 'scored', score: 4 }, { threadId: 'chat-1', tenant: 'acme', version: 2, turns: 4, at: now - 10 * minute, supersedes: 'acme:chat-1-v1' }),
    ];
    await publishView(producer, view, [...old, recent[1]!]);
    await publish(producer, topics.results, recent);
    const dashboard = await useDashboard(topics, { latestScoresTopic: view });
    expect(dashboard.state.counts()).toMatchObject({ records: 2, latestScores: 4, threads: 3 });
    const page = await openPage(`${dashboard.url}?view=threads`);
    const rows = page.locator('#thread-list tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-thread')))).toEqual(['acme:chat-1', `beta:${hostile}`, 'acme:ticket-7']);
    expect(await rows.nth(2).locator('td').allTextContents()).toEqual([expect.any(String), 'ticket-7', 'support-agent', 'acme', '2', '6', 'idle', '0.8 pass', '6']);
    expect(await rows.nth(1).locator('[data-field="id"]').textContent()).toBe(hostile);
    expect(await rows.nth(1).locator('[data-scorer="turn-count"]').textContent()).toBe('not scorable');
    // The charts and the table count the results topic's records only.
    await expect.poll(() => page.locator('#counts').textContent()).toMatch(/^2 records/);

    // The history comes from the results topic: both versions of the recent thread; the old one has only its latest.
    await rows.first().click();
    const versions = page.locator('.thread-versions > li');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-version')))).toEqual(['2', '1']);
    await rows.nth(2).click();
    await expect.poll(() => page.url()).toContain('thread=acme%3Aticket-7');
    await expect.poll(() => versions.count()).toBe(1);
    expect(await versions.first().locator('.version-line').textContent()).toMatch(/^version 2: the whole conversation, 6 turns/);

    // A chosen time range lists the threads last scored in it.
    await page.selectOption('#filters [name="range"]', '1h');
    await expect.poll(() => rows.count()).toBe(1);
    await page.selectOption('#filters [name="range"]', '');
    await expect.poll(() => rows.count()).toBe(3);

    // Live: a version that reaches the view shows without a reload.
    await publishView(producer, view, [threadScoreRecord({ status: 'scored', score: 7 }, { threadId: 'ticket-7', tenant: 'acme', version: 3, turns: 7, at: Date.now(), supersedes: 'acme:ticket-7-v2' })]);
    await expect.poll(() => rows.first().getAttribute('data-thread'), { timeout: 10_000 }).toBe('acme:ticket-7');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await rows.first().locator('td').nth(4).textContent()).toBe('3');
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('#thread-list script').count()).toBe(0);
    expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(1);
    expect(problemsOf(page)).toEqual([]);
  });

  it('keeps the most recently scored threads when the view names more than it keeps, whatever order they are read in', async () => {
    const topics = await useDashboardTopics();
    const view = await useTopic({ prefix: 'dashboard-thread-scores', partitions: 2, config: { 'cleanup.policy': 'compact' } });
    const producer = await useProducer();
    const now = Date.now();
    const ages = [50, 3, 70, 1, 90, 2, 60, 80]; // hours ago, in the order they are written
    await publishView(producer, view, ages.map((age, index) => threadScoreRecord({ status: 'scored', score: index }, { threadId: `t-${age}h`, version: 1, turns: 1, at: now - age * hour })));
    const dashboard = await useDashboard(topics, { latestScoresTopic: view, limits: { maxThreads: 3 } });
    expect(dashboard.state.counts()).toMatchObject({ latestScores: 8, threads: 3 });
    const page = await openPage(`${dashboard.url}?view=threads`);
    const rows = page.locator('#thread-list tbody tr [data-field="id"]');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.allTextContents()).toEqual(['t-1h', 't-2h', 't-3h']);
    expect(problemsOf(page)).toEqual([]);
  });

  it('answers why a thread has no score: its scorers\' decisions, found by thread id in every tenant', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const now = Date.now();
    await publish(producer, topics.results, [
      threadScoreRecord({ status: 'scored', score: 2 }, { threadId: 'case-9', tenant: 'acme', version: 1, turns: 2, at: now - 20 * minute }),
      scoreRecord({ status: 'scored', score: 0.7 }, { scoreId: 'turn-2-score', runId: 'case-9-run-2', scorerId: 'answer-length', tenant: 'acme', at: now - 21 * minute }),
    ]);
    await publish(producer, topics.decisions, [
      threadDecisionRecord({ threadId: 'case-9', tenant: 'acme', turns: 5, reason: 'rescore_refused', at: now - 5 * minute, detail: 'onResume once' }),
      threadDecisionRecord({ threadId: 'case-9', tenant: 'beta', turns: 1, reason: 'sampling', at: now - 3 * minute }),
    ]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(`${dashboard.url}?view=threads`);
    const rows = page.locator('#thread-list tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // The resumed thread's re-score was refused: the row says so rather than showing the old score as current.
    expect(await page.locator('#thread-list tr[data-thread="acme:case-9"] [data-scorer="turn-count"]').textContent()).toBe('no score: rescore refused');
    expect(await page.locator('#thread-list tr[data-thread="beta:case-9"] td').nth(4).textContent()).toBe('—');

    await page.fill('#thread-find [name="threadId"]', 'case-9');
    await page.click('#thread-find button[type="submit"]');
    const tenants = page.locator('#thread-find-result button');
    await expect.poll(() => tenants.count()).toBe(2);
    await page.click('#thread-find-result button[data-thread="acme:case-9"]');
    await expect.poll(() => page.url()).toContain('thread=acme%3Acase-9');
    await expect.poll(() => page.locator('.thread-decisions li').count()).toBe(1);
    expect(await page.locator('.thread-decisions li').textContent()).toMatch(/^turn-count: no score: rescore refused after 5 turns \(closed by idle\) — onResume once · /);
    expect(await page.locator('.thread-versions > li').count()).toBe(1);
    // Its turns, each looked up like a run: the run scores it carried, openable.
    expect(await page.locator('.thread-versions .turns button').allTextContents()).toEqual(['#1', '#2']);
    await page.click('.thread-versions .turns button[data-run-id="case-9-run-2"]');
    await expect.poll(() => page.locator('.turn-result').textContent()).toContain('answer-length: scored 0.7');
    // (The thread's own score is there too: a thread score's run id is its last turn's.)
    await page.locator('.turn-result li', { hasText: 'answer-length' }).locator('button').click();
    await expect.poll(() => page.locator('#detail-outcome').textContent()).toBe('score 0.7');
    await page.click('#detail-close');

    await page.fill('#thread-find [name="threadId"]', 'no-such-thread');
    await page.click('#thread-find button[type="submit"]');
    await expect.poll(() => page.locator('#thread-find-result').textContent()).toContain("No thread 'no-such-thread' kept");
    expect(problemsOf(page)).toEqual([]);
  });
});

describe('judge spend', () => {
  it('sums the records\' spend per scorer version and tenant over the range, follows the tenant filter and live records; a hostile tenant stays text', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const at = Date.now() - 10 * minute;
    const hostile = '<img src=x onerror="window.__xss = 1" id="injected">';
    const spend = (judgeCalls: number, cost?: number, unpricedCalls?: number) => ({
      judgeCalls,
      inputTokens: 1000 * judgeCalls,
      cachedInputTokens: 250 * judgeCalls,
      cacheWriteTokens: 0,
      outputTokens: 40 * judgeCalls,
      reasoningTokens: 0,
      ...(cost === undefined ? {} : { cost: { amount: cost, unit: 'USD' } }),
      ...(unpricedCalls === undefined ? {} : { unpricedCalls }),
    });
    await publish(producer, topics.results, [
      { ...scoreRecord({ status: 'scored', score: 0.9 }, { scoreId: 's1', scorerId: 'relevancy', version: '2', tenant: 'acme', at }), spend: spend(2, 0.0012) },
      { ...scoreRecord({ status: 'failed' }, { scoreId: 's2', scorerId: 'relevancy', version: '2', tenant: hostile, at }), spend: spend(1, 0.0006) },
      { ...scoreRecord({ status: 'scored', score: 0.4 }, { scoreId: 's3', scorerId: 'house-judge', tenant: 'acme', at }), spend: spend(3, undefined, 3) },
      scoreRecord({ status: 'scored', score: 1 }, { scoreId: 's4', scorerId: 'completeness', tenant: 'acme', at }),
    ]);
    const dashboard = await useDashboard(topics);
    const page = await openPage(dashboard.url);
    const totals = page.locator('#spend [data-field="totals"]');
    await expect.poll(() => totals.textContent()).toBe('6 judge calls, 0.0018 USD, and 3 calls of models without a price (not in the cost).');
    const row = (table: string, key: string, value: string) => page.locator(`#spend .${table} tr[data-${key}="${value}"] td[data-field]`).evaluateAll((elements) => Object.fromEntries(elements.map((element) => [element.getAttribute('data-field'), element.textContent])));
    expect(await row('spend-by-scorer', 'scorer', 'relevancy')).toEqual({ calls: '3', input: '3000', cached: '25%', output: '120', cost: '0.0018 USD', unpriced: '0' });
    expect(await row('spend-by-scorer', 'scorer', 'house-judge')).toMatchObject({ calls: '3', cost: '—', unpriced: '3' });
    expect(await page.locator('#spend .spend-by-tenant tbody td.name').allTextContents()).toEqual(['acme', hostile]);

    // The tenant filter narrows it; a record arriving live is added without a reload.
    await page.goto(`${dashboard.url}?tenant=acme`);
    await expect.poll(() => totals.textContent()).toBe('5 judge calls, 0.0012 USD, and 3 calls of models without a price (not in the cost).');
    await publish(producer, topics.results, [{ ...scoreRecord({ status: 'scored', score: 0.8 }, { scoreId: 's5', scorerId: 'relevancy', version: '2', tenant: 'acme', at: Date.now() }), spend: spend(1, 0.0006) }]);
    await expect.poll(() => totals.textContent(), { timeout: 10_000 }).toBe('6 judge calls, 0.0018 USD, and 3 calls of models without a price (not in the cost).');

    expect(problemsOf(page)).toEqual([]);
    expect(await page.locator('#injected, img[src="x"]').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
  });
});

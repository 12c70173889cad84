// The shipped rules on the service's real metrics: `scorestream start` runs with the Prometheus
// exporter (OTEL_METRICS_EXPORTER=prometheus) while sample traffic flows in which one agent
// degrades for a while; its /metrics output is scraped every 500 ms. Every metric and label the
// rules and the Grafana alert view read must be in that output. Then the scrapes become promtool
// input series, one scrape per minute (time runs 120 times faster than it did; the values are the
// exporter's own), and promtool evaluates the rules on them: no quality drop while all agents are
// normal, ScorestreamQualityDrop for the degraded agent alone during its episode, none again after
// it recovered; ScorestreamScoresStopped for the scorer whose judge budget ran out.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../../../local/kafka/ports.ts';
import { runPrometheusTool } from '../../../local/promtool/index.ts';
import { createRunPublisher } from '../../../producers/run-publisher.ts';
import { createSampleRunGenerator, sampleRunContext } from '../../../producers/sample/index.ts';
import { testBrokers, uniqueGroupId } from '../../helpers/kafka.ts';
import { useServiceTopics } from '../../helpers/service.ts';
import { startMockBatchServer } from '../../helpers/mock-batch-server.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';

const rulesDirectory = fileURLToPath(new URL('../../../dashboard/prometheus/', import.meta.url));
const ruleFiles = ['scorestream-recording.rules.yml', 'scorestream-alerts.rules.yml', 'scorestream-slo.rules.yml'].map((file) => join(rulesDirectory, file));
const alertView = fileURLToPath(new URL('../../../dashboard/grafana/scorestream-alerts.json', import.meta.url));
const config = fileURLToPath(new URL('../../fixtures/alerts.config.ts', import.meta.url));

const scrapeEveryMs = 500;
/** Scrapes (dilated minutes) of each phase: normal, support-agent degraded, recovered. */
const phases = { normal: 70, degraded: 50, recovered: 70 };
const runsPerSecond = 80;

/** `name{labels} value` lines of the Prometheus text format, by series. */
function parseExposition(text: string): Map<string, string> {
  const samples = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^(scorestream_\w+(?:\{.*\})?) (\S+)$/.exec(line);
    if (match !== null) samples.set(match[1]!, match[2]!);
  }
  return samples;
}

/** Metric names and label names an expression reads (recorded series and ALERTS aside). */
function referencedNames(expr: string): { metrics: string[]; labels: string[] } {
  const clauses = /\b(?:by|on|without|ignoring|group_left|group_right)\s*\(([^)]*)\)/g;
  const grouped = [...expr.matchAll(clauses)].flatMap((match) => match[1]!.split(',').map((label) => label.trim()).filter(Boolean));
  const matched = [...expr.matchAll(/\{([^}]*)\}/g)].flatMap((match) => [...match[1]!.matchAll(/([a-z_]+)\s*(?:=~|!~|!=|=)\s*"/g)].map((label) => label[1]!));
  const bare = expr.replace(clauses, ' ').replace(/\{[^}]*\}/g, ' ');
  const metrics = [...bare.matchAll(/(?<![:\w])(scorestream_[a-z_]+)(?![:\w])/g)].map((match) => match[1]!);
  return { metrics, labels: [...grouped, ...matched] };
}

describe('the rules on the service metrics', () => {
  it('read only exported names, and fire ScorestreamQualityDrop for the degraded agent alone', { timeout: 300_000 }, async () => {
    const topics = await useServiceTopics(3);
    const port = await freePort();
    // Batches that never end: the batch tier's gauges (pairs waiting, their age) are exported.
    const batches = await startMockBatchServer({ completeAfterMs: 'manual' });
    onTestFinished(() => batches.close());
    const service = spawnService({
      topics,
      groupId: uniqueGroupId('rules'),
      config,
      env: { FIXTURE_BATCH_URL: batches.baseURL, OTEL_TRACES_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(port) },
    });
    await waitForLog(service, /scorestream is consuming/, 60_000);

    const startedAt = Date.now() + 1_000;
    const totalScrapes = phases.normal + phases.degraded + phases.recovered;
    const degradation = { agentId: 'support-agent', startsAt: startedAt + phases.normal * scrapeEveryMs, durationMs: phases.degraded * scrapeEveryMs };
    const publisher = createRunPublisher({ brokers: testBrokers(), topic: topics.runs });
    onTestFinished(() => publisher.close());
    const generator = createSampleRunGenerator({ seed: 'rules-integration', degradation });
    let producing = true;
    const traffic = (async () => {
      for (let tick = 0; producing; tick += 1) {
        const samples = Array.from({ length: runsPerSecond / 10 }, () => generator.next());
        const contexts = new Map(samples.map((sample) => [sample.event, sampleRunContext(sample)]));
        await publisher.publish(samples.map((sample) => sample.event), { contextFor: (run) => contexts.get(run as never) });
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt - 1_000 + (tick + 1) * 100 - Date.now())));
      }
    })();

    // A scrape per 500 ms slot of wall-clock time, as the episode is in wall-clock time. A loaded
    // machine can make a scrape late: a slot then holds the latest scrape taken by its end (the
    // next slots are not shifted, so a scrape's place in the series is the time it was taken).
    const taken: Array<{ at: number; samples: Map<string, string> }> = [];
    let lastText = '';
    const endAt = startedAt + totalScrapes * scrapeEveryMs;
    for (let due = startedAt; due < endAt; due = startedAt + (Math.floor((Date.now() - startedAt) / scrapeEveryMs) + 1) * scrapeEveryMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      lastText = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      taken.push({ at: Date.now(), samples: parseExposition(lastText) });
    }
    producing = false;
    await traffic;
    const scrapes: Map<string, string>[] = [];
    for (let slot = 0, next = 0; slot < totalScrapes; slot += 1) {
      while (next < taken.length && taken[next]!.at < startedAt + (slot + 1) * scrapeEveryMs) next += 1;
      scrapes.push(next === 0 ? new Map() : taken[next - 1]!.samples);
    }

    // Every metric and label the rules and the alert view read is one the service exported.
    const rules = (await Promise.all(ruleFiles.map((file) => readFile(file, 'utf8')))).join('\n');
    const recorded = new Set([...rules.matchAll(/- record: (\S+)/g)].map((match) => match[1]!));
    const exprs = [...rules.matchAll(/expr: \|\n((?: {10,}.*\n)+)|expr: (.+)\n/g)].map((match) => match[1] ?? match[2]!);
    const view = JSON.parse(await readFile(alertView, 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
    const viewExprs = view.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    expect(exprs.length).toBeGreaterThan(20);
    const exported = [...taken.at(-1)!.samples.keys()];
    const exportedLabels = new Set(exported.flatMap((series) => [...series.matchAll(/([a-z_]+)="/g)].map((match) => match[1]!)));
    for (const expr of [...exprs, ...viewExprs]) {
      const { metrics, labels } = referencedNames(expr);
      for (const metric of metrics) expect(exported.some((series) => series === metric || series.startsWith(`${metric}{`)), `metric ${metric} in ${expr}`).toBe(true);
      for (const label of labels) if (!['le', 'alertname', 'alertstate'].includes(label)) expect(exportedLabels, `label ${label} in ${expr}`).toContain(label);
    }
    for (const name of [...viewExprs.join(' ').matchAll(/\b([a-z_]+:[a-z_]+:[a-z0-9_]+)\b/g)].map((match) => match[1]!)) expect(recorded, `recorded series ${name}`).toContain(name);
    expect(exported.some((series) => series.startsWith('scorestream_verdicts_total{'))).toBe(true);
    expect(lastText).toContain('scorestream_pass_objective{scorestream_scorer_id="tool-error-rate",scorestream_scorer_version="2"');

    // The scrapes as promtool series: one value per scrape, `_` before a series existed.
    const names = [...new Set(scrapes.flatMap((scrape) => [...scrape.keys()]))];
    const inputSeries = names.map((series) => ({ series, values: scrapes.map((scrape) => scrape.get(series) ?? '_').join(' ') }));
    const drops = 'max by (alertname, scorestream_agent_id) (ALERTS{alertstate="firing", alertname="ScorestreamQualityDrop"})';
    // The judge scorer's budget (20 runs an hour) is spent in the first seconds: its records stop
    // while the runs go on, which is what ScorestreamScoresStopped is for.
    const stopped = 'max by (scorestream_scorer_id) (ALERTS{alertstate="firing", alertname="ScorestreamScoresStopped"})';
    const judgeStopped = [{ labels: '{scorestream_scorer_id="fixture-judge"}', value: 1 }];
    const lastNormal = phases.normal - 1;
    const lateInEpisode = phases.normal + phases.degraded - 5;
    const end = totalScrapes - 1;
    const test = {
      rule_files: ruleFiles,
      evaluation_interval: '1m',
      group_eval_order: ['scorestream-recording', 'scorestream-alerts', 'scorestream-slo-recording', 'scorestream-slo-alerts'],
      tests: [
        {
          name: 'the service metrics of a run in which support-agent degraded',
          interval: '1m',
          input_series: inputSeries,
          promql_expr_test: [
            { expr: drops, eval_time: `${lastNormal}m`, exp_samples: [] },
            { expr: drops, eval_time: `${lateInEpisode}m`, exp_samples: [{ labels: '{alertname="ScorestreamQualityDrop", scorestream_agent_id="support-agent"}', value: 1 }] },
            { expr: drops, eval_time: `${end}m`, exp_samples: [] },
            { expr: stopped, eval_time: `${lastNormal}m`, exp_samples: judgeStopped },
            { expr: stopped, eval_time: `${end}m`, exp_samples: judgeStopped },
          ],
        },
      ],
    };
    const directory = await mkdtemp(join(tmpdir(), 'scorestream-rules-run-'));
    const file = join(directory, 'service-run.test.yml');
    await writeFile(file, JSON.stringify(test, null, 1));
    const result = await runPrometheusTool('promtool', ['test', 'rules', file], { timeoutMs: 180_000 });
    // Kept for a look when it fails: the series are what the exporter really said.
    if (result.code === 0) await rm(directory, { recursive: true, force: true });
    expect(result.code, `${result.stdout}${result.stderr}\n(series and test: ${file})`).toBe(0);
  });
});

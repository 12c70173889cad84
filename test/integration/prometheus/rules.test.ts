// The shipped Prometheus rules and Alertmanager example, checked by the real tools (built from the
// Go module proxy by local/promtool/): `promtool check rules` accepts every rule file, `promtool
// test rules` passes every unit test in dashboard/prometheus/tests/ (synthetic series for every
// alert: fires, stays quiet under its guard, recovers, no data), and the tests can fail (a rule
// with a weaker threshold is caught); amtool accepts the Alertmanager example and routes each
// severity to its receiver.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runPrometheusTool } from '../../../local/promtool/index.ts';

const rulesDirectory = fileURLToPath(new URL('../../../dashboard/prometheus/', import.meta.url));
const ruleFiles = ['scorestream-recording.rules.yml', 'scorestream-alerts.rules.yml', 'scorestream-slo.rules.yml'];
const testFiles = async (directory = rulesDirectory) => (await readdir(join(directory, 'tests'))).filter((file) => file.endsWith('.test.yml')).sort();

describe('the Prometheus rules', () => {
  it('pass promtool check rules', async () => {
    const result = await runPrometheusTool('promtool', ['check', 'rules', ...ruleFiles], { cwd: rulesDirectory });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.match(/SUCCESS: \d+ rules found/g)).toHaveLength(ruleFiles.length);
  });

  it('pass every promtool unit test, and every alert has one', { timeout: 300_000 }, async () => {
    const files = await testFiles();
    // 23 s on the 2-core development machine at a load average of 12; two minutes at 36.
    const result = await runPrometheusTool('promtool', ['test', 'rules', ...files.map((file) => join('tests', file))], { cwd: rulesDirectory, timeoutMs: 280_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.match(/^\s+SUCCESS$/gm)).toHaveLength(files.length);
    const tests = (await Promise.all(files.map((file) => readFile(join(rulesDirectory, 'tests', file), 'utf8')))).join('\n');
    const alerts = [...(await Promise.all(ruleFiles.map((file) => readFile(join(rulesDirectory, file), 'utf8')))).join('\n').matchAll(/- alert: (\w+)/g)].map((match) => match[1]!);
    expect(alerts.length).toBeGreaterThanOrEqual(9);
    for (const alert of alerts) expect(tests, `a unit test of ${alert}`).toContain(`alertname: ${alert}`);
  });

  it('catch a rule that changed: the tests fail on a weaker drop threshold and without keep_firing_for', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'scorestream-rules-'));
    onTestFinished(() => rm(copy, { recursive: true, force: true }));
    await cp(rulesDirectory, copy, { recursive: true });
    const alertsFile = join(copy, 'scorestream-alerts.rules.yml');
    const original = await readFile(alertsFile, 'utf8');
    await writeFile(alertsFile, original.replace('< 0.8 * (scorer_agent:scorestream_score:mean1d offset 30m)', '< 0.5 * (scorer_agent:scorestream_score:mean1d offset 30m)'));
    const weaker = await runPrometheusTool('promtool', ['test', 'rules', 'tests/quality-drop.test.yml'], { cwd: copy });
    expect(weaker.code).not.toBe(0);
    expect(weaker.stdout + weaker.stderr).toContain('FAILED');
    await writeFile(alertsFile, original.replace(/(- alert: ScorestreamQualityDrop[\s\S]*?)\n\s+keep_firing_for: 10m/, '$1'));
    const notKept = await runPrometheusTool('promtool', ['test', 'rules', 'tests/quality-drop.test.yml'], { cwd: copy });
    expect(notKept.code).not.toBe(0);
    expect(notKept.stdout + notKept.stderr).toMatch(/time: 3h18m[\s\S]*got: nil/);
  });
});

describe('the Alertmanager example', () => {
  it('passes amtool check-config', async () => {
    const result = await runPrometheusTool('amtool', ['check-config', 'alertmanager.yml'], { cwd: rulesDirectory });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('1 inhibit rules');
  });

  it('routes pages and critical alerts to the pager, tickets to the queue, the rest to chat', async () => {
    const routes = { page: 'scorestream-pager', critical: 'scorestream-pager', ticket: 'scorestream-tickets', warning: 'scorestream-chat' };
    for (const [severity, receiver] of Object.entries(routes)) {
      const result = await runPrometheusTool('amtool', ['config', 'routes', 'test', '--config.file=alertmanager.yml', `--verify.receivers=${receiver}`, `severity=${severity}`, 'alertname=ScorestreamQualityDrop'], { cwd: rulesDirectory });
      expect(result.code, `${severity}: ${result.stdout}${result.stderr}`).toBe(0);
    }
    const wrong = await runPrometheusTool('amtool', ['config', 'routes', 'test', '--config.file=alertmanager.yml', '--verify.receivers=scorestream-pager', 'severity=warning'], { cwd: rulesDirectory });
    expect(wrong.code).not.toBe(0);
  });
});

// `scorestream monitor`'s composition on a real broker: score records on a results topic of three
// partitions (duplicates among them) become one breach on the alerts topic, keyed by the monitor,
// while the webhook fails on every attempt (the notices still reach the topic, the failures are
// counted); a quiet monitor with noData 'breach' fires on the wall clock alone; a restarted
// monitor restores its state from the alerts topic — no second breach — and recovers once.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AlertRecord } from '../../../src/kit/contracts/alert-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import type { ScorestreamConfigInput } from '../../../src/engine/config/config-types.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { startMonitor } from '../../../service/monitor/start-monitor.ts';
import { testBrokers, useTopic } from '../../helpers/kafka.ts';
import { produceRaw, readUntil } from '../../helpers/service.ts';
import { scoredRecord } from '../../unit/src/kit/contracts/fixtures.ts';

const completeness = createScorer({ id: 'completeness', description: 'd' }).generateScore(() => 1);
const idle = createScorer({ id: 'idle-scorer', description: 'd' }).generateScore(() => 1);

async function failingWebhook() {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      response.writeHead(503).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, requests: () => requests };
}

function scores(values: number[], from: number): { key: string; value: string; partition: number }[] {
  return values.map((score, index) => {
    const record = { ...(scoredRecord() as ScoreRecord), scorerId: 'completeness', scoreId: `score-${from}-${index}`, runId: `run-${from}-${index}`, score, scoredAt: new Date().toISOString(), entity: { type: 'agent', id: 'support-agent' } };
    return { key: record.runId, value: JSON.stringify(record), partition: index % 3 };
  });
}

describe('scorestream monitor', () => {
  it('publishes breach and recovered notices, survives a failing webhook and a restart, and evaluates a quiet stream', { timeout: 120_000 }, async () => {
    const [results, alerts] = await Promise.all([useTopic({ prefix: 'scores', partitions: 3 }), useTopic({ prefix: 'alerts' })]);
    const webhook = await failingWebhook();
    const config = resolveConfig({
      kafka: { brokers: testBrokers() },
      topics: { results, alerts },
      scorers: [{ scorer: completeness }, { scorer: idle }],
      monitors: [
        { name: 'support-completeness', scorer: 'completeness', agent: 'support-agent', aggregation: 'mean', window: '30s', threshold: { below: 0.5 } },
        { name: 'idle-scorer-silent', scorer: 'idle-scorer', aggregation: 'mean', window: '30s', threshold: { below: 0.5 }, noData: 'breach', for: '2s' },
      ],
      alerts: { evaluateEvery: '500ms', webhook: { url: webhook.url, maxAttempts: 2 } },
    } as ScorestreamConfigInput);
    const logger = pino({ level: 'silent' });
    const start = () => startMonitor({ config, logger });

    // Low scores on every partition; every record sent twice (an at-least-once redelivery).
    const low = scores([0.1, 0.2, 0.3, 0.1, 0.2, 0.3], 1);
    await produceRaw(results, [...low, ...low]);
    const first = await start();
    await first.ready;
    const breaches = await readUntil<AlertRecord>(alerts, (records) => records.some((record) => record.monitor.name === 'support-completeness') && records.some((record) => record.monitor.name === 'idle-scorer-silent'));
    const breach = breaches.find((record) => record.monitor.name === 'support-completeness')!;
    expect(breach).toMatchObject({ kind: 'breach', samples: 6, noData: false });
    expect(breach.value).toBeCloseTo(0.2);
    expect(breaches.find((record) => record.monitor.name === 'idle-scorer-silent')).toMatchObject({ kind: 'breach', noData: true, value: null, samples: 0 });
    // The failing webhook was tried (twice per notice) and counted; it held nothing up.
    await vi.waitFor(() => expect(first.webhook!.failed).toBeGreaterThanOrEqual(2), { timeout: 20_000 });
    expect(webhook.requests()).toBeGreaterThanOrEqual(4);
    await first.stop();

    // Restarted: still firing (restored from the alerts topic), so no second breach; then recovers.
    const second = await start();
    await second.ready;
    expect(second.statuses().find((status) => status.name === 'support-completeness')?.phase).toBe('firing');
    await produceRaw(results, scores(Array.from({ length: 30 }, () => 0.9), 2));
    const all = await readUntil<AlertRecord>(alerts, (records) => records.some((record) => record.monitor.name === 'support-completeness' && record.kind === 'recovered'));
    await second.stop();
    const ofCompleteness = all.filter((record) => record.monitor.name === 'support-completeness');
    expect(ofCompleteness.map((record) => record.kind)).toEqual(['breach', 'recovered']);
    expect(ofCompleteness[1]).toMatchObject({ since: breach.at });
    expect(ofCompleteness[1]!.value).toBeGreaterThan(0.5);
  });
});

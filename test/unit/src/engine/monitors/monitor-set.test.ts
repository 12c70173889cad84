// The monitor set: which records a monitor counts (its scorer, agent, tenant; scored; a verdict
// for passRate; no replays; once by scoreId; re-scores apart), the notices it returns (valid against AlertRecord
// v1, deterministic ids), no data on a quiet stream evaluated by the clock alone, and a restart
// restored from the notices published before.
import { describe, expect, it } from 'vitest';
import { parseAlertRecord } from '../../../../../src/kit/contracts/parse.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';
import { createMonitorSet } from '../../../../../src/engine/monitors/monitor-set.ts';
import { monitorSchema } from '../../../../../src/engine/monitors/monitor-schema.ts';
import type { MonitorInput } from '../../../../../src/engine/monitors/monitor-schema.ts';
import { scoredRecord } from '../../kit/contracts/fixtures.ts';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const monitor = (input: Partial<MonitorInput> = {}) => monitorSchema.parse({ name: 'support-quality', scorer: 'completeness', aggregation: 'mean', window: '1m', threshold: { below: 0.5 }, ...input });

let sequence = 0;
function record(score: number, atMs: number, extra: Record<string, unknown> = {}): ScoreRecord {
  sequence += 1;
  return { ...(scoredRecord() as ScoreRecord), scorerId: 'completeness', scoreId: `score-${sequence}`, score, scoredAt: new Date(atMs).toISOString(), entity: { type: 'agent', id: 'support-agent' }, metadata: { tenantId: 'acme' }, ...extra } as ScoreRecord;
}

describe('createMonitorSet', () => {
  it('breaches when the mean falls below the threshold, and recovers; notices are valid AlertRecords', () => {
    const set = createMonitorSet([monitor()]);
    for (let i = 0; i < 10; i += 1) set.ingest(record(0.9, T0 + i * 1000), T0 + i * 1000);
    expect(set.evaluate(T0 + 10_000)).toEqual([]);
    for (let i = 0; i < 30; i += 1) set.ingest(record(0.1, T0 + 10_000 + i * 1000), T0 + 10_000 + i * 1000);
    const [breach] = set.evaluate(T0 + 40_000);
    expect(breach!.value).toBeCloseTo(0.3);
    expect(breach).toMatchObject({ kind: 'breach', samples: 40, noData: false, since: '2026-12-01T10:00:40.000Z', at: '2026-12-01T10:00:40.000Z', monitor: { name: 'support-quality', windowMs: 60_000, threshold: { below: 0.5 } } });
    expect(parseAlertRecord(JSON.parse(JSON.stringify(breach))).success).toBe(true);
    expect(set.statuses()).toEqual([{ name: 'support-quality', phase: 'firing', value: breach!.value, samples: 40, rescores: 0, since: '2026-12-01T10:00:40.000Z' }]);
    for (let i = 0; i < 60; i += 1) set.ingest(record(0.9, T0 + 41_000 + i * 1000), T0 + 41_000 + i * 1000);
    const [recovered] = set.evaluate(T0 + 101_000);
    expect(recovered).toMatchObject({ kind: 'recovered', since: breach!.at });
    expect(recovered!.value).toBeCloseTo(0.9);
    expect(recovered!.alertId).not.toBe(breach!.alertId);
    expect(parseAlertRecord(JSON.parse(JSON.stringify(recovered))).success).toBe(true);
  });

  it("counts only its scorer's scored live records, for its agent and tenant, each scoreId once", () => {
    const set = createMonitorSet([monitor({ agent: 'support-agent', tenant: 'acme', aggregation: 'count', threshold: { above: 100 } })]);
    const at = T0 + 1000;
    const counted = record(0.5, at);
    for (const candidate of [
      counted,
      { ...counted },
      record(0.5, at, { scorerId: 'tool-error-rate' }),
      record(0.5, at, { entity: { type: 'agent', id: 'research-agent' } }),
      record(0.5, at, { metadata: { tenantId: 'globex' } }),
      record(0.5, at, { replay: { id: 'replay-1' } }),
      { ...record(0.5, at), status: 'failed', score: undefined, error: { name: 'E', message: 'm', failedStep: 'analyze', completedSteps: [], retryable: false } } as unknown as ScoreRecord,
    ]) set.ingest(candidate, at);
    set.evaluate(at);
    expect(set.statuses()[0]).toMatchObject({ value: 1, samples: 1 });
  });

  it('counts re-scores apart: never a sample, in the window once by scoreId, for its agent and tenant', () => {
    const set = createMonitorSet([monitor({ aggregation: 'passRate', threshold: { below: 0.8 }, tenant: 'acme' })]);
    const rescore = { feedbackId: 'fb-1', reason: 'thumbs-down' };
    // Three runs pass; a person disagreed with one, and its re-score failed it.
    for (let index = 0; index < 3; index += 1) set.ingest(record(0.9, T0 + index, { verdict: 'pass' }), T0 + 10);
    const again = record(0.1, T0 + 5, { verdict: 'fail', rescore });
    for (const candidate of [
      again,
      { ...again }, // redelivered
      record(0.1, T0 + 6, { status: 'failed', score: undefined, error: { name: 'E', message: 'm', failedStep: 'analyze', completedSteps: [], retryable: true }, rescore: { feedbackId: 'fb-2', reason: 'correction' } }),
      record(0.1, T0 + 7, { verdict: 'fail', rescore, metadata: { tenantId: 'globex' } }),
    ]) set.ingest(candidate, T0 + 10);
    expect(set.evaluate(T0 + 10)).toEqual([]); // 3 of 3 pass: the re-score does not pull the rate to 75%
    expect(set.statuses()[0]).toMatchObject({ value: 1, samples: 3, rescores: 2 });
    // They leave with the window, like samples.
    set.evaluate(T0 + 61_000);
    expect(set.statuses()[0]).toMatchObject({ samples: 0, rescores: 0 });
  });

  it('passRate counts records with a verdict: pass over pass + fail', () => {
    const set = createMonitorSet([monitor({ aggregation: 'passRate', threshold: { below: 0.8 } })]);
    ['pass', 'pass', 'pass', 'fail', undefined].forEach((verdict, index) => set.ingest(record(0.5, T0 + index, verdict === undefined ? {} : { verdict }), T0 + 10));
    const [breach] = set.evaluate(T0 + 10);
    expect(breach).toMatchObject({ kind: 'breach', value: 0.75, samples: 4 });
  });

  it('evaluates a quiet stream by the clock: noData breach fires on an empty window after `for`', () => {
    const set = createMonitorSet([monitor({ name: 'scores-arrive', noData: 'breach', for: '30s' })]);
    expect(set.evaluate(T0)).toEqual([]);
    const [breach] = set.evaluate(T0 + 30_000);
    expect(breach).toMatchObject({ kind: 'breach', value: null, samples: 0, noData: true, since: new Date(T0).toISOString() });
    expect(breach).not.toHaveProperty('window');
    set.ingest(record(0.9, T0 + 31_000), T0 + 31_000);
    expect(set.evaluate(T0 + 40_000)).toMatchObject([{ kind: 'recovered', value: 0.9 }]);
  });

  it('fewer samples than minSamples are no data', () => {
    const set = createMonitorSet([monitor({ minSamples: 3, noData: 'keep' })]);
    set.ingest(record(0.1, T0), T0);
    set.ingest(record(0.1, T0 + 1), T0 + 1);
    expect(set.evaluate(T0 + 2)).toEqual([]);
    set.ingest(record(0.1, T0 + 2), T0 + 2);
    expect(set.evaluate(T0 + 3)).toMatchObject([{ kind: 'breach', samples: 3 }]);
  });

  it('after a restart restored from its last notice, a still-firing monitor does not breach again, and recovers once', () => {
    const before = createMonitorSet([monitor()]);
    before.ingest(record(0.1, T0), T0);
    const [breach] = before.evaluate(T0 + 1000);
    const after = createMonitorSet([monitor(), monitor({ name: 'added-later' })]);
    after.restore([breach!, { ...breach!, monitor: { ...breach!.monitor, name: 'no-longer-configured' } }]);
    after.ingest(record(0.2, T0 + 2000), T0 + 2000);
    expect(after.evaluate(T0 + 3000).map((notice) => [notice.monitor.name, notice.kind])).toEqual([['added-later', 'breach']]);
    after.ingest(record(0.9, T0 + 70_000), T0 + 70_000);
    const recovered = after.evaluate(T0 + 70_000).filter((notice) => notice.monitor.name === 'support-quality');
    expect(recovered).toMatchObject([{ kind: 'recovered', since: breach!.at }]);
  });

  it('gives a repeated notice the same id', () => {
    const notices = [0, 1].map(() => {
      const set = createMonitorSet([monitor()]);
      set.ingest(record(0.1, T0), T0);
      return set.evaluate(T0 + 1000)[0]!;
    });
    expect(notices[0]!.alertId).toBe(notices[1]!.alertId);
  });
});

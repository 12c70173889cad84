// The dashboard's view of the monitors: each monitor's phase from its latest notice (whatever order
// they are read in), a repeated notice counted once, the newest notices first and bounded; and the
// page's pure helpers: a monitor's condition, one row per scorer with its monitors. (Pass rates
// are the overview's, from aggregates.ts: tested with it.)
import { describe, expect, it } from 'vitest';
import { AlertFeed } from '../../../dashboard/alert-feed.ts';
import type { AlertsSnapshot } from '../../../dashboard/alert-feed.ts';
import type { AlertRecord } from '../../../src/kit/contracts/alert-record.ts';

const monitor = { name: 'm', scorer: 'completeness', agent: 'support-agent', aggregation: 'mean' as const, windowMs: 60_000, threshold: { below: 0.25 }, forMs: 0, cooldownMs: 0, noData: 'keep' as const, minSamples: 1 };
const notice = (kind: 'breach' | 'recovered', minute: number, name = 'm'): AlertRecord => ({
  schemaVersion: 1,
  alertId: `${name}-${kind}-${minute}`,
  kind,
  monitor: { ...monitor, name },
  value: kind === 'breach' ? 0.1 : 0.4,
  samples: 10,
  noData: false,
  since: new Date(minute * 60_000).toISOString(),
  at: new Date(minute * 60_000).toISOString(),
});

type PanelModule = {
  describeMonitor(monitor: AlertRecord['monitor']): string;
  scorerRows(alerts: AlertsSnapshot): { scorer: string; monitors: { monitor: { name: string } }[] }[];
};
const panel = (await import(new URL('../../../dashboard/public/alerts-panel.js', import.meta.url).href)) as PanelModule;

describe('AlertFeed', () => {
  it("keeps each monitor's latest phase, even when notices arrive out of order, and each notice once", () => {
    const feed = new AlertFeed();
    feed.ingest(notice('breach', 1));
    feed.ingest(notice('recovered', 3));
    feed.ingest(notice('breach', 2));
    feed.ingest(notice('breach', 1));
    feed.ingest(notice('breach', 5, 'other'));
    const { monitors, notices } = feed.snapshot();
    expect(monitors.map((view) => [view.monitor.name, view.phase, view.value])).toEqual([['m', 'ok', 0.4], ['other', 'firing', 0.1]]);
    expect(notices.map((entry) => entry.alertId)).toEqual(['other-breach-5', 'm-breach-2', 'm-recovered-3', 'm-breach-1']);
  });

  it('keeps at most maxNotices', () => {
    const feed = new AlertFeed(3);
    for (let minute = 0; minute < 10; minute += 1) feed.ingest(notice(minute % 2 === 0 ? 'breach' : 'recovered', minute));
    expect(feed.snapshot().notices).toHaveLength(3);
    expect(feed.snapshot().monitors[0]).toMatchObject({ phase: 'ok', at: new Date(9 * 60_000).toISOString() });
  });
});

describe('the monitors panel', () => {
  it('groups the monitors by scorer, scorers and monitors by name', () => {
    const feed = new AlertFeed();
    feed.ingest(notice('breach', 1, 'z-monitor'));
    feed.ingest(notice('recovered', 2, 'a-monitor'));
    feed.ingest({ ...notice('breach', 3, 'tone-monitor'), monitor: { ...monitor, name: 'tone-monitor', scorer: 'tone' } });
    const rows = panel.scorerRows(feed.snapshot());
    expect(rows.map((row) => [row.scorer, row.monitors.map((view) => view.monitor.name)])).toEqual([
      ['completeness', ['a-monitor', 'z-monitor']],
      ['tone', ['tone-monitor']],
    ]);
  });

  it("says a monitor's condition", () => {
    expect(panel.describeMonitor(monitor)).toBe('mean of completeness (agent support-agent) < 0.25 over 60 s');
    expect(panel.describeMonitor({ ...monitor, agent: undefined, tenant: 'acme', aggregation: 'passRate', threshold: { above: 0.9 } } as never)).toBe('passRate of completeness (tenant acme) > 0.9 over 60 s');
  });
});

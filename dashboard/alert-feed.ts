// What the dashboard shows of the in-stream monitors (docs/alerts.md): each monitor's last notice —
// firing since its breach, or recovered — and the most recent notices, newest first, read from the
// alerts topic. (Pass rates from the records' verdicts are the overview's: aggregates.ts.)
// Bounded: `maxNotices` kept; a notice seen twice (same alertId: a restarted monitor repeating
// itself) counts once.
import type { AlertRecord } from '../src/kit/contracts/alert-record.ts';

/** A monitor as its last notice left it: `at` is when that notice was decided (firing or ok since then). */
export type MonitorView = { monitor: AlertRecord['monitor']; phase: 'firing' | 'ok'; at: string; value: number | null; samples: number; noData: boolean };

export type AlertsSnapshot = { monitors: MonitorView[]; notices: AlertRecord[] };

export class AlertFeed {
  private readonly notices: AlertRecord[] = [];
  private readonly ids = new Set<string>();
  private readonly monitors = new Map<string, MonitorView>();
  private readonly maxNotices: number;

  constructor(maxNotices = 200) {
    this.maxNotices = maxNotices;
  }

  ingest(notice: AlertRecord): void {
    if (this.ids.has(notice.alertId)) return;
    this.ids.add(notice.alertId);
    this.notices.push(notice);
    if (this.notices.length > this.maxNotices) this.ids.delete(this.notices.shift()!.alertId);
    const current = this.monitors.get(notice.monitor.name);
    if (current !== undefined && Date.parse(current.at) > Date.parse(notice.at)) return;
    this.monitors.set(notice.monitor.name, {
      monitor: notice.monitor,
      phase: notice.kind === 'breach' ? 'firing' : 'ok',
      at: notice.at,
      value: notice.value,
      samples: notice.samples,
      noData: notice.noData,
    });
  }

  snapshot(): AlertsSnapshot {
    return { monitors: [...this.monitors.values()].sort((a, b) => a.monitor.name.localeCompare(b.monitor.name)), notices: [...this.notices].reverse().slice(0, 50) };
  }
}

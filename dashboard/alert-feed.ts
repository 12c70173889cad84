// What the dashboard shows of the in-stream monitors and verdicts (docs/alerts.md): each monitor's
// last notice — firing since its breach, or recovered — the most recent notices, newest first,
// read from the alerts topic, and each scorer's pass rate over the recent records the page holds.
// Bounded: `maxNotices` kept; a notice seen twice (same alertId: a restarted monitor repeating
// itself) counts once.
import type { AlertRecord } from '../src/contracts/alert-record.ts';
import type { RecordSummary } from './record-summary.ts';

/** A monitor as its last notice left it: `at` is when that notice was decided (firing or ok since then). */
export type MonitorView = { monitor: AlertRecord['monitor']; phase: 'firing' | 'ok'; at: string; value: number | null; samples: number; noData: boolean };

/** A scorer's verdicts among the recent records: `rate` = pass / (pass + fail). */
export type PassRate = { scorer: string; pass: number; fail: number; rate: number };

export type AlertsSnapshot = { monitors: MonitorView[]; notices: AlertRecord[]; passRates: PassRate[] };

/** Per scorer, pass and fail among the summaries that carry a verdict (bindings that declare `pass`), by name. */
export function passRates(summaries: Iterable<Pick<RecordSummary, 'scorer' | 'verdict'>>): PassRate[] {
  const byScorer = new Map<string, { pass: number; fail: number }>();
  for (const summary of summaries) {
    if (summary.verdict === undefined) continue;
    const tally = byScorer.get(summary.scorer) ?? { pass: 0, fail: 0 };
    tally[summary.verdict] += 1;
    byScorer.set(summary.scorer, tally);
  }
  return [...byScorer.entries()].map(([scorer, tally]) => ({ scorer, ...tally, rate: tally.pass / (tally.pass + tally.fail) })).sort((a, b) => a.scorer.localeCompare(b.scorer));
}

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

  /** `recent`: the records the page holds, for the pass rates. */
  snapshot(recent: Iterable<Pick<RecordSummary, 'scorer' | 'verdict'>> = []): AlertsSnapshot {
    return { monitors: [...this.monitors.values()].sort((a, b) => a.monitor.name.localeCompare(b.monitor.name)), notices: [...this.notices].reverse().slice(0, 50), passRates: passRates(recent) };
  }
}

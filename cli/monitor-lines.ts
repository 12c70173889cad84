// The demo's lines about its in-stream monitors (docs/alerts.md): each monitor's state, last
// evaluated value and samples, the re-scores of its window (not among the samples), and the latest notices. Pure: the live view's footer calls it every frame.
import type { AlertRecord } from '../src/kit/contracts/alert-record.ts';
import type { MonitorStatus } from '../src/engine/monitors/monitor-set.ts';
import { describeNotice } from '../src/engine/monitors/webhook-body.ts';

const clock = (iso: string) => iso.slice(11, 19);

export function renderMonitorLines(statuses: readonly MonitorStatus[], notices: readonly AlertRecord[]): string[] {
  if (statuses.length === 0) return [];
  const lines = ['', `${'monitor'.padEnd(32)} ${'state'.padEnd(8)} ${'value'.padStart(7)} ${'samples'.padStart(8)} ${'re-scores'.padStart(9)}`];
  for (const status of statuses) {
    const value = status.value === null ? '-' : Number.isInteger(status.value) ? String(status.value) : status.value.toFixed(3);
    lines.push(`${status.name.padEnd(32)} ${status.phase.padEnd(8)} ${value.padStart(7)} ${String(status.samples).padStart(8)} ${String(status.rescores).padStart(9)}${status.since === undefined ? '' : `   since ${clock(status.since)}`}`);
  }
  for (const notice of notices.slice(-3)) lines.push(`${clock(notice.at)} ${describeNotice(notice)}`);
  return lines;
}

// The metrics of `scorestream monitor` (docs/alerts.md): notices published by monitor and kind,
// webhook deliveries by outcome (a failing webhook is visible here and in the log), whether
// each monitor is firing now, and the re-scores each monitor's window counts apart. Monitors come
// from the config, so the series are bounded.
import type { Meter } from '@opentelemetry/api';

export type MonitorMetrics = {
  notice(monitor: string, kind: string): void;
  webhook(outcome: string): void;
  unregister(): void;
};

export function registerMonitorMetrics(meter: Meter, firing: () => readonly { name: string; phase: string; rescores: number }[]): MonitorMetrics {
  const notices = meter.createCounter('scorestream.monitor.notices', { description: 'Breach and recovered notices published to the alerts topic, by monitor and kind', unit: '{notice}' });
  const webhook = meter.createCounter('scorestream.monitor.webhook', { description: 'Notices sent to the alert webhook, by outcome: delivered, failed (after its retries), dropped (queue full)', unit: '{notice}' });
  const state = meter.createObservableGauge('scorestream.monitor.firing', { description: 'Whether each monitor is firing (1) or not (0)', unit: '1' });
  const rescores = meter.createObservableGauge('scorestream.monitor.rescores', { description: "Re-score records (docs/feedback.md) in each monitor's window at its last evaluation: counted apart, never among its samples", unit: '{record}' });
  const observe = (result: { observe(value: number, attributes: Record<string, string>): void }) => {
    for (const monitor of firing()) result.observe(monitor.phase === 'firing' ? 1 : 0, { 'scorestream.monitor.name': monitor.name });
  };
  const observeRescores = (result: { observe(value: number, attributes: Record<string, string>): void }) => {
    for (const monitor of firing()) result.observe(monitor.rescores, { 'scorestream.monitor.name': monitor.name });
  };
  state.addCallback(observe);
  rescores.addCallback(observeRescores);
  return {
    notice: (monitor, kind) => notices.add(1, { 'scorestream.monitor.name': monitor, 'scorestream.alert.kind': kind }),
    webhook: (outcome) => webhook.add(1, { outcome }),
    unregister: () => {
      state.removeCallback(observe);
      rescores.removeCallback(observeRescores);
    },
  };
}

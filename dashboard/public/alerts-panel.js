// The page's monitors panel (docs/alerts.md): each in-stream monitor's state from its last notice on
// the alerts topic, each scorer's pass rate over the page's recent records (bindings that declare
// `pass`), and the latest breach and recovered notices. It asks /api/alerts every 10 s: notices
// are rare, so it does not take a place in the record stream. Every string goes in as text (dom.js).
import { clear, el, formatTime } from './dom.js';

const REFRESH_MS = 10_000;

/** Per scorer: pass and fail among the summaries that carry a verdict. Pure (tested without a DOM). */
export function passRates(summaries) {
  const byScorer = new Map();
  for (const summary of summaries) {
    if (summary.verdict !== 'pass' && summary.verdict !== 'fail') continue;
    const tally = byScorer.get(summary.scorer) ?? { scorer: summary.scorer, pass: 0, fail: 0 };
    tally[summary.verdict] += 1;
    byScorer.set(summary.scorer, tally);
  }
  return [...byScorer.values()].map((tally) => ({ ...tally, rate: tally.pass / (tally.pass + tally.fail) })).sort((a, b) => a.scorer.localeCompare(b.scorer));
}

/** "mean of completeness (agent support-agent) < 0.25 over 1m". Pure. */
export function describeMonitor(monitor) {
  const scope = [monitor.agent === undefined ? '' : `agent ${monitor.agent}`, monitor.tenant === undefined ? '' : `tenant ${monitor.tenant}`].filter(Boolean).join(', ');
  const limit = monitor.threshold.below !== undefined ? `< ${monitor.threshold.below}` : `> ${monitor.threshold.above}`;
  return `${monitor.aggregation} of ${monitor.scorer}${scope === '' ? '' : ` (${scope})`} ${limit} over ${Math.round(monitor.windowMs / 1000)} s`;
}

const formatValue = (value) => (value === null || value === undefined ? 'no data' : Number.isInteger(value) ? String(value) : value.toFixed(3));

export function startAlertsPanel(container, recentSummaries) {
  let alerts = { monitors: [], notices: [] };
  const draw = () => {
    clear(container);
    const rates = passRates(recentSummaries());
    if (alerts.monitors.length === 0 && alerts.notices.length === 0 && rates.length === 0) {
      container.hidden = true;
      return;
    }
    container.hidden = false;
    container.append(el('h2', {}, 'Monitors and pass rates'));
    if (rates.length > 0) {
      container.append(el('p', { className: 'pass-rates' }, 'pass rate of the recent records: ', ...rates.map((rate) => el('span', { className: 'pass-rate' }, `${rate.scorer} ${(rate.rate * 100).toFixed(1)}% (${rate.pass}/${rate.pass + rate.fail})`))));
    }
    if (alerts.monitors.length > 0) {
      container.append(
        el(
          'table',
          { className: 'monitors' },
          el('thead', {}, el('tr', {}, el('th', {}, 'monitor'), el('th', {}, 'condition'), el('th', {}, 'state'), el('th', {}, 'value'), el('th', {}, 'since'))),
          el(
            'tbody',
            {},
            alerts.monitors.map((view) =>
              el('tr', { dataset: { phase: view.phase } }, el('td', {}, view.monitor.name), el('td', {}, describeMonitor(view.monitor)), el('td', { className: `phase ${view.phase}` }, view.phase), el('td', {}, formatValue(view.value)), el('td', {}, formatTime(Date.parse(view.at)))),
            ),
          ),
        ),
      );
    }
    if (alerts.notices.length > 0) {
      container.append(
        el('h3', {}, 'Recent alert records'),
        el('ul', { className: 'notices' }, alerts.notices.slice(0, 10).map((notice) => el('li', { dataset: { kind: notice.kind } }, `${formatTime(Date.parse(notice.at))} ${notice.monitor.name} ${notice.kind === 'breach' ? 'breached' : 'recovered'}: ${formatValue(notice.value)} (${notice.samples} samples)`))),
      );
    }
  };
  const refresh = async () => {
    try {
      const response = await fetch('/api/alerts');
      if (response.ok) alerts = await response.json();
    } catch {
      // The next refresh tries again; the records stream has its own reconnect indicator.
    }
    draw();
  };
  void refresh();
  const timer = window.setInterval(() => void refresh(), REFRESH_MS);
  return { draw, stop: () => window.clearInterval(timer) };
}

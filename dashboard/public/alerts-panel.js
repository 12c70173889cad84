// The monitors panel (docs/alerts.md), in the scores view under the overview (panels.js): each
// scorer with its in-stream monitors' states from their last notice on the alerts topic, and the
// latest breach and recovered records at the top of the records view. Pass rates from the records'
// verdicts are the overview's column, not repeated here. It asks /api/alerts every 10 s (notices are
// rare: they take no place in the record stream) and needs nothing from app.js's state. Every string
// goes in as text (dom.js).
import { clear, el, formatTime } from './dom.js';

const REFRESH_MS = 10_000;
const NOTICES_SHOWN = 10;

/** "mean of completeness (agent support-agent) < 0.25 over 60 s". Pure. */
export function describeMonitor(monitor) {
  const scope = [monitor.agent === undefined ? '' : `agent ${monitor.agent}`, monitor.tenant === undefined ? '' : `tenant ${monitor.tenant}`].filter(Boolean).join(', ');
  const limit = monitor.threshold.below !== undefined ? `< ${monitor.threshold.below}` : `> ${monitor.threshold.above}`;
  return `${monitor.aggregation} of ${monitor.scorer}${scope === '' ? '' : ` (${scope})`} ${limit} over ${Math.round(monitor.windowMs / 1000)} s`;
}

/** One entry per scorer that has a monitor: its monitors, by name. Pure. */
export function scorerRows(alerts) {
  const rows = new Map();
  const row = (scorer) => rows.get(scorer) ?? rows.set(scorer, { scorer, monitors: [] }).get(scorer);
  for (const view of alerts.monitors ?? []) row(view.monitor.scorer).monitors.push(view);
  return [...rows.values()].sort((a, b) => a.scorer.localeCompare(b.scorer));
}

const formatValue = (value) => (value === null || value === undefined ? 'no data' : Number.isInteger(value) ? String(value) : value.toFixed(3));

function monitorCells(view) {
  return [
    el('td', { className: 'monitor' }, view.monitor.name),
    el('td', {}, describeMonitor(view.monitor)),
    el('td', { className: `phase ${view.phase}` }, view.phase),
    el('td', { className: 'value' }, formatValue(view.value)),
    el('td', {}, formatTime(Date.parse(view.at))),
  ];
}

/** The table: a scorer's name spans its monitors' rows. */
function scorerTable(rows) {
  const body = el('tbody');
  for (const row of rows) {
    row.monitors.forEach((view, index) => {
      const lead = index > 0 ? [] : [el('th', { scope: 'row', rowspan: row.monitors.length, className: 'scorer' }, row.scorer)];
      body.append(el('tr', { dataset: { scorer: row.scorer, phase: view.phase } }, ...lead, ...monitorCells(view)));
    });
  }
  const head = el('thead', {}, el('tr', {}, ['scorer', 'monitor', 'condition', 'state', 'value', 'since'].map((name) => el('th', {}, name))));
  return el('table', { className: 'monitors' }, head, body);
}

function noticeItem(notice) {
  const { monitor } = notice;
  const scope = [monitor.scorer, monitor.agent, monitor.tenant].filter((part) => part !== undefined).join(' · ');
  return el(
    'li',
    { dataset: { kind: notice.kind } },
    el('time', { datetime: notice.at }, formatTime(Date.parse(notice.at))),
    ' ',
    el('span', { className: 'kind' }, notice.kind === 'breach' ? 'breach' : 'recovered'),
    ' ',
    el('span', { className: 'monitor' }, monitor.name),
    ` (${scope}): ${monitor.aggregation} ${formatValue(notice.value)} over ${notice.samples} samples${notice.noData ? ', no data' : ''}`,
  );
}

export const alertsPanel = {
  id: 'alerts',
  view: 'scores',
  alerts: { monitors: [], notices: [] },
  mount(host) {
    this.root = host.appendChild(el('section', { id: 'alerts', className: 'panel alerts', 'aria-label': 'monitors', hidden: true }));
    // The alert records sit in the records view, above the score records.
    this.records = el('div', { id: 'alert-records', className: 'alert-records', hidden: true });
    const recordsPanel = document.querySelector('.records-panel');
    if (recordsPanel !== null) recordsPanel.insertBefore(this.records, recordsPanel.querySelector('#records'));
    const refresh = async () => {
      try {
        const response = await fetch('/api/alerts');
        if (response.ok) this.alerts = await response.json();
      } catch {
        // The next refresh tries again; the records stream has its own reconnect indicator.
      }
      this.render();
    };
    void refresh();
    this.timer = window.setInterval(() => void refresh(), REFRESH_MS);
  },
  render() {
    if (this.root === undefined) return;
    const rows = scorerRows(this.alerts);
    clear(this.root);
    this.root.hidden = rows.length === 0;
    if (rows.length > 0) this.root.append(el('h2', {}, 'Monitors'), scorerTable(rows));
    const notices = this.alerts.notices ?? [];
    clear(this.records);
    this.records.hidden = notices.length === 0;
    if (notices.length > 0) this.records.append(el('h3', {}, 'Alert records ', el('span', { className: 'note' }, `the ${Math.min(notices.length, NOTICES_SHOWN)} latest of the alerts topic`)), el('ul', { className: 'notices' }, notices.slice(0, NOTICES_SHOWN).map(noticeItem)));
  },
};

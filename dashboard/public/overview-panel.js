// The overview panel at the top of the scores view: one row per scorer (overview.js), worst
// first, under the agent, tenant and time filters (the scorer, status and score filters narrow the
// charts below, not the list of scorers). A click on a row shows that scorer's detail: its card
// and records, over the same time range.
import { scorerViews } from './aggregate-view.js';
import { el, formatScore } from './dom.js';
import { overviewRows, sparklinePoints } from './overview.js';

const SVG = 'http://www.w3.org/2000/svg';
const SPARK = { width: 160, height: 28 };

function sparkline(values) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', String(SPARK.width));
  svg.setAttribute('height', String(SPARK.height));
  svg.setAttribute('viewBox', `0 0 ${SPARK.width} ${SPARK.height}`);
  svg.setAttribute('class', 'sparkline');
  for (const run of sparklinePoints(values, SPARK.width, SPARK.height)) {
    if (run.length === 1) {
      const dot = document.createElementNS(SVG, 'circle');
      dot.setAttribute('cx', String(run[0][0]));
      dot.setAttribute('cy', String(run[0][1]));
      dot.setAttribute('r', '1.8');
      svg.append(dot);
      continue;
    }
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', run.map(([x, y]) => `${x},${y}`).join(' '));
    svg.append(line);
  }
  return svg;
}

const percent = (share) => (share === undefined ? '—' : `${(Math.round(share * 1000) / 10).toString()}%`);

export const overviewPanel = {
  id: 'overview',
  view: 'scores',
  mount(host) {
    this.root = el(
      'section',
      { id: 'overview', className: 'panel', 'aria-label': 'overview of every scorer' },
      el('h2', {}, 'Overview ', el('span', { className: 'note' }, 'every scorer, worst first')),
      el(
        'table',
        { className: 'overview' },
        el('thead', {}, el('tr', {}, ['scorer', 'mean', 'pass rate', 'trend (mean)', 'failed', 'records', 'skipped', 're-scores'].map((name) => el('th', {}, name)))),
        el('tbody'),
      ),
    );
    host.append(this.root);
  },
  render(context) {
    const { store, config, filters, window, now } = context;
    const views = scorerViews(store, config, { ...filters, scorer: '', status: '', min: undefined, max: undefined }, window, now);
    const rows = overviewRows(views);
    const body = this.root.querySelector('tbody');
    body.replaceChildren(
      ...rows.map((row) =>
        el(
          'tr',
          { dataset: { scorer: row.scorer, selected: String(filters.scorer === row.scorer) }, onclick: () => context.setFilters({ scorer: filters.scorer === row.scorer ? '' : row.scorer }) },
          el('td', { className: 'name' }, row.scorer),
          el('td', { dataset: { field: 'mean' } }, row.mean === null ? '—' : formatScore(row.mean)),
          el('td', { dataset: { field: 'pass-rate' }, title: row.verdicts === 0 ? 'these records carry no pass/fail verdict' : `${row.verdicts} records with a verdict` }, percent(row.passRate)),
          el('td', { dataset: { field: 'trend' } }, sparkline(row.trend)),
          el('td', { dataset: { field: 'failed' } }, percent(row.failureShare)),
          el('td', { dataset: { field: 'records' } }, String(row.volume)),
          el('td', { dataset: { field: 'skipped' } }, String(row.skipped)),
          el('td', { dataset: { field: 'rescores' }, title: 're-scores on feedback: not counted in the records, mean or pass rate' }, String(row.rescores)),
        ),
      ),
    );
    if (rows.length === 0) body.replaceChildren(el('tr', {}, el('td', { colspan: 8 }, 'No score records in this time range.')));
  },
};

// The scorer cards of the scores view: per scorer its three charts (charts.js), a line of totals
// (re-scores on feedback apart) and the skip reasons, under every filter. Selecting a span on a time chart sets the time range.
import { scorerViews } from './aggregate-view.js';
import { createScorerCharts } from './charts.js';
import { el, formatScore } from './dom.js';
import { rescoreCount } from './rescore-mark.js';

/** The card's skip reasons in the filters' terms, saying which skips an agent or tenant filter cannot place. */
export function skipLine(view, filters) {
  const skips = [...view.skips.entries()].sort((a, b) => b[1] - a[1]).map(([reason, count]) => `${reason} ${count}`);
  const filtered = [filters.agent && `agent ${filters.agent}`, filters.tenant && `tenant ${filters.tenant}`].filter(Boolean).join(', ');
  const scope = filtered === '' ? 'skipped' : `skipped for ${filtered}`;
  const text = skips.length === 0 ? (filtered === '' ? 'no skip decisions' : `no skip decisions for ${filtered}`) : `${scope}: ${skips.join(' · ')}`;
  const unplaced = view.totals.unattributedSkips;
  return unplaced === 0 ? text : `${text} (and ${unplaced} skip${unplaced === 1 ? '' : 's'} of runs whose agent and tenant were not recorded — decisions from an older Scorestream — left out of this filter)`;
}

export const scorerCardsPanel = {
  id: 'scorer-cards',
  view: 'scores',
  mount(host) {
    this.charts = new Map();
    this.container = el('section', { id: 'scorers', className: 'scorers', 'aria-label': 'charts per scorer' });
    host.append(this.container);
  },
  render(context) {
    const { store, config, filters, window, now } = context;
    const views = scorerViews(store, config, filters, window, now);
    const shown = new Set(views.map((view) => view.scorer));
    for (const [scorer, entry] of this.charts) {
      if (shown.has(scorer)) continue;
      entry.charts.destroy();
      entry.card.remove();
      this.charts.delete(scorer);
    }
    for (const view of views) {
      let entry = this.charts.get(view.scorer);
      if (entry === undefined) {
        const card = el(
          'article',
          { className: 'scorer-card', dataset: { scorer: view.scorer } },
          el('h2', {}, view.scorer),
          el('div', { className: 'summary' }),
          el('div', { className: 'charts' }, el('div', { className: 'chart', dataset: { chart: 'mean' } }), el('div', { className: 'chart', dataset: { chart: 'distribution' } }), el('div', { className: 'chart', dataset: { chart: 'status' } })),
          el('div', { className: 'skips' }),
        );
        this.container.append(card);
        entry = { card, charts: createScorerCharts(card, config.binEdges, (from, to) => context.setFilters({ from, to, range: '' })) };
        this.charts.set(view.scorer, entry);
      }
      entry.charts.update(view);
      const totals = view.totals;
      entry.card.querySelector('.summary').textContent =
        `scored ${totals.scored}${totals.mean === null ? '' : ` · mean ${formatScore(totals.mean)}`} · not scorable ${totals.notScorable} · failed ${totals.failed} · skipped ${totals.skipped}${rescoreCount(totals.rescores)}`;
      entry.card.querySelector('.skips').textContent = skipLine(view, filters);
    }
    [...this.container.children].sort((a, b) => a.dataset.scorer.localeCompare(b.dataset.scorer)).forEach((card) => this.container.append(card));
  },
};

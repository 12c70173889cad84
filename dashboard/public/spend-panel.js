// The judge spend panel of the scores view (spend-view.js): what each scorer version's judge calls
// cost over the selected range, and each tenant's — calls, tokens, the share read from a prompt
// cache, the priced cost, and the calls whose model has no price (their cost is shown nowhere).
import { el } from './dom.js';
import { cachedShare, formatCost, spendViews } from './spend-view.js';

const columns = ['calls', 'input tokens', 'cached', 'output tokens', 'cost', 'unpriced calls'];

function cells(row, currency) {
  return [
    el('td', { dataset: { field: 'calls' } }, String(row.judgeCalls)),
    el('td', { dataset: { field: 'input' } }, String(row.inputTokens)),
    el('td', { dataset: { field: 'cached' } }, cachedShare(row)),
    el('td', { dataset: { field: 'output' } }, String(row.outputTokens)),
    // Nothing priced (every call of a model without a price): no cost to show, not a cost of 0.
    el('td', { dataset: { field: 'cost' } }, row.cost === 0 && row.unpricedCalls > 0 ? '—' : formatCost(row.cost, currency)),
    el('td', { dataset: { field: 'unpriced' }, title: row.unpricedCalls > 0 ? 'calls whose model has no price in pricing.models: their cost is in no figure' : undefined }, String(row.unpricedCalls)),
  ];
}

export const spendPanel = {
  id: 'spend',
  view: 'scores',
  mount(host) {
    this.root = el(
      'section',
      { id: 'spend', className: 'panel', 'aria-label': 'judge spend' },
      el('h2', {}, 'Judge spend ', el('span', { className: 'note' }, 'over the selected range, priced with the service\'s price table')),
      el('p', { className: 'note', dataset: { field: 'totals' } }),
      el('table', { className: 'overview spend-by-scorer' }, el('thead', {}, el('tr', {}, ['scorer', 'version', ...columns].map((name) => el('th', {}, name)))), el('tbody')),
      el('table', { className: 'overview spend-by-tenant' }, el('thead', {}, el('tr', {}, ['tenant', ...columns].map((name) => el('th', {}, name)))), el('tbody')),
    );
    host.append(this.root);
  },
  render(context) {
    const { store, filters, window } = context;
    const { byScorer, byTenant, totals, currency } = spendViews(store, filters, window);
    const summary = this.root.querySelector('[data-field="totals"]');
    summary.textContent =
      totals.judgeCalls === 0
        ? 'No judge calls in this range.'
        : `${totals.judgeCalls} judge calls, ${formatCost(totals.cost, currency)}${totals.unpricedCalls > 0 ? `, and ${totals.unpricedCalls} calls of models without a price (not in the cost)` : ''}.`;
    this.root.querySelector('.spend-by-scorer tbody').replaceChildren(...byScorer.map((row) => el('tr', { dataset: { scorer: row.scorer, version: row.version } }, el('td', { className: 'name' }, row.scorer), el('td', {}, row.version || '—'), ...cells(row, currency))));
    this.root.querySelector('.spend-by-tenant tbody').replaceChildren(...byTenant.map((row) => el('tr', { dataset: { tenant: row.tenant } }, el('td', { className: 'name' }, row.tenant), ...cells(row, currency))));
    for (const table of this.root.querySelectorAll('table')) table.hidden = totals.judgeCalls === 0;
  },
};

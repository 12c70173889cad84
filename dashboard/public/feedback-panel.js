// The feedback view: how each scorer agrees with people, from the agreements topic. Per scorer
// version, κ and accuracy of the join's windows over time and the latest window's confusion
// counts; below, the pairs where judge and person disagree, each opening the score record with
// both verdicts and the judge's evidence. Every value from a record — labels, feedback values,
// comments, names — is written as text (dom.js). The scorer, agent, tenant and time filters apply.
import { timeChart } from './charts.js';
import { el, formatScore, formatTime, jsonText } from './dom.js';
import { agreementGroups, agreementsNotice, disagreementsShown } from './feedback-view.js';

const fixed = (value) => (value === undefined || value === null ? '—' : formatScore(Math.round(value * 1000) / 1000));
const versionName = (version) => (version === '' ? '' : ` v${version}`);

function confusionTable(confusion) {
  return el(
    'table',
    { className: 'confusion' },
    el('thead', {}, el('tr', {}, el('th', {}, 'person \\ judge'), confusion.labels.map((label) => el('th', {}, label)))),
    el('tbody', {}, confusion.labels.map((label, row) => el('tr', {}, el('th', {}, label), confusion.counts[row].map((count, column) => el('td', { className: row === column ? 'agree' : '' }, String(count)))))),
  );
}

export const feedbackPanel = {
  id: 'feedback',
  view: 'feedback',
  mount(host) {
    this.charts = new Map();
    this.root = el('section', { id: 'feedback', className: 'panel', 'aria-label': 'agreement with people' }, el('div', { id: 'feedback-notice' }), el('div', { id: 'agreement-cards', className: 'scorers' }), el('div', { id: 'disagreements-panel' }));
    host.append(this.root);
  },
  render(context) {
    const { agreements, filters, window, now } = context;
    const notice = agreementsNotice(agreements);
    const groups = agreementGroups(agreements.windows, filters, window);
    const pairs = disagreementsShown(agreements.disagreements, filters, window);
    this.root.querySelector('#feedback-notice').replaceChildren(
      ...(notice !== undefined ? [el('p', { className: 'notice' }, notice)] : groups.length === 0 && pairs.length === 0 ? [el('p', { className: 'notice' }, `No agreement records in this time range on '${agreements.topic}'.`)] : []),
    );
    this.renderCards(groups, context, [window.start / 1000, Math.min(window.end, now) / 1000]);
    this.renderDisagreements(pairs, context);
  },
  renderCards(groups, context, range) {
    const container = this.root.querySelector('#agreement-cards');
    const shown = new Set(groups.map((group) => `${group.scorer}\u0000${group.version}`));
    for (const [key, entry] of this.charts) {
      if (shown.has(key)) continue;
      entry.chart.destroy();
      entry.card.remove();
      this.charts.delete(key);
    }
    for (const group of groups) {
      const key = `${group.scorer}\u0000${group.version}`;
      let entry = this.charts.get(key);
      if (entry === undefined) {
        const card = el('article', { className: 'scorer-card agreement-card', dataset: { scorer: group.scorer, version: group.version } }, el('h2', {}, `${group.scorer}${versionName(group.version)}`), el('div', { className: 'summary' }), el('div', { className: 'charts' }, el('div', { className: 'chart', dataset: { chart: 'agreement' } }), el('div', { className: 'latest' })));
        container.append(card);
        const chart = timeChart(card.querySelector('[data-chart="agreement"]'), {
          title: 'agreement with people',
          series: [
            { label: 'κ', stroke: '#3056d3', width: 2, points: { show: true, size: 5 } },
            { label: 'accuracy', stroke: '#2e8b57', width: 1.5, points: { show: true, size: 4 } },
            { label: 'weighted κ (quadratic)', stroke: '#8e44ad', width: 1.5, dash: [4, 3], points: { show: true, size: 4 } },
          ],
          yRange: (_chart, min) => [Math.min(0, min ?? 0), 1],
          width: 480,
        });
        entry = { card, chart };
        this.charts.set(key, entry);
      }
      const windows = group.windows;
      entry.chart.setData([windows.map((summary) => summary.end / 1000), windows.map((summary) => summary.kappa), windows.map((summary) => summary.accuracy), windows.map((summary) => summary.weightedKappa?.quadratic ?? null)], range);
      entry.card.querySelector('[data-chart="agreement"]').dataset.points = String(windows.length);
      const latest = windows[windows.length - 1];
      entry.card.querySelector('.summary').textContent =
        `latest window ${formatTime(latest.start)} → ${formatTime(latest.end)}: ${latest.n} labelled pairs · accuracy ${fixed(latest.accuracy)} · κ ${fixed(latest.kappa)}` +
        (latest.weightedKappa === undefined ? '' : ` · weighted κ linear ${fixed(latest.weightedKappa.linear)}, quadratic ${fixed(latest.weightedKappa.quadratic)}`);
      entry.card.querySelector('.latest').replaceChildren(el('h4', {}, 'confusion counts, latest window'), confusionTable(latest.confusion));
    }
    [...container.children].sort((a, b) => `${a.dataset.scorer}\u0000${a.dataset.version}`.localeCompare(`${b.dataset.scorer}\u0000${b.dataset.version}`)).forEach((card) => container.append(card));
  },
  renderDisagreements(pairs, context) {
    const limit = 200;
    this.root.querySelector('#disagreements-panel').replaceChildren(
      el('h2', {}, 'Where judge and person disagree ', el('span', { className: 'note' }, `${pairs.length} in this range (of the ${context.agreements.disagreements.length} most recent kept)${pairs.length > limit ? `, first ${limit} shown` : ''}`)),
      el(
        'table',
        { id: 'disagreements' },
        el('thead', {}, el('tr', {}, ['time', 'scorer', 'run', 'judge', 'person', 'by', 'comment'].map((name) => el('th', {}, name)))),
        el(
          'tbody',
          {},
          pairs.slice(0, limit).map((pair) =>
            el(
              'tr',
              { dataset: { agreementId: pair.agreementId }, onclick: () => context.openPair(pair) },
              el('td', {}, formatTime(pair.at)),
              el('td', {}, `${pair.scorer}${versionName(pair.version)}`),
              el('td', {}, pair.runId),
              el('td', { dataset: { field: 'judge' } }, `${pair.judge.label} (${formatScore(pair.judge.score)})`),
              el('td', { dataset: { field: 'person' } }, `${pair.human.label} (${pair.human.name}: ${jsonText(pair.human.value)})`),
              el('td', { dataset: { field: 'by' } }, `${pair.human.source.replace('_', ' ')}${pair.human.submitter ? ` ${pair.human.submitter.name ?? pair.human.submitter.id}` : ''}`),
              el('td', { className: 'reason', dataset: { field: 'comment' }, title: pair.human.comment ?? '' }, pair.human.comment ?? ''),
            ),
          ),
        ),
      ),
    );
  },
};

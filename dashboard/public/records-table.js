// The records table of the scores view: the recent records that match the filters, sorted as
// chosen, at most MAX_ROWS drawn; a row opens the record's detail, a re-score is marked as such
// (rescore-mark.js). Every record string is written as text (dom.js).
import { $, el, formatScore, formatTime } from './dom.js';
import { recordMatches } from './filters.js';
import { page } from './page-state.js';
import { rescoreLabel, rescoreText } from './rescore-mark.js';

const MAX_ROWS = 200;

function sortedRows(window_) {
  const rows = [...page.records.values()].filter((summary) => recordMatches(summary, page.filters, window_));
  const direction = page.filters.order === 'asc' ? 1 : -1;
  const key = page.filters.sort;
  rows.sort((a, b) => {
    if (key === 'score') {
      // Records without a score sort after every score, whichever the direction.
      if (a.score === undefined || b.score === undefined) return (a.score === undefined) - (b.score === undefined) || b.at - a.at;
      return (a.score - b.score) * direction || b.at - a.at;
    }
    return (a.at - b.at) * direction;
  });
  return rows;
}

/** Draws the table; `openDetail(scoreId)` is what a click on a row does (detail-opener.js). */
export function renderTable(window_, openDetail) {
  page.rows = sortedRows(window_);
  const body = $('#records tbody');
  body.replaceChildren(
    ...page.rows.slice(0, MAX_ROWS).map((summary) =>
      el(
        'tr',
        { dataset: { scoreId: summary.scoreId, status: summary.status, rescore: summary.rescore?.reason }, onclick: () => openDetail(summary.scoreId) },
        el('td', {}, formatTime(summary.at)),
        el('td', {}, summary.scorer),
        el('td', {}, summary.agent),
        el('td', {}, summary.tenant),
        el(
          'td',
          { className: `status-${summary.status}` },
          summary.status.replace('_', ' '),
          summary.rescore === undefined ? '' : [' ', el('span', { className: 'rescore-mark', title: rescoreText(summary.rescore) }, rescoreLabel(summary.rescore))],
        ),
        el('td', { className: 'score' }, formatScore(summary.score)),
        el('td', { className: 'reason', title: summary.reason }, summary.reason),
        el('td', {}, summary.traceUrl ? el('a', { href: summary.traceUrl, target: '_blank', rel: 'noopener noreferrer', className: 'trace-link', onclick: (event) => event.stopPropagation() }, 'trace') : ''),
      ),
    ),
  );
  $('#records-note').textContent = `${page.rows.length} matching of the ${page.records.size} most recent${page.rows.length > MAX_ROWS ? `, first ${MAX_ROWS} shown` : ''}`;
  for (const button of document.querySelectorAll('#records th button')) button.dataset.active = button.dataset.sort === page.filters.sort ? page.filters.order : '';
}

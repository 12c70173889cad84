// The detail panel: opening a score record (from the table, a panel or the URL) or a disagreement
// (the record with the judge's and the person's verdicts), and stepping to the previous or next
// one of the list it was opened from. The detail itself is drawn by detail.js. Opening one puts
// it in the URL, through `setFilters` (app.js), which also redraws.
import { disagreementSection, renderDetail } from './detail.js';
import { $, el } from './dom.js';
import { disagreementsShown } from './feedback-view.js';
import { timeWindow } from './filters.js';
import { now, page } from './page-state.js';

/** The detail's four actions, over the page's state; `setFilters(changes)` puts what is open in the URL and redraws. */
export function detailOpener(setFilters) {
  /** Opens a disagreement: the score record with the judge's and the person's verdicts. */
  function openPair(pair) {
    void openDetail(pair.scoreId, pair);
  }

  async function openDetail(scoreId, pair) {
    const panel = $('#detail');
    const body = $('#detail-body');
    panel.hidden = false;
    panel.dataset.scoreId = scoreId;
    const wanted = pair === undefined ? { record: scoreId, pair: '' } : { record: '', pair: pair.agreementId };
    if (page.filters.record !== wanted.record || page.filters.pair !== wanted.pair) setFilters(wanted);
    const response = await fetch(`/api/records/${encodeURIComponent(scoreId)}`);
    const detail = await response.json();
    if (panel.dataset.scoreId !== scoreId) return;
    if (!response.ok) {
      body.replaceChildren(...(pair === undefined ? [] : disagreementSection(pair)), el('p', {}, detail.error ?? `HTTP ${response.status}`));
      $('#detail-trace').hidden = true;
      return;
    }
    renderDetail(body, detail, pair);
    const link = $('#detail-trace');
    if (detail.traceUrl) {
      link.replaceWith(el('a', { id: 'detail-trace', href: detail.traceUrl, target: '_blank', rel: 'noopener noreferrer' }, 'open trace'));
    } else link.hidden = true;
  }

  function step(offset) {
    if (page.filters.pair) {
      // Opened from the feedback view: walk its list of disagreements.
      const pairs = disagreementsShown(page.agreements.disagreements, page.filters, timeWindow(page.filters, now(), page.config.windowMs));
      const next = pairs[pairs.findIndex((pair) => pair.agreementId === page.filters.pair) + offset];
      if (next !== undefined) openPair(next);
      return;
    }
    const index = page.rows.findIndex((summary) => summary.scoreId === $('#detail').dataset.scoreId);
    const next = page.rows[index + offset];
    if (next !== undefined) void openDetail(next.scoreId);
  }

  /** A disagreement named in the URL opens once the snapshot has brought it (or says it is no longer kept). */
  function openPairFromUrl() {
    const pair = page.agreements.disagreements.find((known) => known.agreementId === page.filters.pair);
    if (pair !== undefined) openPair(pair);
    else {
      $('#detail').hidden = false;
      $('#detail-body').replaceChildren(el('p', {}, 'This disagreement is no longer kept (the dashboard keeps the most recent ones in the look-back).'));
    }
  }

  return { openDetail, openPair, step, openPairFromUrl };
}

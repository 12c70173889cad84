// The dashboard page: one snapshot, then live events (live-events.js). The view (scores, compare,
// feedback, threads) and its filters live in the URL. Redraws are coalesced so a busy topic does
// not redraw per record. Every record string is written as text (dom.js). This file wires the
// page together and draws it; the records table (records-table.js), the filters form
// (filter-form.js) and the detail (detail-opener.js) are drawn by modules of their own, and the
// overview, the scorer cards, compare, feedback and threads are panels, each in a file of its own
// (panels.js). The page's state is page-state.js.
import { knownNames, pruneBuckets } from './aggregate-view.js';
import { detailOpener } from './detail-opener.js';
import { $ } from './dom.js';
import { readForm, renderMenus, renderZoom } from './filter-form.js';
import { searchFromFilters, timeWindow, VIEWS } from './filters.js';
import { connectLiveEvents } from './live-events.js';
import { now, page } from './page-state.js';
import { panels } from './panels.js';
import { renderTable } from './records-table.js';
import { lookUpRun } from './run-lookup.js';

const { openDetail, openPair, step, openPairFromUrl } = detailOpener(setFilters);

function scheduleRender(delay = 300) {
  if (page.renderTimer !== undefined) {
    if (delay > 0) return;
    clearTimeout(page.renderTimer);
  }
  page.renderTimer = setTimeout(() => {
    page.renderTimer = undefined;
    render();
  }, delay);
}

function setFilters(changes) {
  page.filters = { ...page.filters, ...changes };
  window.history.replaceState(null, '', `${window.location.pathname}${searchFromFilters(page.filters)}`);
  scheduleRender(0);
}

function panelContext(window_, names) {
  return {
    store: page.store,
    config: page.config,
    filters: page.filters,
    window: window_,
    now: now(),
    names,
    agreements: page.agreements,
    threads: page.threads,
    records: page.records,
    setFilters,
    openPair,
    openRecord: (scoreId) => openDetail(scoreId),
  };
}

function renderView() {
  for (const section of document.querySelectorAll('main[data-view]')) section.hidden = section.dataset.view !== page.filters.view;
  for (const link of document.querySelectorAll('#views a')) {
    if (link.dataset.view === page.filters.view) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

function render() {
  if (page.config === undefined) return;
  pruneBuckets(page.store, now() - page.config.windowMs - page.config.bucketMs);
  const window_ = timeWindow(page.filters, now(), page.config.windowMs);
  const names = knownNames(page.store);
  renderView();
  renderMenus(names);
  const context = panelContext(window_, names);
  for (const panel of panels) if (panel.view === page.filters.view) panel.render(context);
  if (page.filters.view === 'scores') renderTable(window_, openDetail);
  renderZoom();
  const counts = page.counts;
  $('#counts').textContent = counts === undefined ? '' : `${counts.records + page.live} records and ${counts.decisions} skip decisions in the look-back (${Math.round(page.config.windowMs / 3_600_000 * 10) / 10} h)${counts.invalid > 0 ? ` · ${counts.invalid} invalid messages ignored` : ''}`;
}

function wire() {
  $('#filters').addEventListener('change', () => setFilters(readForm()));
  $('#filters').addEventListener('submit', (event) => event.preventDefault());
  $('#reset').addEventListener('click', () => setFilters({ scorer: '', agent: '', tenant: '', status: '', min: undefined, max: undefined, range: '', from: undefined, to: undefined }));
  $('#zoom-reset').addEventListener('click', () => setFilters({ from: undefined, to: undefined }));
  for (const button of document.querySelectorAll('#records th button')) {
    button.addEventListener('click', () => {
      const sort = button.dataset.sort;
      setFilters({ sort, order: page.filters.sort === sort && page.filters.order === 'desc' ? 'asc' : 'desc' });
    });
  }
  $('#detail-prev').addEventListener('click', () => step(-1));
  $('#detail-next').addEventListener('click', () => step(1));
  $('#detail-close').addEventListener('click', () => {
    $('#detail').hidden = true;
    setFilters({ record: '', pair: '' });
  });
  for (const link of document.querySelectorAll('#views a')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      if (VIEWS.includes(link.dataset.view)) setFilters({ view: link.dataset.view, record: '', pair: '', thread: '' });
    });
  }
  $('#run-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const runId = event.target.elements.namedItem('runId').value.trim();
    if (runId !== '') void lookUpRun($('#run-result'), runId, (scoreId) => openDetail(scoreId));
  });
}

function mountPanels() {
  for (const panel of panels) panel.mount(document.querySelector(`[data-panels="${panel.view}"]`));
}

mountPanels();
wire();
connectLiveEvents({ scheduleRender, openPairFromUrl });
if (page.filters.record) void openDetail(page.filters.record);

// The dashboard page: one snapshot, then live events over Server-Sent Events (EventSource resumes
// with Last-Event-ID after a disconnect; the server answers with what was missed or a new
// snapshot). The view (scores, compare, feedback, threads) and its filters live in the URL. Redraws are
// coalesced so a busy topic does not redraw per record. Every record string is written as text
// (dom.js). The records table (a re-score marked as such: rescore-mark.js), the detail and "why no
// score?" are drawn here; the overview, the scorer cards, compare, feedback and threads are panels,
// each in a file of its own (panels.js).
import { createBucketStore, knownNames, loadBuckets, pruneBuckets, setSeriesTally, setSkipTally } from './aggregate-view.js';
import { disagreementSection, renderDetail } from './detail.js';
import { el, formatScore, formatTime } from './dom.js';
import { addAgreement, disagreementsShown } from './feedback-view.js';
import { filtersFromSearch, recordMatches, searchFromFilters, timeWindow, VIEWS } from './filters.js';
import { panels } from './panels.js';
import { rescoreLabel, rescoreText } from './rescore-mark.js';
import { lookUpRun } from './run-lookup.js';
import { addThread } from './thread-view.js';

const MAX_RECORDS = 1000;
const MAX_ROWS = 200;
const MAX_DISAGREEMENTS = 1000;
const MAX_THREADS = 1000;

const page = {
  config: undefined,
  serverOffset: 0,
  store: createBucketStore(),
  records: new Map(),
  agreements: { state: 'off', windows: [], disagreements: [] },
  threads: new Map(),
  counts: undefined,
  live: 0,
  filters: filtersFromSearch(window.location.search),
  rows: [],
  renderTimer: undefined,
};

const $ = (selector) => document.querySelector(selector);
const now = () => Date.now() + page.serverOffset;

function applySnapshot(snapshot) {
  page.config = { windowMs: snapshot.windowMs, bucketMs: snapshot.bucketMs, binEdges: snapshot.binEdges, traceLinks: snapshot.traceLinks };
  page.serverOffset = snapshot.now - Date.now();
  loadBuckets(page.store, snapshot.buckets, snapshot.binEdges.length + 1);
  page.records = new Map(snapshot.recent.map((summary) => [summary.scoreId, summary]));
  page.agreements = snapshot.agreements;
  page.threads = new Map([...snapshot.threads].reverse().map((thread) => [thread.key, thread]));
  page.counts = snapshot.counts;
  page.live = 0;
}

function addRecord({ summary, start, tally, thread }) {
  setSeriesTally(page.store, start, tally);
  if (thread !== undefined) addThread(page.threads, thread, MAX_THREADS);
  page.records.delete(summary.scoreId);
  page.records.set(summary.scoreId, summary);
  while (page.records.size > MAX_RECORDS) page.records.delete(page.records.keys().next().value);
  page.live += 1;
}

function connect() {
  const source = new EventSource('/api/events');
  const connection = $('#connection');
  source.addEventListener('open', () => {
    connection.dataset.state = 'live';
    connection.textContent = 'live';
  });
  source.addEventListener('error', () => {
    connection.dataset.state = 'reconnecting';
    connection.textContent = 'reconnecting…';
  });
  let first = true;
  source.addEventListener('snapshot', (event) => {
    const snapshot = JSON.parse(event.data);
    applySnapshot(snapshot);
    connection.dataset.epoch = snapshot.epoch;
    scheduleRender(0);
    if (first && page.filters.pair) openPairFromUrl();
    first = false;
  });
  source.addEventListener('record', (event) => {
    addRecord(JSON.parse(event.data));
    scheduleRender();
  });
  source.addEventListener('decision', (event) => {
    const data = JSON.parse(event.data);
    setSkipTally(page.store, data.start, data.tally);
    if (data.thread !== undefined) addThread(page.threads, data.thread, MAX_THREADS);
    scheduleRender();
  });
  // A thread's latest score from the latest-score view (older than the look-back, or ahead of its results record).
  source.addEventListener('thread', (event) => {
    addThread(page.threads, JSON.parse(event.data).thread, MAX_THREADS);
    scheduleRender();
  });
  source.addEventListener('agreement', (event) => {
    addAgreement(page.agreements, JSON.parse(event.data), MAX_DISAGREEMENTS);
    scheduleRender();
  });
}

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
  if (page.filters.view === 'scores') renderTable(window_);
  renderZoom();
  const counts = page.counts;
  $('#counts').textContent = counts === undefined ? '' : `${counts.records + page.live} records and ${counts.decisions} skip decisions in the look-back (${Math.round(page.config.windowMs / 3_600_000 * 10) / 10} h)${counts.invalid > 0 ? ` · ${counts.invalid} invalid messages ignored` : ''}`;
}

function renderMenus(known) {
  const names = { scorer: [...known.scorer], agent: [...known.agent], tenant: [...known.tenant] };
  for (const summary of page.records.values()) {
    for (const name of ['scorer', 'agent', 'tenant']) if (!names[name].includes(summary[name])) names[name].push(summary[name]);
  }
  for (const name of ['scorer', 'agent', 'tenant']) {
    const select = $(`#filters [name="${name}"]`);
    const wanted = ['', ...names[name].sort()];
    if (page.filters[name] && !wanted.includes(page.filters[name])) wanted.push(page.filters[name]);
    const current = [...select.options].map((option) => option.value);
    if (current.join('\u0000') !== wanted.join('\u0000')) {
      select.replaceChildren(...wanted.map((value) => el('option', { value }, value === '' ? 'all' : value)));
    }
    select.value = page.filters[name];
  }
  for (const name of ['status', 'range']) $(`#filters [name="${name}"]`).value = page.filters[name];
  for (const name of ['min', 'max']) {
    const input = $(`#filters [name="${name}"]`);
    if (document.activeElement !== input) input.value = page.filters[name] === undefined ? '' : String(page.filters[name]);
  }
}

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

function renderTable(window_) {
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

function renderZoom() {
  const zoom = $('#zoom');
  const { from, to } = page.filters;
  zoom.hidden = from === undefined && to === undefined;
  $('#zoom-text').textContent = zoom.hidden ? '' : `${from === undefined ? '…' : formatTime(from)} → ${to === undefined ? 'now' : formatTime(to)}`;
}

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

function readForm() {
  const form = $('#filters');
  const value = (name) => form.elements.namedItem(name).value;
  const number = (name) => (value(name).trim() === '' || !Number.isFinite(Number(value(name))) ? undefined : Number(value(name)));
  return { scorer: value('scorer'), agent: value('agent'), tenant: value('tenant'), status: value('status'), min: number('min'), max: number('max'), range: value('range') };
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

/** A disagreement named in the URL opens once the snapshot has brought it (or says it is no longer kept). */
function openPairFromUrl() {
  const pair = page.agreements.disagreements.find((known) => known.agreementId === page.filters.pair);
  if (pair !== undefined) openPair(pair);
  else {
    $('#detail').hidden = false;
    $('#detail-body').replaceChildren(el('p', {}, 'This disagreement is no longer kept (the dashboard keeps the most recent ones in the look-back).'));
  }
}

mountPanels();
wire();
connect();
if (page.filters.record) void openDetail(page.filters.record);

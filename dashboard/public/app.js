// The dashboard page: one snapshot, then live events over Server-Sent Events (EventSource resumes
// with Last-Event-ID after a disconnect; the server answers with what was missed or a new
// snapshot). Filters live in the URL. Redraws are coalesced so a busy topic does not redraw per
// record. Every record string is written as text (dom.js).
import { createBucketStore, knownNames, loadBuckets, pruneBuckets, scorerViews, setSeriesTally, setSkipTally } from './aggregate-view.js';
import { createScorerCharts } from './charts.js';
import { renderDetail } from './detail.js';
import { el, formatScore, formatTime } from './dom.js';
import { filtersFromSearch, recordMatches, searchFromFilters, timeWindow } from './filters.js';

const MAX_RECORDS = 1000;
const MAX_ROWS = 200;

const page = {
  config: undefined,
  serverOffset: 0,
  store: createBucketStore(),
  records: new Map(),
  counts: undefined,
  live: 0,
  filters: filtersFromSearch(window.location.search),
  rows: [],
  charts: new Map(),
  renderTimer: undefined,
};

const $ = (selector) => document.querySelector(selector);
const now = () => Date.now() + page.serverOffset;

function applySnapshot(snapshot) {
  page.config = { windowMs: snapshot.windowMs, bucketMs: snapshot.bucketMs, binEdges: snapshot.binEdges, traceLinks: snapshot.traceLinks };
  page.serverOffset = snapshot.now - Date.now();
  loadBuckets(page.store, snapshot.buckets, snapshot.binEdges.length + 1);
  page.records = new Map(snapshot.recent.map((summary) => [summary.scoreId, summary]));
  page.counts = snapshot.counts;
  page.live = 0;
}

function addRecord({ summary, start, tally }) {
  setSeriesTally(page.store, start, tally);
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
  source.addEventListener('snapshot', (event) => {
    const snapshot = JSON.parse(event.data);
    applySnapshot(snapshot);
    connection.dataset.epoch = snapshot.epoch;
    scheduleRender(0);
  });
  source.addEventListener('record', (event) => {
    addRecord(JSON.parse(event.data));
    scheduleRender();
  });
  source.addEventListener('decision', (event) => {
    const data = JSON.parse(event.data);
    setSkipTally(page.store, data.start, data.tally);
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

function render() {
  if (page.config === undefined) return;
  pruneBuckets(page.store, now() - page.config.windowMs - page.config.bucketMs);
  const window_ = timeWindow(page.filters, now(), page.config.windowMs);
  renderMenus();
  renderScorers(window_);
  renderTable(window_);
  renderZoom();
  const counts = page.counts;
  $('#counts').textContent = counts === undefined ? '' : `${counts.records + page.live} records and ${counts.decisions} skip decisions in the look-back (${Math.round(page.config.windowMs / 3_600_000 * 10) / 10} h)${counts.invalid > 0 ? ` · ${counts.invalid} invalid messages ignored` : ''}`;
}

function renderMenus() {
  const names = knownNames(page.store);
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

function renderScorers(window_) {
  const views = scorerViews(page.store, page.config, page.filters, window_);
  const container = $('#scorers');
  const shown = new Set(views.map((view) => view.scorer));
  for (const [scorer, entry] of page.charts) {
    if (shown.has(scorer)) continue;
    entry.charts.destroy();
    entry.card.remove();
    page.charts.delete(scorer);
  }
  for (const view of views) {
    let entry = page.charts.get(view.scorer);
    if (entry === undefined) {
      const card = el(
        'article',
        { className: 'scorer-card', dataset: { scorer: view.scorer } },
        el('h2', {}, view.scorer),
        el('div', { className: 'summary' }),
        el('div', { className: 'charts' }, el('div', { className: 'chart', dataset: { chart: 'mean' } }), el('div', { className: 'chart', dataset: { chart: 'distribution' } }), el('div', { className: 'chart', dataset: { chart: 'status' } })),
        el('div', { className: 'skips' }),
      );
      container.append(card);
      entry = { card, charts: createScorerCharts(card, page.config.binEdges, (from, to) => setFilters({ from, to, range: '' })) };
      page.charts.set(view.scorer, entry);
    }
    entry.charts.update(view);
    const totals = view.totals;
    entry.card.querySelector('.summary').textContent =
      `scored ${totals.scored}${totals.mean === null ? '' : ` · mean ${formatScore(totals.mean)}`} · not scorable ${totals.notScorable} · failed ${totals.failed} · skipped ${totals.skipped}`;
    const skips = [...view.skips.entries()].sort((a, b) => b[1] - a[1]).map(([reason, count]) => `${reason} ${count}`);
    entry.card.querySelector('.skips').textContent = skips.length === 0 ? 'no skip decisions' : `skipped (all agents and tenants: decisions carry no entity): ${skips.join(' · ')}`;
  }
  [...container.children].sort((a, b) => a.dataset.scorer.localeCompare(b.dataset.scorer)).forEach((card) => container.append(card));
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
        { dataset: { scoreId: summary.scoreId, status: summary.status }, onclick: () => openDetail(summary.scoreId) },
        el('td', {}, formatTime(summary.at)),
        el('td', {}, summary.scorer),
        el('td', {}, summary.agent),
        el('td', {}, summary.tenant),
        el('td', { className: `status-${summary.status}` }, summary.status.replace('_', ' ')),
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

async function openDetail(scoreId) {
  const panel = $('#detail');
  const body = $('#detail-body');
  panel.hidden = false;
  panel.dataset.scoreId = scoreId;
  if (page.filters.record !== scoreId) setFilters({ record: scoreId });
  const response = await fetch(`/api/records/${encodeURIComponent(scoreId)}`);
  const detail = await response.json();
  if (panel.dataset.scoreId !== scoreId) return;
  if (!response.ok) {
    body.replaceChildren(el('p', {}, detail.error ?? `HTTP ${response.status}`));
    $('#detail-trace').hidden = true;
    return;
  }
  renderDetail(body, detail);
  const link = $('#detail-trace');
  if (detail.traceUrl) {
    link.replaceWith(el('a', { id: 'detail-trace', href: detail.traceUrl, target: '_blank', rel: 'noopener noreferrer' }, 'open trace'));
  } else link.hidden = true;
}

function step(offset) {
  const index = page.rows.findIndex((summary) => summary.scoreId === $('#detail').dataset.scoreId);
  const next = page.rows[index + offset];
  if (next !== undefined) void openDetail(next.scoreId);
}

async function lookUpRun(runId) {
  const result = $('#run-result');
  result.replaceChildren(el('p', {}, 'looking up…'));
  const response = await fetch(`/api/runs/${encodeURIComponent(runId)}`);
  const run = await response.json();
  if (!run.found) {
    result.replaceChildren(
      el('p', {}, `No score record and no skip decision for run ${run.runId} in the look-back (${Math.round(run.windowMs / 60_000)} min, last ${run.maxRuns} runs). Either no scorer was eligible and decisions are not published (set topics.decisions), the run has not been scored yet, or it was dead-lettered (see the dead-letter topic).`),
    );
    return;
  }
  result.replaceChildren(
    el('p', {}, `run ${run.runId}:`),
    el(
      'ul',
      {},
      run.entries.map((entry, index) =>
        entry.kind === 'decision'
          ? el('li', { dataset: { kind: 'decision' } }, `${formatTime(entry.at)} ${entry.scorer}: skipped (${entry.reason})${entry.detail ? ` — ${entry.detail}` : ''}`)
          : el(
              'li',
              { dataset: { kind: 'score' } },
              `${formatTime(entry.at)} ${entry.scorer}: ${entry.status.replace('_', ' ')}${entry.score === undefined ? '' : ` ${formatScore(entry.score)}`} — ${entry.detail} `,
              run.openable[index] ? el('button', { type: 'button', onclick: () => openDetail(run.openable[index]) }, 'open') : '',
            ),
      ),
    ),
  );
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
    setFilters({ record: '' });
  });
  $('#run-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const runId = event.target.elements.namedItem('runId').value.trim();
    if (runId !== '') void lookUpRun(runId);
  });
}

wire();
connect();
if (page.filters.record) void openDetail(page.filters.record);

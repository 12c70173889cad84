// The filters form and the zoom note above the charts: the menus offer the names known from the
// buckets and the recent records (and keep a chosen one that is no longer seen), the fields show
// the filters of the URL, and readForm turns the form back into filters.
import { $, el, formatTime } from './dom.js';
import { page } from './page-state.js';

export function renderMenus(known) {
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

export function renderZoom() {
  const zoom = $('#zoom');
  const { from, to } = page.filters;
  zoom.hidden = from === undefined && to === undefined;
  $('#zoom-text').textContent = zoom.hidden ? '' : `${from === undefined ? '…' : formatTime(from)} → ${to === undefined ? 'now' : formatTime(to)}`;
}

export function readForm() {
  const form = $('#filters');
  const value = (name) => form.elements.namedItem(name).value;
  const number = (name) => (value(name).trim() === '' || !Number.isFinite(Number(value(name))) ? undefined : Number(value(name)));
  return { scorer: value('scorer'), agent: value('agent'), tenant: value('tenant'), status: value('status'), min: number('min'), max: number('max'), range: value('range') };
}

// The view and its filters, kept in the page's URL so a view can be shared: which view (scores,
// compare, feedback); scorer, agent, tenant, status, score range (min, max), time range (a
// relative `range`, or `from`/`to` set by selecting on a chart); the open record, disagreement or thread;
// and what compare puts side by side (two time ranges, or two versions of the scorer). Pure
// functions: URL search params in, a filter object out.
const RANGES = { '15m': 15 * 60_000, '1h': 3_600_000, '6h': 6 * 3_600_000, '24h': 24 * 3_600_000 };
export const VIEWS = ['scores', 'compare', 'feedback', 'threads'];

export function filtersFromSearch(search) {
  const params = new URLSearchParams(search);
  const number = (name) => {
    const text = params.get(name);
    if (text === null || text.trim() === '') return undefined;
    const value = Number(text);
    return Number.isFinite(value) ? value : undefined;
  };
  const time = (name) => {
    const text = params.get(name);
    if (text === null || text === '') return undefined;
    const value = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
    return Number.isFinite(value) ? value : undefined;
  };
  const status = params.get('status') ?? '';
  const range = params.get('range') ?? '';
  const view = params.get('view') ?? '';
  return {
    view: VIEWS.includes(view) ? view : 'scores',
    scorer: params.get('scorer') ?? '',
    agent: params.get('agent') ?? '',
    tenant: params.get('tenant') ?? '',
    status: ['scored', 'not_scorable', 'failed'].includes(status) ? status : '',
    min: number('min'),
    max: number('max'),
    range: range in RANGES ? range : '',
    from: time('from'),
    to: time('to'),
    sort: params.get('sort') === 'score' ? 'score' : 'at',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    record: params.get('record') ?? '',
    pair: params.get('pair') ?? '',
    thread: params.get('thread') ?? '',
    cmp: params.get('cmp') === 'version' ? 'version' : 'time',
    aFrom: time('aFrom'),
    aTo: time('aTo'),
    bFrom: time('bFrom'),
    bTo: time('bTo'),
    aVersion: params.get('aVersion') ?? undefined,
    bVersion: params.get('bVersion') ?? undefined,
  };
}

export function searchFromFilters(filters) {
  const params = new URLSearchParams();
  if (filters.view !== 'scores') params.set('view', filters.view);
  for (const name of ['scorer', 'agent', 'tenant', 'status', 'range', 'record', 'pair', 'thread']) if (filters[name]) params.set(name, filters[name]);
  for (const name of ['min', 'max']) if (filters[name] !== undefined) params.set(name, String(filters[name]));
  for (const name of ['from', 'to', 'aFrom', 'aTo', 'bFrom', 'bTo']) if (filters[name] !== undefined) params.set(name, new Date(filters[name]).toISOString());
  if (filters.sort !== 'at') params.set('sort', filters.sort);
  if (filters.order !== 'desc') params.set('order', filters.order);
  if (filters.cmp !== 'time') params.set('cmp', filters.cmp);
  // A version may be '' (a binding without one): kept, as the empty value.
  for (const name of ['aVersion', 'bVersion']) if (filters[name] !== undefined) params.set(name, filters[name]);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The time window [start, end] the filters select, in epoch ms, given the server's now. */
export function timeWindow(filters, now, windowMs) {
  let start = now - windowMs;
  let end = Infinity;
  if (filters.range) start = Math.max(start, now - RANGES[filters.range]);
  if (filters.from !== undefined) start = Math.max(start, filters.from);
  if (filters.to !== undefined) end = filters.to;
  return { start, end };
}

export function scoreFilterActive(filters) {
  return filters.min !== undefined || filters.max !== undefined;
}

/** Whether a record summary passes every filter. */
export function recordMatches(summary, filters, window) {
  if (filters.scorer && summary.scorer !== filters.scorer) return false;
  if (filters.agent && summary.agent !== filters.agent) return false;
  if (filters.tenant && summary.tenant !== filters.tenant) return false;
  if (filters.status && summary.status !== filters.status) return false;
  if (summary.at < window.start || summary.at > window.end) return false;
  if (scoreFilterActive(filters)) {
    if (summary.status !== 'scored') return false;
    if (filters.min !== undefined && summary.score < filters.min) return false;
    if (filters.max !== undefined && summary.score > filters.max) return false;
  }
  return true;
}

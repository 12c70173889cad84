// The compare view: one scorer, two sides — two time ranges, or two of its versions over the
// selected time range — side by side (compare.js), every choice kept in the URL (cmp, aFrom, aTo,
// bFrom, bTo, aVersion, bVersion). The agent, tenant, status and score filters apply to both sides.
import { sideTotals } from './aggregate-view.js';
import { compareSides, defaultTimeSides, defaultVersions } from './compare.js';
import { el, formatScore, formatTime } from './dom.js';
import { significanceWords } from './statistics.js';

const HOUR = 3_600_000;
const fixed = (value, digits = 3) => (value === undefined || value === null ? '—' : formatScore(Math.round(value * 10 ** digits) / 10 ** digits));
const percent = (share) => (share === undefined ? '—' : `${Math.round(share * 1000) / 10}%`);
const pValue = (p) => (p === undefined ? '' : p < 0.0001 ? 'p < 0.0001' : `p = ${p.toPrecision(2)}`);
const versionName = (version) => (version === '' ? '(no version)' : version);

/** `YYYY-MM-DDTHH:mm` in local time, what a datetime-local input holds. */
function localInput(ms) {
  if (ms === undefined) return '';
  const date = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return date.toISOString().slice(0, 16);
}

function fromLocalInput(text) {
  const ms = text === '' ? NaN : new Date(text).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** The two sides the filters ask for, with the defaults filled in. */
export function chosenSides(filters, now, windowMs, versions) {
  if (filters.cmp === 'version') {
    const fallback = defaultVersions(versions);
    const a = filters.aVersion ?? fallback?.a;
    const b = filters.bVersion ?? fallback?.b;
    return a === undefined || b === undefined ? undefined : { a: { version: a }, b: { version: b } };
  }
  const fallback = defaultTimeSides(now, windowMs);
  return {
    a: { start: filters.aFrom ?? fallback.a.start, end: filters.aTo ?? fallback.a.end },
    b: { start: filters.bFrom ?? fallback.b.start, end: filters.bTo ?? fallback.b.end },
  };
}

function hint(name, test, describe) {
  if (test === undefined || test.p === undefined) return el('li', { dataset: { test: name } }, `${name}: too few records on a side to tell`);
  return el('li', { dataset: { test: name } }, `${name}: ${describe(test)}, ${pValue(test.p)} — ${significanceWords(test.p)}`);
}

function distributionBars(binEdges, result) {
  const label = (bin) => (bin === 0 ? '< 0' : bin === binEdges.length ? '> 1' : `${binEdges[bin - 1]}–${binEdges[bin]}`);
  const rows = result.a.shares.map((shareA, bin) => ({ bin, shareA, shareB: result.b.shares[bin] })).filter((row) => row.shareA > 0 || row.shareB > 0);
  const bar = (share, side) => el('span', { className: `bar bar-${side}`, style: `width: ${Math.round(share * 100)}%` });
  return el(
    'table',
    { className: 'distribution' },
    el('thead', {}, el('tr', {}, el('th', {}, 'score'), el('th', {}, 'A'), el('th', {}, 'B'))),
    el(
      'tbody',
      {},
      rows.map((row) => el('tr', { dataset: { bin: String(row.bin) } }, el('td', {}, label(row.bin)), el('td', {}, bar(row.shareA, 'a'), ` ${percent(row.shareA)}`), el('td', {}, bar(row.shareB, 'b'), ` ${percent(row.shareB)}`))),
    ),
  );
}

export const comparePanel = {
  id: 'compare',
  view: 'compare',
  mount(host) {
    this.root = el('section', { id: 'compare', className: 'panel', 'aria-label': 'compare two time ranges or two versions' });
    host.append(this.root);
  },
  render(context) {
    const { store, config, filters, window, now, names } = context;
    const scorer = filters.scorer || names.scorer[0];
    if (scorer === undefined) {
      this.root.replaceChildren(el('p', {}, 'No score records yet: nothing to compare.'));
      return;
    }
    const versions = names.versions.get(scorer) ?? [];
    const sides = chosenSides(filters, now, config.windowMs, versions);
    const controls = this.controls(context, scorer, versions, sides);
    if (sides === undefined) {
      this.root.replaceChildren(controls, el('p', { id: 'compare-note' }, `${scorer} has ${versions.length === 1 ? `only version ${versionName(versions[0])}` : 'no version'} in the look-back: there is no second version to compare with. Compare two time ranges instead.`));
      return;
    }
    const totalsOf = (side) =>
      filters.cmp === 'version'
        ? sideTotals(store, config, { ...filters, scorer }, { start: window.start, end: Math.min(window.end, now) + 1 }, side.version)
        : sideTotals(store, config, { ...filters, scorer }, side, undefined);
    const result = compareSides(totalsOf(sides.a), totalsOf(sides.b));
    const sideName = (key) => {
      const side = sides[key];
      if (filters.cmp === 'version') return `${key.toUpperCase()}: version ${versionName(side.version)}`;
      const covered = result[key].covered;
      return `${key.toUpperCase()}: ${formatTime(side.start)} → ${formatTime(side.end)}${covered ? ` (buckets ${formatTime(covered.start)} → ${formatTime(covered.end)})` : ''}`;
    };
    const line = (name, field, a, b) => el('tr', { dataset: { field } }, el('th', {}, name), el('td', { dataset: { side: 'a' } }, a), el('td', { dataset: { side: 'b' } }, b));
    const meanText = (side) => (side.mean === undefined ? '—' : `${fixed(side.mean)}${side.sd === undefined ? '' : ` ± ${fixed(side.sd)}`}`);
    this.root.replaceChildren(
      controls,
      el(
        'table',
        { id: 'compare-table', className: 'compare' },
        el('thead', {}, el('tr', {}, el('th', {}, scorer), el('th', { dataset: { side: 'a' } }, sideName('a')), el('th', { dataset: { side: 'b' } }, sideName('b')))),
        el(
          'tbody',
          {},
          line('records', 'records', String(result.a.records), String(result.b.records)),
          line('scored (n)', 'n', String(result.a.n), String(result.b.n)),
          line('mean ± sd', 'mean', meanText(result.a), meanText(result.b)),
          line('pass rate', 'pass-rate', result.a.verdicts === 0 ? '—' : `${percent(result.a.passRate)} of ${result.a.verdicts}`, result.b.verdicts === 0 ? '—' : `${percent(result.b.passRate)} of ${result.b.verdicts}`),
          line('failed', 'failed', String(result.a.failed), String(result.b.failed)),
          line('not scorable', 'not-scorable', String(result.a.notScorable), String(result.b.notScorable)),
          line('re-scores (not in the figures above)', 'rescores', String(result.a.rescores), String(result.b.rescores)),
        ),
      ),
      el(
        'ul',
        { id: 'compare-hints', className: 'hints' },
        hint('means', result.means, (test) => `B − A = ${fixed(result.b.mean - result.a.mean)} (Welch's t = ${fixed(test.t, 2)}, df ${fixed(test.df, 1)})`),
        hint('distributions', result.distributions, (test) => `a B score is above an A score in ${percent(test.bHigher)} of pairs (Mann–Whitney U = ${fixed(test.u, 1)})`),
        result.a.verdicts === 0 && result.b.verdicts === 0
          ? el('li', { dataset: { test: 'pass rates' } }, 'pass rates: these records carry no verdicts')
          : hint('pass rates', result.passRates, (test) => `${percent(test.rateA)} → ${percent(test.rateB)} (z = ${fixed(test.z, 2)})`),
      ),
      el('h3', {}, 'distribution (share of each side’s scores)'),
      distributionBars(config.binEdges, result),
    );
  },
  controls(context, scorer, versions, sides) {
    const { filters, names, now, config } = context;
    const scorerMenu = el('select', { name: 'compare-scorer', onchange: (event) => context.setFilters({ scorer: event.target.value }) }, names.scorer.map((name) => el('option', { value: name }, name)));
    scorerMenu.value = scorer;
    const mode = el('select', { name: 'compare-mode', onchange: (event) => context.setFilters({ cmp: event.target.value }) }, el('option', { value: 'time' }, 'two time ranges'), el('option', { value: 'version' }, 'two versions'));
    mode.value = filters.cmp;
    const parts = [el('label', {}, 'scorer ', scorerMenu), el('label', {}, 'compare ', mode)];
    if (filters.cmp === 'version') {
      for (const key of ['a', 'b']) {
        const menu = el('select', { name: `compare-${key}-version`, onchange: (event) => context.setFilters({ [`${key}Version`]: event.target.value }) }, versions.map((version) => el('option', { value: version }, versionName(version))));
        if (sides !== undefined) menu.value = sides[key].version;
        parts.push(el('label', {}, `${key.toUpperCase()} `, menu));
      }
    } else {
      for (const key of ['a', 'b']) {
        const input = (edge) => el('input', { type: 'datetime-local', name: `compare-${key}-${edge}`, value: localInput(sides[key][edge === 'from' ? 'start' : 'end']), onchange: (event) => context.setFilters({ [`${key}${edge === 'from' ? 'From' : 'To'}`]: fromLocalInput(event.target.value) }) });
        parts.push(el('label', {}, `${key.toUpperCase()} `, input('from'), ' → ', input('to')));
      }
      const preset = (label, span) => el('button', { type: 'button', onclick: () => context.setFilters({ aFrom: now - 2 * span, aTo: now - span, bFrom: now - span, bTo: now }) }, label);
      parts.push(preset('last hour vs the hour before', Math.min(HOUR, config.windowMs / 2)));
      if (config.windowMs >= 12 * HOUR) parts.push(preset('last 6 h vs the 6 before', 6 * HOUR));
    }
    return el('form', { id: 'compare-controls', className: 'filters', onsubmit: (event) => event.preventDefault() }, parts);
  },
};

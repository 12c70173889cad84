// The threads view: thread scorers' records by conversation (docs/threads.md). One row per thread —
// its id, agent, tenant, latest version, turns and why it closed, and each thread scorer's score of
// that version — most recently scored first; a click opens the thread's history above the list, every version
// newest first (a resumed thread is re-scored as version 2, 3, … and keeps the earlier ones), each
// score opening its record, and its turns, each looked up like a run (its run scores, openable,
// with their trace links); and the thread scorers' decisions about it (why a close gave no score).
// "Why no thread score?" looks a thread id up in every tenant. The open thread is kept in the URL
// (`thread`). With no time range chosen the list holds every kept thread, those last scored before
// the look-back (from the latest-score view, with only their latest version) included. Every value
// from a record is written as text (dom.js).
import { el, formatTime } from './dom.js';
import { lookUpRun } from './run-lookup.js';
import { decisionText, latestOutcomeText, scoreText, threadScorers, threadsShown, threadsWithId, timeRangeChosen, versionLine } from './thread-view.js';

const MAX_ROWS = 200;

export const threadsPanel = {
  id: 'threads',
  view: 'threads',
  mount(host) {
    this.found = undefined;
    this.root = el(
      'section',
      { id: 'threads', className: 'panel', 'aria-label': 'threads' },
      el('form', { id: 'thread-find' }, el('h2', {}, 'Why no thread score?'), el('input', { name: 'threadId', placeholder: 'thread id', required: true }), ' ', el('button', { type: 'submit' }, 'look up'), el('div', { id: 'thread-find-result' })),
      el('div', { id: 'thread-history' }),
      el('div', { id: 'threads-table' }),
    );
    this.root.querySelector('#thread-find').addEventListener('submit', (event) => {
      event.preventDefault();
      this.found = event.target.elements.namedItem('threadId').value.trim();
      this.lookUp?.();
    });
    host.append(this.root);
  },
  renderLookUp(context) {
    const host = this.root.querySelector('#thread-find-result');
    if (this.found === undefined || this.found === '') return host.replaceChildren();
    const matches = threadsWithId(context.threads, this.found);
    if (matches.length === 1 && context.filters.thread !== matches[0].key) {
      context.setFilters({ thread: matches[0].key });
      return host.replaceChildren();
    }
    if (matches.length === 0) {
      return host.replaceChildren(el('p', { className: 'notice' }, `No thread '${this.found}' kept. It may not be scored yet (its idle gap has not passed, or it has not ended), its runs may carry no thread id (threads.idPath), or it was last scored before the ${context.threads.size} most recently scored threads kept.`));
    }
    host.replaceChildren(el('p', {}, `'${this.found}' is a thread in ${matches.length} tenants: `, matches.map((thread) => el('button', { type: 'button', className: 'link', dataset: { thread: thread.key }, onclick: () => context.setFilters({ thread: thread.key }) }, thread.tenant)).flatMap((button, index) => (index === 0 ? [button] : [' · ', button]))));
  },
  render(context) {
    this.lookUp = () => this.renderLookUp(context);
    this.renderLookUp(context);
    const shown = threadsShown(context.threads, context.filters, context.window);
    const scorers = threadScorers(shown);
    const open = context.filters.thread;
    this.root.querySelector('#threads-table').replaceChildren(
      el('h2', {}, 'Threads ', el('span', { className: 'note' }, `${timeRangeChosen(context.filters) ? `${shown.length} scored in this range (of the ${context.threads.size} most recently scored kept)` : `${shown.length} most recently scored`}${shown.length > MAX_ROWS ? `, first ${MAX_ROWS} shown` : ''}`)),
      shown.length === 0
        ? el('p', { className: 'notice' }, `No thread scores${timeRangeChosen(context.filters) ? ' in this time range' : ''}. Thread scorers (level: thread) score a conversation after its idle gap, at its end, or at its bounds.`)
        : el(
            'table',
            { id: 'thread-list' },
            el('thead', {}, el('tr', {}, ['last scored', 'thread', 'agent', 'tenant', 'version', 'turns', 'closed by', ...scorers].map((name) => el('th', {}, name)))),
            el(
              'tbody',
              {},
              shown.slice(0, MAX_ROWS).map((thread) => {
                const latest = thread.versions[0];
                return el(
                  'tr',
                  { dataset: { thread: thread.key }, className: thread.key === open ? 'selected' : '', onclick: () => context.setFilters({ thread: thread.key === open ? '' : thread.key }) },
                  el('td', {}, formatTime(thread.at)),
                  el('td', { dataset: { field: 'id' } }, thread.id),
                  el('td', {}, thread.agent),
                  el('td', {}, thread.tenant),
                  el('td', {}, String(latest?.version ?? '—')),
                  el('td', {}, String(latest?.turns ?? thread.decisions[0]?.turns ?? '')),
                  el('td', {}, (latest?.closedBy ?? thread.decisions[0]?.closedBy ?? '').replace('_', ' ')),
                  scorers.map((scorer) => el('td', { className: 'score', dataset: { scorer } }, latestOutcomeText(thread, scorer))),
                );
              }),
            ),
          ),
    );
    this.renderHistory(open === '' ? undefined : context.threads.get(open), open, context);
  },
  renderHistory(thread, key, context) {
    const host = this.root.querySelector('#thread-history');
    // Redrawn only when the thread changed: records stream in between, and a turn looked up below stays open.
    const drawn = thread === undefined ? key : `${thread.key}\u0000${thread.at}\u0000${thread.versions.length}\u0000${thread.decisions.length}\u0000${thread.versions.map((version) => version.scores.length).join(',')}`;
    if (this.drawn === drawn && host.childElementCount > 0) return;
    this.drawn = drawn;
    if (key === '') return host.replaceChildren();
    if (thread === undefined) return host.replaceChildren(el('p', { className: 'notice' }, 'This thread is no longer kept (the dashboard keeps the most recently scored threads).'));
    host.replaceChildren(
      el('h3', {}, `Thread ${thread.id} `, el('span', { className: 'note' }, `${thread.agent} · ${thread.tenant} · ${thread.versions.length} version${thread.versions.length === 1 ? '' : 's'} kept${thread.olderVersions > 0 ? `, ${thread.olderVersions} older not kept` : ''}`)),
      thread.decisions.length === 0
        ? undefined
        : el(
            'ul',
            { className: 'thread-decisions' },
            thread.decisions.map((decision) =>
              el('li', { dataset: { reason: decision.reason } }, `${decision.scorer}${decision.version === '' ? '' : ` v${decision.version}`}: ${decisionText(decision)} after ${decision.turns} turn${decision.turns === 1 ? '' : 's'} (closed by ${decision.closedBy.replace('_', ' ')})${decision.detail ? ` — ${decision.detail}` : ''} · ${formatTime(decision.at)}`),
            ),
          ),
      el(
        'ol',
        { className: 'thread-versions', reversed: true },
        thread.versions.map((version) =>
          el(
            'li',
            { dataset: { version: String(version.version) } },
            el('p', { className: 'version-line' }, versionLine(version)),
            version.runIds === undefined ? undefined : this.turnLinks(version, context),
            el(
              'ul',
              {},
              version.scores.map((score) =>
                el(
                  'li',
                  {},
                  el('button', { type: 'button', className: 'link', dataset: { scoreId: score.scoreId }, onclick: () => context.openRecord(score.scoreId) }, `${score.scorer}${score.version === '' ? '' : ` v${score.version}`}: ${scoreText(version, score.scorer)}`),
                  ` · ${formatTime(score.at)}`,
                ),
              ),
            ),
          ),
        ),
      ),
    );
  },
  /** The version's turns: each opens what the dashboard saw of its run (its run scores, each openable) below, and its trace when a record of it is at hand. */
  turnLinks(version, context) {
    const result = el('div', { className: 'turn-result' });
    const first = version.turns - version.runIds.length + 1;
    const traceOf = (runId) => [...context.records.values()].find((summary) => summary.runId === runId && summary.traceUrl !== undefined)?.traceUrl;
    return el(
      'div',
      { className: 'turns' },
      'turns: ',
      version.runIds.map((runId, index) => {
        const traceUrl = traceOf(runId);
        return el(
          'span',
          { className: 'turn' },
          el('button', { type: 'button', className: 'link', title: runId, dataset: { runId }, onclick: () => void lookUpRun(result, runId, context.openRecord) }, `#${first + index}`),
          traceUrl === undefined ? '' : [' ', el('a', { href: traceUrl, target: '_blank', rel: 'noopener noreferrer', className: 'trace-link' }, 'trace')],
          ' ',
        );
      }),
      result,
    );
  },
};

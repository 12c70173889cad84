// The threads view: thread scorers' records by conversation (docs/threads.md). One row per thread —
// its id, agent, tenant, latest version, turns and why it closed, and each thread scorer's score of
// that version — most recently scored first; a click opens the thread's history above the list, every version
// newest first (a resumed thread is re-scored as version 2, 3, … and keeps the earlier ones), each
// score opening its record. The open thread is kept in the URL (`thread`). Every value from a
// record is written as text (dom.js).
import { el, formatTime } from './dom.js';
import { scoreText, threadScorers, threadsShown, versionLine } from './thread-view.js';

const MAX_ROWS = 200;

export const threadsPanel = {
  id: 'threads',
  view: 'threads',
  mount(host) {
    this.root = el('section', { id: 'threads', className: 'panel', 'aria-label': 'threads' }, el('div', { id: 'thread-history' }), el('div', { id: 'threads-table' }));
    host.append(this.root);
  },
  render(context) {
    const shown = threadsShown(context.threads, context.filters, context.window);
    const scorers = threadScorers(shown);
    const open = context.filters.thread;
    this.root.querySelector('#threads-table').replaceChildren(
      el('h2', {}, 'Threads ', el('span', { className: 'note' }, `${shown.length} scored in this range (of the ${context.threads.size} most recent kept)${shown.length > MAX_ROWS ? `, first ${MAX_ROWS} shown` : ''}`)),
      shown.length === 0
        ? el('p', { className: 'notice' }, 'No thread scores in this time range. Thread scorers (level: thread) score a conversation after its idle gap, at its end, or at its bounds.')
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
                  el('td', {}, String(latest?.version ?? '')),
                  el('td', {}, String(latest?.turns ?? '')),
                  el('td', {}, latest?.closedBy.replace('_', ' ') ?? ''),
                  scorers.map((scorer) => el('td', { className: 'score', dataset: { scorer } }, latest === undefined ? '' : scoreText(latest, scorer))),
                );
              }),
            ),
          ),
    );
    this.renderHistory(open === '' ? undefined : context.threads.get(open), open, context);
  },
  renderHistory(thread, key, context) {
    const host = this.root.querySelector('#thread-history');
    if (key === '') return host.replaceChildren();
    if (thread === undefined) return host.replaceChildren(el('p', { className: 'notice' }, 'This thread is no longer kept (the dashboard keeps the most recently scored threads in the look-back).'));
    host.replaceChildren(
      el('h3', {}, `Thread ${thread.id} `, el('span', { className: 'note' }, `${thread.agent} · ${thread.tenant} · ${thread.versions.length} version${thread.versions.length === 1 ? '' : 's'} kept${thread.olderVersions > 0 ? `, ${thread.olderVersions} older not kept` : ''}`)),
      el(
        'ol',
        { className: 'thread-versions', reversed: true },
        thread.versions.map((version) =>
          el(
            'li',
            { dataset: { version: String(version.version) } },
            el('p', { className: 'version-line' }, versionLine(version)),
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
};

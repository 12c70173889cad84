// "Why no score?": every score record and skip decision the dashboard saw for a run id, those
// still kept openable, and when there is none, what that can mean. A re-score (rescore-mark.js) is
// listed right after the judged score of its scorer, marked, so the two opinions read side by side.
import { el, formatScore, formatTime } from './dom.js';
import { rescoreText } from './rescore-mark.js';

/**
 * The entries' indexes in the order they are listed: as seen, except that each scorer's re-scores
 * follow its first judged score (a re-score of a judged score not seen stays where it is).
 */
export function lookupOrder(entries) {
  const judgedAt = new Map();
  entries.forEach((entry, index) => {
    if (entry.kind === 'score' && entry.rescore === undefined && !judgedAt.has(entry.scorer)) judgedAt.set(entry.scorer, index);
  });
  const after = new Map();
  const order = [];
  entries.forEach((entry, index) => {
    const judged = entry.kind === 'score' && entry.rescore !== undefined ? judgedAt.get(entry.scorer) : undefined;
    if (judged === undefined) order.push(index);
    else after.set(judged, [...(after.get(judged) ?? []), index]);
  });
  return order.flatMap((index) => [index, ...(after.get(index) ?? [])]);
}

function scoreText(entry) {
  const outcome = `${entry.status.replace('_', ' ')}${entry.score === undefined ? '' : ` ${formatScore(entry.score)}`}`;
  return `${formatTime(entry.at)} ${entry.scorer}: ${entry.rescore === undefined ? '' : `${rescoreText(entry.rescore)}: `}${outcome} — ${entry.detail} `;
}

export async function lookUpRun(result, runId, openDetail) {
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
      lookupOrder(run.entries).map((index) => {
        const entry = run.entries[index];
        return entry.kind === 'decision'
          ? el('li', { dataset: { kind: 'decision' } }, `${formatTime(entry.at)} ${entry.scorer}: skipped (${entry.reason})${entry.detail ? ` — ${entry.detail}` : ''}`)
          : el(
              'li',
              { dataset: { kind: 'score', rescore: entry.rescore?.reason } },
              scoreText(entry),
              run.openable[index] ? el('button', { type: 'button', onclick: () => openDetail(run.openable[index]) }, 'open') : '',
            );
      }),
    ),
  );
}

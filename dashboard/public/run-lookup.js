// "Why no score?": every score record and skip decision the dashboard saw for a run id, those
// still kept openable, and when there is none, what that can mean.
import { el, formatScore, formatTime } from './dom.js';

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

// The threads view's state, apart from drawing it (unit-tested in Node): the page's threads by key,
// updated by the snapshot and by each thread scorer's record or decision event (which carries its
// thread as it now is); which of them the filters show; what each scorer said last about a thread
// (a score, or the decision why not); the threads of an id across tenants; and the line that says
// what a version holds. Pure.

/**
 * Replaces the thread in `threads` (a Map by key) and keeps at most `limit`, the least recently
 * scored leaving first — by its time, not by arrival: the latest-score view brings old threads
 * after recent ones.
 */
export function addThread(threads, thread, limit) {
  threads.set(thread.key, thread);
  while (threads.size > limit) {
    let oldest;
    for (const kept of threads.values()) if (oldest === undefined || kept.at < oldest.at) oldest = kept;
    threads.delete(oldest.key);
  }
}

/** Whether a time range was chosen (a relative range, or from/to): else the whole look-back, and the threads view lists every kept thread. */
export function timeRangeChosen(filters) {
  return Boolean(filters.range) || filters.from !== undefined || filters.to !== undefined;
}

/**
 * The threads the agent, tenant, scorer and time filters select, most recently scored first. With
 * no time range chosen every kept thread is listed, those last scored before the look-back (known
 * from the latest-score view) included; a chosen range lists the threads last scored in it.
 */
export function threadsShown(threads, filters, window) {
  const timed = timeRangeChosen(filters);
  return [...threads.values()]
    .filter((thread) => (!filters.agent || thread.agent === filters.agent) && (!filters.tenant || thread.tenant === filters.tenant))
    .filter((thread) => !timed || (thread.at >= window.start && thread.at <= window.end))
    .filter((thread) => !filters.scorer || thread.versions.some((version) => version.scores.some((score) => score.scorer === filters.scorer)))
    .sort((a, b) => b.at - a.at);
}

/** The scorers that scored or decided about any of the threads shown, sorted: the table's columns. */
export function threadScorers(threads) {
  const names = new Set();
  for (const thread of threads) {
    for (const version of thread.versions) for (const score of version.scores) names.add(score.scorer);
    for (const decision of thread.decisions) names.add(decision.scorer);
  }
  return [...names].sort();
}

/** What `scorer` said last about the thread: its score of the latest version, or a later decision's reason. */
export function latestOutcomeText(thread, scorer) {
  const latest = thread.versions[0];
  const score = latest?.scores.find((candidate) => candidate.scorer === scorer);
  const decision = thread.decisions.find((candidate) => candidate.scorer === scorer);
  if (decision !== undefined && (score === undefined || decision.at > score.at)) return decisionText(decision);
  return latest === undefined ? '' : scoreText(latest, scorer);
}

/** A decision in words: `skipped: rescore refused`. */
export function decisionText(decision) {
  return `no score: ${decision.reason.replaceAll('_', ' ')}`;
}

/** The kept threads whose id is `id`, in any tenant (what "why no thread score?" looks up). */
export function threadsWithId(threads, id) {
  return [...threads.values()].filter((thread) => thread.id === id);
}

/** A version's score by `scorer`: its number, or the status when it has none. */
export function scoreText(version, scorer) {
  const score = version.scores.find((candidate) => candidate.scorer === scorer);
  if (score === undefined) return '';
  if (score.status !== 'scored') return score.status.replace('_', ' ');
  return `${Math.round(score.score * 1000) / 1000}${score.verdict === undefined ? '' : ` ${score.verdict}`}`;
}

const CLOSED_BY = { idle: 'idle gap', ended: 'ended by the agent', max_turns: 'max turns', max_age: 'max age', max_bytes: 'max bytes', overflow: 'state full' };

/** What one version holds and why it was closed, in words. */
export function versionLine(version) {
  const turns = `${version.turns} turn${version.turns === 1 ? '' : 's'}`;
  const scope = version.scope === 'segment' ? 'a segment' : 'the whole conversation';
  const supersedes = version.supersedes === undefined ? '' : `, supersedes ${version.supersedes.slice(0, 8)}`;
  return `version ${version.version}: ${scope}, ${turns} (${version.firstRunId} → ${version.lastRunId}), closed by ${CLOSED_BY[version.closedBy] ?? version.closedBy}${supersedes}`;
}

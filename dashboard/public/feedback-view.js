// What the feedback view shows, from the page's agreements (the snapshot's, kept up to date by the
// live events): the window summaries grouped per scorer version, the disagreements under the
// filters, and what to say when there are none. Pure: no DOM.

/** Adds a live agreement event to the page's agreements: a window replaces its earlier publication, a disagreement replaces its earlier measurement and joins the most recent `max`, a resolved pair leaves. */
export function addAgreement(agreements, data, max) {
  if (data.window !== undefined) {
    const same = (known) => known.scorer === data.window.scorer && known.version === data.window.version && known.start === data.window.start && known.end === data.window.end;
    agreements.windows = [...agreements.windows.filter((known) => !same(known)), data.window];
    return;
  }
  // A pair published again replaces its earlier measurement; one that now agrees leaves the list.
  const id = data.resolved ?? data.disagreement.agreementId;
  agreements.disagreements = agreements.disagreements.filter((known) => known.agreementId !== id);
  if (data.disagreement === undefined) return;
  agreements.disagreements.push(data.disagreement);
  if (agreements.disagreements.length > max) agreements.disagreements.splice(0, agreements.disagreements.length - max);
}

/** What the view says when it has nothing to show, by where its records come from. */
export function agreementsNotice(agreements) {
  if (agreements.state === 'off') return 'This dashboard reads no agreements topic (it was started with --agreements-topic \'\'), so there is no judge–human agreement to show.';
  if (agreements.state === 'missing') {
    return `The agreements topic '${agreements.topic}' does not exist. Agreement records are published by the feedback join ('scorestream agreement'), which joins feedback to score records and creates the topic (docs/feedback.md). Restart the dashboard once it runs.`;
  }
  return undefined;
}

/** The window summaries under the filters, grouped per scorer version, each group oldest first. */
export function agreementGroups(windows, filters, window) {
  const groups = new Map();
  for (const summary of windows) {
    if (filters.scorer && summary.scorer !== filters.scorer) continue;
    if (summary.end < window.start || summary.start > window.end) continue;
    const key = `${summary.scorer}\u0000${summary.version}`;
    if (!groups.has(key)) groups.set(key, { scorer: summary.scorer, version: summary.version, windows: [] });
    groups.get(key).windows.push(summary);
  }
  for (const group of groups.values()) group.windows.sort((a, b) => a.end - b.end);
  return [...groups.values()].sort((a, b) => a.scorer.localeCompare(b.scorer) || a.version.localeCompare(b.version));
}

export function disagreementsShown(disagreements, filters, window) {
  return disagreements
    .filter((pair) => (!filters.scorer || pair.scorer === filters.scorer) && (!filters.agent || pair.agent === filters.agent) && (!filters.tenant || pair.tenant === filters.tenant) && pair.at >= window.start && pair.at <= window.end)
    .sort((a, b) => b.at - a.at);
}

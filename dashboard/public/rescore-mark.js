// How the page marks a re-score (docs/feedback.md, re-scoring): a record scored again because a
// person disagreed, carrying `rescore: { feedbackId, reason }`. The same words in the records
// table, the detail view and "why no score?", and for the count the scorer cards show apart. The feedback id comes from a record: it is written as
// text like every record string (dom.js).

/** The short mark: `re-score (thumbs-down)`. */
export function rescoreLabel(mark) {
  return `re-score (${mark.reason})`;
}

/** The mark with its feedback: `re-score (thumbs-down) for feedback fb-1`. */
export function rescoreText(mark) {
  return `${rescoreLabel(mark)} for feedback ${mark.feedbackId}`;
}

/** A scorer card's count of re-scores, which are not among its scores (aggregate-view.js); nothing while there are none. */
export function rescoreCount(rescores) {
  return rescores > 0 ? ` · re-scores ${rescores} (not in these figures)` : '';
}

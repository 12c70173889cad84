// The rescore topic (docs/feedback.md, re-scoring): where the feedback join asks the service to
// score a pair again. The service reads it only when some binding opts in with `rescoreOn` — and a
// replay never does: the live service owns re-scores, as it owns the retry tiers.
export function rescoreTopic(config: { topics: { rescore: string }; scorers: ReadonlyArray<{ rescoreOn?: readonly string[] | undefined }> }): string | undefined {
  return config.scorers.some((binding) => binding.rescoreOn !== undefined) ? config.topics.rescore : undefined;
}

// The topics of thread scoring (docs/threads.md, the transport), derived from the runs topic as the
// retry tiers are: `{runs}-by-thread` holds every turn and end event re-keyed by tenant + thread,
// so that one thread's turns meet in one partition; `{runs}-thread-state` is the compacted
// changelog of that partition's thread state, partition for partition; `{runs}-thread-scores` is
// the compacted latest-score view, each thread's latest score record per scorer (keyed by
// threadScoreViewKeyFor), beside the results topic that keeps every version. All exist only while
// a thread scorer is bound (config `scorers[].level: 'thread'`).

export type ThreadTopics = { readonly byThread: string; readonly state: string; readonly latestScores: string };

export function threadTopicsFor(runsTopic: string): ThreadTopics {
  return { byThread: `${runsTopic}-by-thread`, state: `${runsTopic}-thread-state`, latestScores: `${runsTopic}-thread-scores` };
}

/** The thread topics of a config, or undefined when no thread scorer is bound. */
export function threadTopics(config: { topics: { runs: string }; threadScorers: readonly unknown[] }): ThreadTopics | undefined {
  return config.threadScorers.length === 0 ? undefined : threadTopicsFor(config.topics.runs);
}

// Which version of a thread scorer's score a feedback on the thread is compared with (docs/feedback.md,
// feedback on a thread). A thread is scored again when it resumes, so one thread scorer may hold
// several versions; a feedback is compared with one of them, so it counts once per scorer:
//   - the first version scored at or after the feedback (its scoredAt against the feedback's
//     submittedAt): the version that was open when the person spoke, and — the whole conversation
//     scored again under onResume 'rescore' — the earliest that holds every turn they had seen;
//   - until there is one, the latest version scored before it: the conversation had closed when
//     the person spoke, and may never resume.
// A version names its turns but not their times, so whether a resumed version's turns came before
// or after the feedback cannot be told; the rule errs towards a version that holds more than the
// person saw, never less. It is a function of the versions held, and as a thread's versions arrive
// in order (one partition) the answer only ever moves to a later version, and stops moving at the
// first one scored at or after the feedback. Pure.

export type ScoredVersion = { thread: { version: number; scoredAtMs: number } };

export function comparedVersion<Score extends ScoredVersion>(feedbackAtMs: number, versions: Iterable<Score>): Score | undefined {
  let firstAfter: Score | undefined;
  let latestBefore: Score | undefined;
  for (const score of versions) {
    const { version, scoredAtMs } = score.thread;
    if (scoredAtMs >= feedbackAtMs) {
      if (firstAfter === undefined || version < firstAfter.thread.version) firstAfter = score;
    } else if (latestBefore === undefined || version > latestBefore.thread.version) latestBefore = score;
  }
  return firstAfter ?? latestBefore;
}

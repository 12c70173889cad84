// The live join's state (docs/feedback.md, the join): feedback and scored records of the same run,
// or of the same thread (join-subject.ts), kept until their partner arrives — either may come
// first. A run's feedback is paired with every record of the run it applies to; a thread's with
// one version of each thread scorer's score (compared-version.ts). Pure and bounded:
//   - every item (a score record, a feedback) is kept for `ttlMs` after its own time (the Kafka
//     timestamp of its message), not after its run's last arrival, so the state at any moment is
//     exactly the items of the last `ttlMs` — what a restart rebuilds by reading both topics from
//     now − ttlMs (service/agreement-join.ts);
//   - at most `maxRuns` runs and threads (the one first seen earliest goes first) and `maxPerRun`
//     items of each side per run or thread (the oldest goes first); what is pushed out is counted,
//     never silent.
// It returns every (feedback, score) pair a new item completes — for a thread, a new version that
// becomes the compared one completes its pair again; deduplication (a record read twice, a pair
// measured again after a restart) and replacement (a later version of a thread pair) are the
// ledger's job (agreement-ledger.ts), by agreementId.
import type { FeedbackRecord } from '../../kit/contracts/feedback-record.ts';
import type { Entity, RunMetadata, Source } from '../../kit/contracts/common.ts';
import { feedbackApplies } from './agreement-labels.ts';
import { comparedVersion } from './compared-version.ts';
import { feedbackSubject, scoreSubject } from './join-subject.ts';

/** What the join keeps of a scored record. */
export type JoinScore = {
  scoreId: string;
  runId: string;
  scorerId: string;
  scorerVersion?: string | undefined;
  score: number;
  verdict?: 'pass' | 'fail' | undefined;
  entity?: Entity | undefined;
  metadata?: RunMetadata | undefined;
  /** The run event's position on the runs topic, where a re-score reads it back (rescore-request-for.ts); none for a thread score. */
  source?: Source | undefined;
  /** A thread score's thread and version (its record's `thread` block), and when the version was scored (its `scoredAt`). */
  thread?: { id: string; key: string; version: number; scoredAtMs: number } | undefined;
};

type ThreadScore = JoinScore & { thread: NonNullable<JoinScore['thread']> };

export type JoinedPair = { feedback: FeedbackRecord; score: JoinScore };

export type FeedbackJoinOptions = { ttlMs: number; maxRuns: number; maxPerRun: number };

export type FeedbackJoinStats = {
  /** Runs and threads held. */
  runs: number;
  scores: number;
  feedback: number;
  /** Runs and threads pushed out by maxRuns, items pushed out by maxPerRun, items that outlived ttlMs. */
  evictedRuns: number;
  evictedItems: number;
  expiredItems: number;
};

type Timed<T> = { item: T; atMs: number };
/** One run's or thread's items, each side by its id (scoreId, feedbackId). */
type RunEntry = { scores: Map<string, Timed<JoinScore>>; feedback: Map<string, Timed<FeedbackRecord>> };

export class FeedbackJoin {
  /** By subject (join-subject.ts): a run or a thread. */
  private readonly subjects = new Map<string, RunEntry>();
  private scoreCount = 0;
  private feedbackCount = 0;
  private evictedRuns = 0;
  private evictedItems = 0;
  private expiredItems = 0;
  readonly options: FeedbackJoinOptions;

  constructor(options: FeedbackJoinOptions) {
    for (const [name, value] of Object.entries(options)) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`FeedbackJoin: ${name} must be a positive integer, got ${value}`);
    }
    this.options = options;
  }

  /** Keeps a scored record (a re-delivered one replaces itself) and returns the pairs it completes. */
  addScore(score: JoinScore, atMs: number, nowMs: number): JoinedPair[] {
    if (atMs < nowMs - this.options.ttlMs) return [];
    const entry = this.entry(scoreSubject(score));
    if (!entry.scores.has(score.scoreId)) this.scoreCount += 1;
    entry.scores.set(score.scoreId, { item: score, atMs });
    this.capSide(entry.scores, 'score');
    const pairs: JoinedPair[] = [];
    for (const { item: feedback } of entry.feedback.values()) {
      if (!feedbackApplies(feedback, score)) continue;
      // A thread version completes a pair only when it is the one this feedback is compared with.
      if (isThreadScore(score) && comparedVersion(Date.parse(feedback.submittedAt), versionsOf(entry, score)) !== score) continue;
      pairs.push({ feedback, score });
    }
    return pairs;
  }

  /** Keeps feedback (a re-sent one, the same feedbackId, replaces itself) and returns the pairs it completes. */
  addFeedback(feedback: FeedbackRecord, atMs: number, nowMs: number): JoinedPair[] {
    if (atMs < nowMs - this.options.ttlMs) return [];
    const entry = this.entry(feedbackSubject(feedback));
    if (!entry.feedback.has(feedback.feedbackId)) this.feedbackCount += 1;
    entry.feedback.set(feedback.feedbackId, { item: feedback, atMs });
    this.capSide(entry.feedback, 'feedback');
    const pairs: JoinedPair[] = [];
    const feedbackAtMs = Date.parse(feedback.submittedAt);
    const compared = new Set<string>();
    for (const { item: score } of entry.scores.values()) {
      if (!feedbackApplies(feedback, score)) continue;
      if (!isThreadScore(score)) {
        pairs.push({ feedback, score });
        continue;
      }
      // One version per thread scorer: the first of its versions met here decides for all of them.
      const scorer = scorerKey(score);
      if (compared.has(scorer)) continue;
      compared.add(scorer);
      const version = comparedVersion(feedbackAtMs, versionsOf(entry, score));
      if (version !== undefined) pairs.push({ feedback, score: version });
    }
    return pairs;
  }

  /** Drops every item older than ttlMs before nowMs; returns how many. O(items kept): call it on a timer, not per message. */
  expire(nowMs: number): number {
    const oldest = nowMs - this.options.ttlMs;
    let dropped = 0;
    for (const [subject, entry] of this.subjects) {
      const scores = dropOlder(entry.scores, oldest);
      const feedback = dropOlder(entry.feedback, oldest);
      this.scoreCount -= scores;
      this.feedbackCount -= feedback;
      dropped += scores + feedback;
      if (entry.scores.size === 0 && entry.feedback.size === 0) this.subjects.delete(subject);
    }
    this.expiredItems += dropped;
    return dropped;
  }

  stats(): FeedbackJoinStats {
    return { runs: this.subjects.size, scores: this.scoreCount, feedback: this.feedbackCount, evictedRuns: this.evictedRuns, evictedItems: this.evictedItems, expiredItems: this.expiredItems };
  }

  private entry(subject: string): RunEntry {
    let entry = this.subjects.get(subject);
    if (entry !== undefined) return entry;
    if (this.subjects.size >= this.options.maxRuns) {
      const [oldestRun, oldest] = this.subjects.entries().next().value as [string, RunEntry];
      this.subjects.delete(oldestRun);
      this.scoreCount -= oldest.scores.size;
      this.feedbackCount -= oldest.feedback.size;
      this.evictedRuns += 1;
    }
    entry = { scores: new Map(), feedback: new Map() };
    this.subjects.set(subject, entry);
    return entry;
  }

  private capSide(side: Map<string, Timed<unknown>>, kind: 'score' | 'feedback'): void {
    while (side.size > this.options.maxPerRun) {
      let oldestId: string | undefined;
      let oldestAt = Infinity;
      for (const [id, timed] of side) {
        if (timed.atMs < oldestAt) {
          oldestAt = timed.atMs;
          oldestId = id;
        }
      }
      side.delete(oldestId as string);
      if (kind === 'score') this.scoreCount -= 1;
      else this.feedbackCount -= 1;
      this.evictedItems += 1;
    }
  }
}

const isThreadScore = (score: JoinScore): score is ThreadScore => score.thread !== undefined;
const scorerKey = (score: JoinScore) => `${score.scorerId}\u0000${score.scorerVersion ?? ''}`;

/** The versions of `score`'s thread scorer (its id and version) the entry holds. */
function* versionsOf(entry: RunEntry, score: ThreadScore): Generator<ThreadScore> {
  const scorer = scorerKey(score);
  for (const { item } of entry.scores.values()) if (isThreadScore(item) && scorerKey(item) === scorer) yield item;
}

function dropOlder(side: Map<string, Timed<unknown>>, oldest: number): number {
  let dropped = 0;
  for (const [id, timed] of side) {
    if (timed.atMs >= oldest) continue;
    side.delete(id);
    dropped += 1;
  }
  return dropped;
}

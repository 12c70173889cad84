// `scorestream agreement`: the live feedback join (docs/feedback.md, the join). One reader, apart
// from the scoring service: it reads the feedback topic and the results topic, joins feedback to
// the scored records of the same run, and thread feedback to one version of each thread scorer's
// score of the same thread (either may arrive first; src/agreement/feedback-join.ts),
// and publishes an AgreementRecord per (feedback, score) pair and, per scorer version and window,
// the window's κ, weighted κ, accuracy and confusion counts (src/agreement/agreement-ledger.ts),
// to a compacted agreements topic keyed by agreementRecordKey — so a record published twice is
// one record in the compacted view. Bad feedback is dead-lettered with its reason.
//
// Why a job of its own and not inside the service: the windows are per scorer version over all
// runs, so a reader that sees every partition computes them without merging partial windows of
// several group members; feedback is a small stream beside the runs; and the service's claims and
// exactly-once machinery stay as they are. Why no committed offsets: its state is rebuilt from the
// topics themselves at every start —
//   1. the agreements topic from the window boundary before now − retention, into the ledger (what
//      was already measured, so it is neither counted nor published again);
//   2. the feedback and results topics from now − ttl, into the join (what is still pending).
// Pairs the replay completes again are `same` in the ledger: nothing is lost, nothing doubled.
//
// Re-scores on feedback (docs/feedback.md, re-scoring) are asked for here, and decided by the
// service: the join is the one reader that sees a feedback and the judged record together — which
// scorer it disagrees with, and where the run event is (the record's `source`) — while only the
// service knows which bindings opted in (`rescoreOn`) and can score. So a pair measured for the
// first time (or changed) that disagrees (rescore-request-for.ts) becomes a RescoreRequest on the
// rescore topic, published before its pair record: once the pair is on the agreements topic, its
// request was sent, and a replayed pair (`same`) asks for nothing again. Records that are
// re-scores are not joined: they were made because of the feedback, and would count its
// disagreement twice and ask again. A disagreeing thread pair asks for nothing and is counted as
// refused (rescore-request-for.ts says why).
import type { Meter } from '@opentelemetry/api';
import type { Kafka, KafkaMessage, Producer } from 'kafkajs';
import { DEFAULT_TOPICS, DEFAULTS } from '../src/config/defaults.ts';
import { agreementRecordKey } from '../src/contracts/agreement-id.ts';
import { DEFAULT_AGREEMENTS_TOPIC } from '../src/contracts/agreement-record.ts';
import type { AgreementRecord } from '../src/contracts/agreement-record.ts';
import { fitDeadLetter } from '../src/contracts/build-dead-letter.ts';
import { DEFAULT_FEEDBACK_TOPIC } from '../src/contracts/feedback-record.ts';
import { decodeFeedbackRecord, parseAgreementRecord, parseScoreRecord } from '../src/contracts/parse.ts';
import { recordKeyFor } from '../src/contracts/record-key.ts';
import type { RescoreRequest } from '../src/contracts/rescore-request.ts';
import type { ScoreRecord } from '../src/contracts/score-record.ts';
import { rescoreRequestFor } from '../src/agreement/rescore-request-for.ts';
import { AgreementLedger } from '../src/agreement/agreement-ledger.ts';
import type { AgreementLedgerOptions } from '../src/agreement/agreement-ledger.ts';
import { buildAgreementPair } from '../src/agreement/build-agreement-pair.ts';
import { FeedbackJoin } from '../src/agreement/feedback-join.ts';
import type { FeedbackJoinOptions, JoinedPair, JoinScore } from '../src/agreement/feedback-join.ts';
import { registerAgreementMetrics } from '../otel/agreement-metrics.ts';
import { AGREEMENT_GROUP_PREFIX } from '../kafka/acl-roles.ts';
import { ensureTopics } from '../kafka/ensure-topics.ts';
import { keyPartitioner } from '../kafka/key-partitioner.ts';
import { startTopicReader } from './topic-reader.ts';
import type { TopicReader } from './topic-reader.ts';


/** The join's bounds and windows when none are given (docs/feedback.md). */
export const AGREEMENT_JOIN_DEFAULTS = {
  ttlMs: 24 * 3_600_000,
  maxRuns: 100_000,
  maxPerRun: 32,
  windowMs: 3_600_000,
  retentionMs: 24 * 3_600_000,
  maxPairs: 500_000,
  maxWindows: 10_000,
  flushIntervalMs: 1_000,
  maxFeedbackBytes: 1_048_576,
  maxDeadLetterBytes: 1_000_000,
  rescoreTopic: `${DEFAULT_TOPICS.runs}${DEFAULTS.rescoreTopicSuffix}`,
} as const;

export type AgreementJoinOptions = {
  kafka: Kafka;
  feedbackTopic?: string;
  resultsTopic?: string;
  agreementsTopic?: string;
  /** Where feedback that is not a FeedbackRecord v1 goes, with its reason. */
  deadLetterTopic?: string;
  /** Where re-scores are asked for (the service's `topics.rescore`; default `agent-runs-rescore`); null: never. */
  rescoreTopic?: string | null;
  passThreshold?: number;
  flushIntervalMs?: number;
  maxFeedbackBytes?: number;
  now?: () => number;
  /** The agreement metrics (otel/agreement-metrics.ts) go here; none without one. */
  meter?: Meter;
  onWarning?: (message: string) => void;
} & Partial<FeedbackJoinOptions> & Partial<AgreementLedgerOptions>;

export type AgreementJoinCounters = {
  feedbackRead: number;
  scoresRead: number;
  pairsPublished: number;
  /** Pairs completed again (a duplicate, a replay after a restart) and not published again. */
  pairsRepeated: number;
  /** Feedback the scale cannot place (neither pass nor fail: a 1–5 rating, a free label). */
  feedbackUnlabelled: number;
  /** Feedback about a thread (of feedbackRead): joined to the thread's scores by its key. */
  feedbackThreads: number;
  windowsPublished: number;
  /** Re-score requests published (disagreeing pairs measured for the first time, or changed). */
  rescoresRequested: number;
  /** Disagreeing pairs measured for the first time, or changed, that ask for no re-score because their score is a thread's (never asked: rescore-request-for.ts). */
  rescoresRefused: number;
  /** Score records that are re-scores themselves: read, not joined. */
  rescoresRead: number;
  deadLettersByCode: Map<string, number>;
  recordsUnreadable: number;
};

export type AgreementJoin = {
  /** Resolves once both phases of the rebuild reached where the topics stood at start. */
  readonly caughtUp: Promise<void>;
  readonly join: FeedbackJoin;
  readonly ledger: AgreementLedger;
  readonly counters: AgreementJoinCounters;
  stop(): Promise<void>;
};

export async function startAgreementJoin(options: AgreementJoinOptions): Promise<AgreementJoin> {
  const defaults = AGREEMENT_JOIN_DEFAULTS;
  const now = options.now ?? Date.now;
  const feedbackTopic = options.feedbackTopic ?? DEFAULT_FEEDBACK_TOPIC;
  const resultsTopic = options.resultsTopic ?? DEFAULT_TOPICS.results;
  const agreementsTopic = options.agreementsTopic ?? DEFAULT_AGREEMENTS_TOPIC;
  const deadLetterTopic = options.deadLetterTopic ?? `${feedbackTopic}-dlq`;
  const maxFeedbackBytes = options.maxFeedbackBytes ?? defaults.maxFeedbackBytes;
  const join = new FeedbackJoin({ ttlMs: options.ttlMs ?? defaults.ttlMs, maxRuns: options.maxRuns ?? defaults.maxRuns, maxPerRun: options.maxPerRun ?? defaults.maxPerRun });
  const ledger = new AgreementLedger({
    windowMs: options.windowMs ?? defaults.windowMs,
    retentionMs: Math.max(options.retentionMs ?? defaults.retentionMs, join.options.ttlMs),
    maxPairs: options.maxPairs ?? defaults.maxPairs,
    maxWindows: options.maxWindows ?? defaults.maxWindows,
  });
  const counters: AgreementJoinCounters = { feedbackRead: 0, scoresRead: 0, pairsPublished: 0, pairsRepeated: 0, feedbackUnlabelled: 0, feedbackThreads: 0, windowsPublished: 0, rescoresRequested: 0, rescoresRefused: 0, rescoresRead: 0, deadLettersByCode: new Map(), recordsUnreadable: 0 };
  const rescoreTopic = options.rescoreTopic === undefined ? defaults.rescoreTopic : options.rescoreTopic;
  const warn = options.onWarning ?? (() => undefined);

  // Missing topics are created as the service creates its outputs; the agreements topic compacted,
  // so a key is one record.
  await ensureTopics(options.kafka, [
    { topic: resultsTopic },
    { topic: feedbackTopic },
    { topic: agreementsTopic, config: { 'cleanup.policy': 'compact' } },
    { topic: deadLetterTopic },
    ...(rescoreTopic === null ? [] : [{ topic: rescoreTopic }]),
  ]);
  const producer = options.kafka.producer({ createPartitioner: keyPartitioner, idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();

  const readers: TopicReader[] = [];
  const stopAll = async () => {
    for (const reader of readers.splice(0)) await reader.stop();
    await producer.disconnect();
  };
  try {
    // 1. What was measured already: pairs from the window boundary before now − retention, so
    //    every window the ledger holds is whole.
    const windowMs = ledger.options.windowMs;
    const measuredSince = Math.floor((now() - ledger.options.retentionMs) / windowMs) * windowMs;
    const rebuild = await startTopicReader({
      kafka: options.kafka,
      topics: [agreementsTopic],
      sinceMs: measuredSince,
      groupPrefix: `${AGREEMENT_GROUP_PREFIX}-rebuild`,
      onWarning: warn,
      eachBatch: async (_topic, _partition, messages) => {
        for (const message of messages) {
          const record = readJson(message, parseAgreementRecord);
          if (record === undefined) counters.recordsUnreadable += message.value === null ? 0 : 1;
          else if (record.kind === 'pair') ledger.record(record, now());
        }
      },
    });
    readers.push(rebuild);
    await rebuild.caughtUp;
    await rebuild.stop();
    readers.splice(0);
    // The rebuilt windows are published again: a crash between a pair and its window's update left the window behind.
    const rebuilt = ledger.takeChangedWindows(new Date(now()).toISOString());
    await publish(producer, agreementsTopic, rebuilt);
    counters.windowsPublished += rebuilt.length;
  } catch (error) {
    await stopAll();
    throw error;
  }

  let refusalLogged = false;
  const publishPairs = async (pairs: JoinedPair[]) => {
    const records: AgreementRecord[] = [];
    const rescores: RescoreRequest[] = [];
    const measuredAt = new Date(now()).toISOString();
    for (const joined of pairs) {
      const pair = buildAgreementPair(joined, measuredAt, options.passThreshold);
      if (pair === undefined) {
        counters.feedbackUnlabelled += 1;
        continue;
      }
      const outcome = ledger.record(pair, now());
      if (outcome === 'same' || outcome === 'stale' || outcome === 'too_old') {
        counters.pairsRepeated += 1;
        continue;
      }
      records.push(pair);
      const request = rescoreTopic === null ? undefined : rescoreRequestFor(joined, pair, measuredAt);
      if (request === undefined) continue;
      if ('refused' in request) {
        counters.rescoresRefused += 1;
        if (!refusalLogged) warn(`a thread score disagrees with its feedback (scorer ${pair.scorerId}, thread ${pair.thread?.key ?? '?'}): thread scores are not re-scored on feedback, so none is asked; this and later ones are counted in scorestream.agreement.rescores{outcome=refused_thread_score} and logged only this once (docs/feedback.md, feedback on a thread)`);
        refusalLogged = true;
        continue;
      }
      rescores.push(request);
    }
    // Requests before their pairs: a pair on the agreements topic means its request was sent.
    if (rescoreTopic !== null && rescores.length > 0) {
      await producer.send({ topic: rescoreTopic, acks: -1, messages: rescores.map((request) => ({ ...recordKeyFor(request), value: JSON.stringify(request) })) });
      counters.rescoresRequested += rescores.length;
    }
    await publish(producer, agreementsTopic, records);
    counters.pairsPublished += records.length;
  };

  // 2. What is still pending, then live: feedback and scores from now − ttl.
  const live = await startTopicReader({
    kafka: options.kafka,
    topics: [feedbackTopic, resultsTopic],
    sinceMs: now() - join.options.ttlMs,
    groupPrefix: AGREEMENT_GROUP_PREFIX,
    onWarning: warn,
    eachBatch: async (topic, partition, messages) => {
      const pairs: JoinedPair[] = [];
      const deadLetters: { key: string; value: string }[] = [];
      for (const message of messages) {
        const atMs = Number(message.timestamp);
        if (topic === resultsTopic) {
          const record = readJson(message, parseScoreRecord);
          if (record === undefined) {
            counters.recordsUnreadable += message.value === null ? 0 : 1;
            continue;
          }
          counters.scoresRead += 1;
          if (record.rescore !== undefined) counters.rescoresRead += 1;
          if (record.status !== 'scored' || record.rescore !== undefined) continue;
          pairs.push(...join.addScore(joinScoreOf(record), atMs, now()));
          continue;
        }
        const decoded = decodeFeedbackRecord(message.value, { maxBytes: maxFeedbackBytes });
        if (!decoded.success) {
          const fitted = fitDeadLetter(
            {
              message: { key: message.key, value: message.value, headers: message.headers as Record<string, Buffer | string | undefined> },
              source: { topic, partition, offset: message.offset, timestamp: new Date(atMs).toISOString() },
              error: { code: decoded.code === 'oversized' ? 'oversized' : decoded.code, message: decoded.message, ...(decoded.problems.length === 0 ? {} : { problems: decoded.problems }) },
              now: new Date(now()),
            },
            AGREEMENT_JOIN_DEFAULTS.maxDeadLetterBytes,
          );
          counters.deadLettersByCode.set(decoded.code, (counters.deadLettersByCode.get(decoded.code) ?? 0) + 1);
          if (fitted !== undefined) deadLetters.push({ key: `${topic}:${partition}:${message.offset}`, value: fitted.json });
          else warn(`feedback at ${topic}[${partition}]@${message.offset} (${decoded.code}) could not be dead-lettered: not even its reason fits ${AGREEMENT_JOIN_DEFAULTS.maxDeadLetterBytes} bytes`);
          continue;
        }
        counters.feedbackRead += 1;
        const feedback = decoded.data;
        if (feedback.target.type === 'thread') counters.feedbackThreads += 1;
        pairs.push(...join.addFeedback(feedback, atMs, now()));
      }
      if (deadLetters.length > 0) await producer.send({ topic: deadLetterTopic, messages: deadLetters, acks: -1 });
      await publishPairs(pairs);
    },
  });
  readers.push(live);

  // Expiry, pruning and the windows' updates on a timer: O(state) work, not per message.
  let flushing = Promise.resolve();
  const flush = () => {
    flushing = flushing.then(async () => {
      join.expire(now());
      ledger.prune(now());
      const windows = ledger.takeChangedWindows(new Date(now()).toISOString());
      await publish(producer, agreementsTopic, windows);
      counters.windowsPublished += windows.length;
    }).catch((error: unknown) => warn(`publishing agreement windows failed (they are published at the next tick): ${error instanceof Error ? error.message : String(error)}`));
    return flushing;
  };
  const timer = setInterval(flush, options.flushIntervalMs ?? defaults.flushIntervalMs);
  timer.unref();
  const metrics =
    options.meter === undefined
      ? undefined
      : registerAgreementMetrics(options.meter, {
          latestWindows: () => ledger.latestWindows(),
          joinState: () => join.stats(),
          deadLettersByCode: counters.deadLettersByCode,
          rescores: () => ({ requested: counters.rescoresRequested, refused: counters.rescoresRefused }),
        });

  return {
    caughtUp: live.caughtUp,
    join,
    ledger,
    counters,
    async stop() {
      clearInterval(timer);
      metrics?.unregister();
      await live.stop();
      await flush();
      await producer.disconnect();
    },
  };
}

/** What the join keeps of a scored record: a run's with its run event's position (for a re-score), a thread's with its version. */
function joinScoreOf(record: ScoreRecord & { status: 'scored' }): JoinScore {
  const { thread } = record;
  return {
    scoreId: record.scoreId,
    runId: record.runId,
    scorerId: record.scorerId,
    scorerVersion: record.scorerVersion,
    score: record.score,
    verdict: record.verdict,
    entity: record.entity,
    metadata: record.metadata,
    ...(thread === undefined ? { source: record.source } : { thread: { id: thread.id, key: thread.key, version: thread.version, scoredAtMs: Date.parse(record.scoredAt) } }),
  };
}

async function publish(producer: Producer, topic: string, records: readonly AgreementRecord[]): Promise<void> {
  if (records.length === 0) return;
  await producer.send({ topic, acks: -1, messages: records.map((record) => ({ key: agreementRecordKey(record), value: JSON.stringify(record) })) });
}

function readJson<T>(message: KafkaMessage, parse: (value: unknown) => { success: true; data: T } | { success: false }): T | undefined {
  if (message.value === null) return undefined;
  try {
    const parsed = parse(JSON.parse(message.value.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

// `scorestream agreement`: the live feedback join (docs/feedback.md, the join). One reader, apart
// from the scoring service: it reads the feedback topic and the results topic, joins feedback to
// the scored records of the same run, and thread feedback to one version of each thread scorer's
// score of the same thread (either may arrive first; src/engine/agreement/feedback-join.ts),
// and publishes an AgreementRecord per (feedback, score) pair and, per scorer version and window,
// the window's κ, weighted κ, accuracy and confusion counts (src/engine/agreement/agreement-ledger.ts),
// to a compacted agreements topic keyed by agreementRecordKey — so a record published twice is
// one record in the compacted view. Bad feedback is dead-lettered with its reason. Everything it
// writes goes through the one emitter (role-output.ts): the deployment's redaction (a person's
// comment included), sizing (a comment of megabytes is cut, not refused) and refusal handling.
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
import pino from 'pino';
import type { Logger } from 'pino';
import { topicsSchema } from '../src/engine/config/config-schema.ts';
import { DEFAULTS } from '../src/engine/config/defaults.ts';
import { createDataHandling } from '../src/engine/data-handling/data-handling.ts';
import { redactionSchema } from '../src/engine/data-handling/redaction-schema.ts';
import type { RedactionSettings } from '../src/engine/data-handling/redaction-schema.ts';
import { parseAgreementRecord } from '../src/kit/contracts/parse.ts';
import { AgreementLedger } from '../src/engine/agreement/agreement-ledger.ts';
import type { AgreementLedgerOptions } from '../src/engine/agreement/agreement-ledger.ts';
import { FeedbackJoin } from '../src/engine/agreement/feedback-join.ts';
import type { FeedbackJoinOptions } from '../src/engine/agreement/feedback-join.ts';
import { createdBy, feedbackDeadLetterTopic, topologyOf } from '../src/engine/topology/topology.ts';
import type { Topology } from '../src/engine/topology/topology.ts';
import { registerAgreementMetrics } from '../otel/agreement-metrics.ts';
import { topicSpecsOf } from '../kafka/ensure-topics.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import type { RecordProducer } from '../kafka/kafka-transport.ts';
import { createAgreementPublishing, readJson } from './agreement-publishing.ts';
import type { AgreementJoinCounters } from './agreement-publishing.ts';
import { startRoleOutput } from './role-output.ts';
import type { RoleOutput } from './role-output.ts';
import { startTopicReader } from './topic-reader.ts';
import type { TopicReader } from './topic-reader.ts';

export type { AgreementJoinCounters } from './agreement-publishing.ts';

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
  rescoreTopic: topicsSchema.parse({}).rescore,
} as const;

export type AgreementJoinOptions = {
  /** The process's Kafka edge: its reads, admin and producer. */
  edge: KafkaEdge;
  feedbackTopic?: string;
  resultsTopic?: string;
  agreementsTopic?: string;
  /** Where re-scores are asked for (the service's `topics.rescore`; default `agent-runs-rescore`); null: never. Bad feedback goes to `{feedback}-dlq`. */
  rescoreTopic?: string | null;
  passThreshold?: number;
  flushIntervalMs?: number;
  maxFeedbackBytes?: number;
  /** What may leave the process: the deployment's `redaction` (default: the built-in patterns, docs/data-handling.md). */
  redaction?: RedactionSettings;
  /** No record it writes is larger (the deployment's `maxRecordBytes`). */
  maxRecordBytes?: number;
  /** Where its records go (default: an idempotent producer of the edge). */
  producer?: RecordProducer;
  /** Its emitter's warnings (a comment cut, a record refused) go here; default: warnings and errors to stderr. */
  logger?: Logger;
  now?: () => number;
  /** The agreement metrics (otel/agreement-metrics.ts) go here; none without one. */
  meter?: Meter;
  onWarning?: (message: string) => void;
} & Partial<FeedbackJoinOptions> & Partial<AgreementLedgerOptions>;

export type AgreementJoin = {
  /** Resolves once both phases of the rebuild reached where the topics stood at start. */
  readonly caughtUp: Promise<void>;
  readonly join: FeedbackJoin;
  readonly ledger: AgreementLedger;
  readonly counters: AgreementJoinCounters;
  /** What its emitter counted: records cut to fit, refused, dropped; publish retries. */
  readonly output: RoleOutput['stats'];
  stop(): Promise<void>;
};

/** The join's topology: its topics under the names it was given (src/engine/topology/). */
function joinTopology(options: AgreementJoinOptions): Topology {
  const rescoreTopic = options.rescoreTopic === undefined ? AGREEMENT_JOIN_DEFAULTS.rescoreTopic : options.rescoreTopic;
  const names = topicsSchema.parse({
    ...(options.feedbackTopic === undefined ? {} : { feedback: options.feedbackTopic }),
    ...(options.resultsTopic === undefined ? {} : { results: options.resultsTopic }),
    ...(options.agreementsTopic === undefined ? {} : { agreements: options.agreementsTopic }),
    ...(rescoreTopic === null ? {} : { rescore: rescoreTopic }),
  });
  return topologyOf({ topics: names, retries: { enabled: false, delaysMs: [] }, threads: false, rescore: false, rescoreRequests: rescoreTopic !== null });
}

export async function startAgreementJoin(options: AgreementJoinOptions): Promise<AgreementJoin> {
  const defaults = AGREEMENT_JOIN_DEFAULTS;
  const now = options.now ?? Date.now;
  const topology = joinTopology(options);
  const { feedback: feedbackTopic, results: resultsTopic, agreements: agreementsTopic } = topology.names;
  const join = new FeedbackJoin({ ttlMs: options.ttlMs ?? defaults.ttlMs, maxRuns: options.maxRuns ?? defaults.maxRuns, maxPerRun: options.maxPerRun ?? defaults.maxPerRun });
  const ledger = new AgreementLedger({
    windowMs: options.windowMs ?? defaults.windowMs,
    retentionMs: Math.max(options.retentionMs ?? defaults.retentionMs, join.options.ttlMs),
    maxPairs: options.maxPairs ?? defaults.maxPairs,
    maxWindows: options.maxWindows ?? defaults.maxWindows,
  });
  const counters: AgreementJoinCounters = { feedbackRead: 0, scoresRead: 0, pairsPublished: 0, pairsRepeated: 0, feedbackUnlabelled: 0, feedbackThreads: 0, windowsPublished: 0, rescoresRequested: 0, rescoresRefused: 0, rescoresRead: 0, deadLettersByCode: new Map(), recordsUnreadable: 0 };
  const warn = options.onWarning ?? (() => undefined);

  // Missing topics are created as the service creates its outputs (the agreements topic compacted, so a key is one record).
  await options.edge.admin.createTopics(topicSpecsOf(topology, createdBy(topology, 'agreement')));
  const output = await startRoleOutput({
    producer: options.producer ?? options.edge.producer(),
    topology,
    handling: createDataHandling({ evidence: 'full', redaction: options.redaction ?? redactionSchema.parse({}), scorers: [] }),
    maxRecordBytes: options.maxRecordBytes ?? DEFAULTS.maxRecordBytes,
    deadLetterTopic: feedbackDeadLetterTopic(feedbackTopic),
    logger: options.logger ?? pino({ level: 'warn' }, pino.destination(2)),
    now,
  });
  const publishing = createAgreementPublishing({ output, join, ledger, counters, topics: { feedback: feedbackTopic, results: resultsTopic }, rescores: topology.entries.some((entry) => entry.id === 'rescore'), passThreshold: options.passThreshold, maxFeedbackBytes: options.maxFeedbackBytes ?? defaults.maxFeedbackBytes, now, warn });

  let rebuild: TopicReader | undefined;
  try {
    // 1. What was measured already: pairs from the window boundary before now − retention, so
    //    every window the ledger holds is whole.
    const windowMs = ledger.options.windowMs;
    const measuredSince = Math.floor((now() - ledger.options.retentionMs) / windowMs) * windowMs;
    rebuild = await startTopicReader({
      edge: options.edge,
      topics: [agreementsTopic],
      sinceMs: measuredSince,
      onWarning: warn,
      eachBatch: async (_topic, _partition, messages) => {
        for (const message of messages) {
          const record = readJson(message, parseAgreementRecord);
          if (record === undefined) counters.recordsUnreadable += message.value === null ? 0 : 1;
          else if (record.kind === 'pair') ledger.record(record, now());
        }
      },
    });
    await rebuild.caughtUp;
    await rebuild.stop();
    // The rebuilt windows are published again: a crash between a pair and its window's update left the window behind.
    await publishing.windows();
  } catch (error) {
    await rebuild?.stop();
    await output.close();
    throw error;
  }

  // 2. What is still pending, then live: feedback and scores from now − ttl.
  const live = await startTopicReader({
    edge: options.edge,
    topics: [feedbackTopic, resultsTopic],
    sinceMs: now() - join.options.ttlMs,
    onWarning: warn,
    eachBatch: (topic, partition, messages) => publishing.batch(topic, partition, messages),
  }).catch(async (error: unknown) => {
    await output.close();
    throw error;
  });

  // Expiry, pruning and the windows' updates on a timer: O(state) work, not per message.
  let flushing = Promise.resolve();
  const flush = () => {
    flushing = flushing
      .then(async () => {
        join.expire(now());
        ledger.prune(now());
        await publishing.windows();
      })
      .catch((error: unknown) => warn(`publishing agreement windows failed (they are published at the next tick): ${error instanceof Error ? error.message : String(error)}`));
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
    output: output.stats,
    async stop() {
      clearInterval(timer);
      metrics?.unregister();
      await live.stop();
      await flush();
      await output.close();
    },
  };
}

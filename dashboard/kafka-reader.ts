// Feeds the dashboard from Kafka: the results topic and, when there are, the decisions and the
// agreements topics, from `sinceMs` on; and the latest-score view of thread scores
// (`{runs}-thread-scores`, docs/threads.md) from its beginning — it is compacted to each thread's
// latest score per scorer, so the threads view shows every thread's current scores however old,
// while its history comes from the results topic's look-back (the topology's `view` of each topic,
// src/engine/topology/). Every topic is followed live after. It reads group-less
// (kafka/read-range.ts): every partition, nothing committed, no group to join, grant or delete.
// Reads only committed transactions; records of aborted ones that still slip through after a crash
// are counted once by their scoreId (DashboardState).
import { parseAgreementRecord, parseDecisionRecord, parseScoreRecord } from '../src/kit/contracts/parse.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import type { RangeRead } from '../kafka/read-range.ts';
import type { DashboardState } from './dashboard-state.ts';

export type KafkaReaderOptions = {
  edge: Pick<KafkaEdge, 'readRange' | 'admin'>;
  resultsTopic: string;
  decisionsTopic?: string | undefined;
  /** The agreements topic of the feedback view; a missing one is skipped and the view says so. */
  agreementsTopic?: string | undefined;
  /** The latest-score view of thread scores, read whole; a missing one is skipped (no thread scorer has run). */
  latestScoresTopic?: string | undefined;
  sinceMs: number;
  state: DashboardState;
  /** Told about a topic that does not exist (it is skipped) and other recoverable trouble. */
  onWarning?: (message: string) => void;
};

export type KafkaReader = {
  /** Resolves once every partition was read up to where it stood when the reader started. */
  readonly caughtUp: Promise<void>;
  stop(): Promise<void>;
};

/** JSON of a message, or undefined (counted as invalid) when it is not JSON; tombstones are skipped. */
function jsonOf(message: ConsumedMessage, state: DashboardState): unknown {
  if (message.value === null) return undefined;
  try {
    return JSON.parse(message.value.toString('utf8'));
  } catch {
    state.countInvalid();
    return undefined;
  }
}

export async function startKafkaReader(options: KafkaReaderOptions): Promise<KafkaReader> {
  const { edge, state } = options;
  const agreements = options.agreementsTopic;
  const latestScores = options.latestScoresTopic;
  // Topics that may be missing without a warning: each is made by a component that may not run.
  const optional = new Set([agreements, latestScores]);
  const existing = new Set(await edge.admin.listTopics());
  if (agreements !== undefined) state.setAgreementsSource({ topic: agreements, state: existing.has(agreements) ? 'reading' : 'missing' });
  const topics: string[] = [];
  for (const topic of [options.resultsTopic, options.decisionsTopic, agreements, latestScores]) {
    if (topic === undefined) continue;
    // A missing agreements topic means no feedback join (scorestream agreement) has run: the feedback view says so.
    // A missing latest-score view means no thread scorer has run: the results' look-back is all there is.
    if (existing.has(topic)) topics.push(topic);
    else if (!optional.has(topic)) options.onWarning?.(`topic '${topic}' does not exist (yet); the dashboard does not read it — restart the dashboard once it exists`);
  }
  if (topics.every((topic) => optional.has(topic))) {
    throw new Error(`none of the topics exist (${[options.resultsTopic, options.decisionsTopic].filter(Boolean).join(', ')}): start the service (or the demo) first, or pass --topic/--decisions-topic`);
  }
  const ingest = (topic: string, message: ConsumedMessage) => {
    const value = jsonOf(message, state);
    if (value === undefined) return;
    if (topic === options.resultsTopic) {
      const parsed = parseScoreRecord(value);
      if (parsed.success) state.ingestScore(parsed.data, message.value!.length);
      else state.countInvalid();
    } else if (topic === latestScores) {
      const parsed = parseScoreRecord(value);
      if (parsed.success) state.ingestLatestScore(parsed.data);
      else state.countInvalid();
    } else if (topic === agreements) {
      const parsed = parseAgreementRecord(value);
      if (parsed.success) state.ingestAgreement(parsed.data);
      else state.countInvalid();
    } else {
      const parsed = parseDecisionRecord(value);
      if (parsed.success) state.ingestDecision(parsed.data);
      else state.countInvalid();
    }
  };
  // The view is read whole (what compaction kept of it); every other topic from the look-back on.
  const reads: RangeRead[] = topics.map((topic) =>
    edge.readRange({
      topics: [topic],
      from: topic === latestScores ? 'beginning' : { timestampMs: options.sinceMs },
      until: 'follow',
      onBatch: (_topic, _partition, messages) => {
        for (const message of messages) ingest(topic, message);
      },
      ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    }),
  );
  for (const read of reads) read.done.catch((error: unknown) => options.onWarning?.(`the dashboard's reader failed: ${error instanceof Error ? error.message : String(error)}`));
  const caughtUp = Promise.all(reads.map((read) => read.caughtUp)).then(() => undefined);
  caughtUp.catch(() => undefined);
  return {
    caughtUp,
    async stop() {
      await Promise.all(reads.map((read) => read.stop()));
    },
  };
}

// Feeds the dashboard from Kafka: the results topic and, when there are, the decisions and the
// agreements topics, from `sinceMs` on; and the latest-score view of thread scores
// (`{runs}-thread-scores`, docs/threads.md) from its beginning — it is compacted to each thread's
// latest score per scorer, so the threads view shows every thread's current scores however old,
// while its history comes from the results topic's look-back. Every topic is followed live after.
// It reads in a consumer group of its own (unique per process, since every
// dashboard needs every partition), seeking each partition to the offset for that timestamp (the
// view's: its first); it never commits, and deletes the group when it stops. Reads only
// committed transactions; records of aborted ones that still slip through after a crash are
// counted once by their scoreId (DashboardState).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kafka } from 'kafkajs';
import { parseAgreementRecord, parseDecisionRecord, parseScoreRecord } from '../src/kit/contracts/parse.ts';
import type { DashboardState } from './dashboard-state.ts';
import { DASHBOARD_GROUP_PREFIX } from '../kafka/acl-roles.ts';
import { whileLeadersSettle } from '../kafka/while-leaders-settle.ts';

export type KafkaReaderOptions = {
  kafka: Kafka;
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
  readonly groupId: string;
  /** Resolves once every partition was read up to where it stood when the reader started. */
  readonly caughtUp: Promise<void>;
  stop(): Promise<void>;
};

export async function startKafkaReader(options: KafkaReaderOptions): Promise<KafkaReader> {
  const { kafka, state } = options;
  const groupId = `${DASHBOARD_GROUP_PREFIX}-${hostname().replace(/[^A-Za-z0-9._-]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const admin = kafka.admin();
  await admin.connect();
  const topics: string[] = [];
  // Where each partition stood at start: caught up once a batch reaches it.
  const pending = new Map<string, bigint>();
  const starts: { topic: string; partition: number; offset: string }[] = [];
  const agreements = options.agreementsTopic;
  const latestScores = options.latestScoresTopic;
  // Topics that may be missing without a warning: each is made by a component that may not run.
  const optional = new Set([agreements, latestScores]);
  try {
    const existing = new Set(await admin.listTopics());
    if (agreements !== undefined) state.setAgreementsSource({ topic: agreements, state: existing.has(agreements) ? 'reading' : 'missing' });
    for (const topic of [options.resultsTopic, options.decisionsTopic, agreements, latestScores]) {
      if (topic === undefined) continue;
      if (!existing.has(topic)) {
        // A missing agreements topic means no feedback join (scorestream agreement) has run: the feedback view says so.
        // A missing latest-score view means no thread scorer has run: the results' look-back is all there is.
        if (!optional.has(topic)) options.onWarning?.(`topic '${topic}' does not exist (yet); the dashboard does not read it — restart the dashboard once it exists`);
        continue;
      }
      const highs = await whileLeadersSettle(() => admin.fetchTopicOffsets(topic));
      // The view is read whole (what compaction kept of it); every other topic from the look-back on.
      const from = topic === latestScores ? highs.map(({ partition, low }) => ({ partition, offset: low })) : await whileLeadersSettle(() => admin.fetchTopicOffsetsByTimestamp(topic, options.sinceMs));
      for (const { partition, offset } of from) starts.push({ topic, partition, offset });
      for (const { partition, high } of highs) {
        const start = BigInt(from.find((entry) => entry.partition === partition)?.offset ?? high);
        if (BigInt(high) > start) pending.set(`${topic}\u0000${partition}`, BigInt(high));
      }
      topics.push(topic);
    }
  } catch (error) {
    await admin.disconnect();
    throw error;
  }
  if (topics.every((topic) => optional.has(topic))) {
    await admin.disconnect();
    throw new Error(`none of the topics exist (${[options.resultsTopic, options.decisionsTopic].filter(Boolean).join(', ')}): start the service (or the demo) first, or pass --topic/--decisions-topic`);
  }

  let markCaughtUp!: () => void;
  const readToStart = new Promise<void>((resolve) => (markCaughtUp = resolve));
  if (pending.size === 0) markCaughtUp();

  const consumer = kafka.consumer({ groupId, readUncommitted: false, maxWaitTimeInMs: 250, allowAutoTopicCreation: false });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: false });
  // Not awaited: joining the group takes seconds (the broker's initial rebalance delay), and the
  // page can open meanwhile and fill in as the records arrive.
  const running = consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const message of batch.messages) {
        if (message.value === null) continue;
        let value: unknown;
        try {
          value = JSON.parse(message.value.toString('utf8'));
        } catch {
          state.countInvalid();
          continue;
        }
        if (batch.topic === options.resultsTopic) {
          const parsed = parseScoreRecord(value);
          if (parsed.success) state.ingestScore(parsed.data, message.value.length);
          else state.countInvalid();
        } else if (batch.topic === latestScores) {
          const parsed = parseScoreRecord(value);
          if (parsed.success) state.ingestLatestScore(parsed.data);
          else state.countInvalid();
        } else if (batch.topic === agreements) {
          const parsed = parseAgreementRecord(value);
          if (parsed.success) state.ingestAgreement(parsed.data);
          else state.countInvalid();
        } else {
          const parsed = parseDecisionRecord(value);
          if (parsed.success) state.ingestDecision(parsed.data);
          else state.countInvalid();
        }
      }
      const key = `${batch.topic}\u0000${batch.partition}`;
      const target = pending.get(key);
      if (target !== undefined && BigInt(batch.lastOffset()) + 1n >= target) {
        pending.delete(key);
        if (pending.size === 0) markCaughtUp();
      }
    },
  });

  // Seeking right after run() (kafkajs applies it when the partition is first fetched) rather
  // than committing start offsets: admin.setOffsets joins the group itself, seconds more.
  for (const start of starts) consumer.seek(start);
  running.catch((error: unknown) => options.onWarning?.(`the dashboard's Kafka consumer failed: ${error instanceof Error ? error.message : String(error)}`));
  return {
    groupId,
    caughtUp: running.then(() => readToStart),
    async stop() {
      await running.catch(() => undefined);
      await consumer.disconnect();
      // The group existed only for this process; leave nothing behind on the broker.
      await admin.deleteGroups([groupId]).catch(() => undefined);
      await admin.disconnect();
    },
  };
}

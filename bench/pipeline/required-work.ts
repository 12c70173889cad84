// Scenario (m): the work (c) is required to do, and nothing else, written by hand on the shipped
// client — the floor of (c) measured as a pipeline, with the broker, the client and V8's garbage
// collector sharing the machine as they do under the service. Each message, as it arrives:
// UTF-8 + JSON.parse + the contract's validation (decodeAgentRunEvent), its W3C traceparent read,
// the three scorers' run(), and per scorer the contract's score record (buildScoreRecord: its
// deterministic score id, trace fields, steps) as JSON. The records go out as the service's do: an
// idempotent producer with acks from every in-sync replica, one request in flight of at most
// 1,000 records and 900 kB, keyed by score id; once a request is acknowledged, the offsets of
// the messages whose records it carried are committed. What (c) does beyond this: eligibility and
// sampling, the data handling (redaction, evidence levels), fitting records to maxRecordBytes,
// the loop guard's header, at-least-once bookkeeping per message (run slots, in-order commits
// across a partition's messages), dead letters, retries, stats, the no-op trace context.
import { Consumer, MessagesStreamModes, ProduceAcks, Producer } from '@platformatic/kafka';
import type { Message } from '@platformatic/kafka';
import type { ScorerLike } from '../../src/config/config-types.ts';
import type { Source } from '../../src/contracts/common.ts';
import { decodeAgentRunEvent } from '../../src/contracts/parse.ts';
import { isoTime } from '../../src/contracts/iso-time.ts';
import type { RunTraceFacts } from '../../src/pipeline/run-facts.ts';
import { collectRunFacts } from '../../src/pipeline/run-facts.ts';
import { buildScoreRecord } from '../../src/pipeline/build-score-record.ts';
import { buildScorerInput } from '../../src/pipeline/scorer-input.ts';
import type { Throughput } from './measurement.ts';
import { measureRate } from './measurement.ts';
import type { PlatformaticScenario } from './platformatic-passthrough.ts';
import type { ScenarioSize } from './passthrough.ts';

const maxRecordsPerRequest = 1_000;
const maxBytesPerRequest = 900_000;
/** Messages taken and not yet acknowledged: past the first the stream pauses, below the second it resumes (three requests' worth, so the producer never waits for work). */
const pauseAt = 1_000;
const resumeBelow = 500;

type Scored = { topic: string; partition: number; offset: bigint; leaderEpoch: number; records: { key: string; value: string }[] };

/** `00-{trace id}-{span id}-{flags}`, the W3C form the benchmark's events carry; none when malformed. */
function traceFactsOf(traceparent: string | undefined): RunTraceFacts {
  const parts = traceparent?.split('-');
  if (parts === undefined || parts.length !== 4 || parts[1]!.length !== 32 || parts[2]!.length !== 16) return {};
  return { traceId: parts[1]!, spanId: parts[2]!, sampled: (Number.parseInt(parts[3]!, 16) & 1) === 1 };
}

function traceparentOf(message: Message<Buffer, Buffer, Buffer, Buffer>): string | undefined {
  for (const [key, value] of message.headers) if (key.toString() === 'traceparent') return value.toString();
  return undefined;
}

/** One message's required work: a score record per scorer as JSON, keyed by its score id (the benchmark's events are all valid). */
export async function requiredRecords(value: Buffer | null, traceparent: string | undefined, source: Source, scorers: readonly ScorerLike[]): Promise<{ key: string; value: string }[]> {
  const decoded = decodeAgentRunEvent(value);
  if (!decoded.success) throw new Error(`benchmark event at offset ${source.offset} does not decode: ${decoded.message}`);
  const trace = traceFactsOf(traceparent);
  const facts = collectRunFacts(decoded.data, source, trace);
  const input = buildScorerInput(facts);
  const records: { key: string; value: string }[] = [];
  for (const scorer of scorers) {
    const started = Date.now();
    const result = (await scorer.run(input)) as Record<string, unknown> & { score: number };
    const finished = Date.now();
    const record = buildScoreRecord({
      scorerId: scorer.id,
      facts,
      outcome: { status: 'scored', score: result.score, result },
      ...(trace.traceId === undefined ? {} : { trace: { traceId: trace.traceId, ...(trace.spanId === undefined ? {} : { parentSpanId: trace.spanId }) } }),
      scoredAt: isoTime(finished),
      durationMs: finished - started,
    });
    records.push({ key: record.scoreId, value: JSON.stringify(record) });
  }
  return records;
}

async function score(message: Message<Buffer, Buffer, Buffer, Buffer>, scorers: readonly ScorerLike[]): Promise<Scored> {
  const source = { topic: message.topic, partition: message.partition, offset: String(message.offset) };
  const records = await requiredRecords(message.value, traceparentOf(message), source, scorers);
  return { topic: message.topic, partition: message.partition, offset: message.offset, leaderEpoch: message.leaderEpoch, records };
}

export async function runRequiredWork(options: PlatformaticScenario & ScenarioSize & { scorers: readonly ScorerLike[] }): Promise<Throughput> {
  const connection = { clientId: 'scorestream-bench-m', bootstrapBrokers: options.brokers };
  const producer = new Producer({ ...connection, idempotent: true, acks: ProduceAcks.ALL, autocreateTopics: false });
  const consumer = new Consumer({ ...connection, groupId: options.groupId, autocommit: false });
  let acknowledged = 0;
  let unacknowledged = 0;
  let scored: Scored[] = [];
  let sending = false;
  let failure: unknown;
  // Messages are scored one after another in arrival order, so a request's offsets are each partition's next.
  let scoring = Promise.resolve();

  const sendScored = async () => {
    if (sending || scored.length === 0 || failure !== undefined) return;
    sending = true;
    let records = 0;
    let bytes = 0;
    let count = 0;
    for (; count < scored.length; count += 1) {
      const next = scored[count]!.records;
      const nextBytes = next.reduce((sum, record) => sum + Buffer.byteLength(record.value), 0);
      if (count > 0 && (records + next.length > maxRecordsPerRequest || bytes + nextBytes > maxBytesPerRequest)) break;
      records += next.length;
      bytes += nextBytes;
    }
    const batch = scored.slice(0, count);
    scored = scored.slice(count);
    try {
      await producer.send({ messages: batch.flatMap((event) => event.records.map((record) => ({ topic: options.outputTopic, key: Buffer.from(record.key), value: Buffer.from(record.value) }))), acks: ProduceAcks.ALL });
      const last = new Map<string, { topic: string; partition: number; offset: bigint; leaderEpoch: number }>();
      for (const event of batch) last.set(`${event.topic}:${event.partition}`, { topic: event.topic, partition: event.partition, offset: event.offset + 1n, leaderEpoch: event.leaderEpoch });
      await consumer.commit({ offsets: [...last.values()] });
      acknowledged += batch.length;
      unacknowledged -= batch.length;
      if (stream.isPaused() && unacknowledged < resumeBelow) stream.resume();
    } catch (error) {
      failure = error;
    } finally {
      sending = false;
      if (scored.length > 0) setImmediate(() => void sendScored());
    }
  };

  const stream = await consumer.consume({ topics: [options.inputTopic], mode: MessagesStreamModes.COMMITTED, fallbackMode: 'earliest', autocommit: false });
  stream.on('data', (message) => {
    unacknowledged += 1;
    if (unacknowledged >= pauseAt) stream.pause();
    scoring = scoring.then(async () => {
      if (failure !== undefined) return;
      try {
        scored.push(await score(message, options.scorers));
      } catch (error) {
        failure = error;
      }
      if (!sending) setImmediate(() => void sendScored());
    });
  });
  try {
    return await measureRate({
      ...options,
      completed: () => {
        if (failure !== undefined) throw failure;
        return acknowledged;
      },
      what: '(m) the required work on the shipped client',
    });
  } finally {
    await stream.close().catch(() => undefined);
    await consumer.close(true);
    await producer.close(true);
  }
}

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
import type { ScorerLike } from '../../src/engine/config/config-types.ts';
import type { Source } from '../../src/kit/contracts/common.ts';
import { decodeAgentRunEvent } from '../../src/kit/contracts/parse.ts';
import { isoTime } from '../../src/kit/contracts/iso-time.ts';
import type { RunTraceFacts } from '../../src/engine/pipeline/run-facts.ts';
import { collectRunFacts } from '../../src/engine/pipeline/run-facts.ts';
import { buildScoreRecord } from '../../src/engine/pipeline/build-score-record.ts';
import { buildScorerInput } from '../../src/engine/pipeline/scorer-input.ts';
import type { Throughput } from './measurement.ts';
import { runPlatformaticLoop } from './platformatic-passthrough.ts';
import type { ConsumedMessage, PlatformaticScenario } from './platformatic-passthrough.ts';
import type { ScenarioSize } from './passthrough.ts';

/** Messages taken and not yet acknowledged before the stream pauses: three requests' worth of records, so the producer never waits for work (the service takes 256). */
const maxUnacknowledged = 1_000;

/** `00-{trace id}-{span id}-{flags}`, the W3C form the benchmark's events carry; none when malformed. */
function traceFactsOf(traceparent: string | undefined): RunTraceFacts {
  const parts = traceparent?.split('-');
  if (parts === undefined || parts.length !== 4 || parts[1]!.length !== 32 || parts[2]!.length !== 16) return {};
  return { traceId: parts[1]!, spanId: parts[2]!, sampled: (Number.parseInt(parts[3]!, 16) & 1) === 1 };
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
    const result = await scorer.run(input);
    const finished = Date.now();
    // A run a scorer cannot score (a sample run without the part it needs) gets its not_scorable record, as in the service.
    const outcome = result.notScorable === undefined ? { status: 'scored' as const, score: result.score, result } : { status: 'not_scorable' as const, notScorable: result.notScorable, result };
    const record = buildScoreRecord({
      scorerId: scorer.id,
      facts,
      outcome,
      ...(trace.traceId === undefined ? {} : { trace: { traceId: trace.traceId, ...(trace.spanId === undefined ? {} : { parentSpanId: trace.spanId }) } }),
      scoredAt: isoTime(finished),
      durationMs: finished - started,
    });
    records.push({ key: record.scoreId, value: JSON.stringify(record) });
  }
  return records;
}

function traceparentOf(message: ConsumedMessage): string | undefined {
  for (const [key, value] of message.headers) if (key.toString() === 'traceparent') return value.toString();
  return undefined;
}

export function runRequiredWork(options: PlatformaticScenario & ScenarioSize & { scorers: readonly ScorerLike[] }): Promise<Throughput> {
  return runPlatformaticLoop({
    ...options,
    what: '(m) the required work on the shipped client',
    clientId: 'scorestream-bench-m',
    idempotent: true,
    maxUnacknowledged,
    recordsOf: async (message) => {
      const source = { topic: message.topic, partition: message.partition, offset: String(message.offset) };
      const records = await requiredRecords(message.value, traceparentOf(message), source, options.scorers);
      return records.map((record) => ({ key: Buffer.from(record.key), value: Buffer.from(record.value) }));
    },
  });
}

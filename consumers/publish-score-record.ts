// Score → publish: each score record goes out as soon as its scorer finished (a fast scorer's
// record does not wait for a slow judge), keyed by its scoreId and partitioned by run id
// (recordKeyFor, src/contracts/record-key.ts: safe under compaction), serialised with the fallback for
// results that cannot be written (serialize-score-record.ts) and published until acknowledged.
// Only then is it counted, and the event-to-result latency recorded. On its way out the record gets
// its binding's evidence level and its redaction (dataHandlingOf, src/data-handling/: the one call
// that does, docs/data-handling.md).
import type { Source } from '../src/contracts/common.ts';
import { recordKeyFor } from '../src/contracts/record-key.ts';
import { dataHandlingOf } from '../src/data-handling/data-handling.ts';
import type { ScoreRecord } from '../src/contracts/score-record.ts';
import { originHeaders } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import { publishUntilAcknowledged } from './publish-until-acknowledged.ts';
import type { MessageOutput } from './record-sink.ts';
import { serializeScoreRecord } from './serialize-score-record.ts';

/** `eventTime`: the run event's timestamp in ms (NaN when unreadable: then no latency is recorded). */
export async function publishScoreRecord(record: ScoreRecord, eventTime: number, source: Source, output: MessageOutput, context: MessageContext): Promise<void> {
  // A replay marks every record it publishes (service/replay.ts), whichever path scored it.
  const marked = dataHandlingOf(context.config).scoreRecord(context.replay === undefined ? record : { ...record, replay: context.replay });
  const outgoing = { topic: context.config.topics.results, ...recordKeyFor(record), value: serializeScoreRecord(marked), headers: originHeaders };
  await publishUntilAcknowledged(output, [outgoing], source, context);
  context.stats.countRecord(marked);
  if (Number.isFinite(eventTime)) {
    const latencyMs = context.now() - eventTime;
    context.stats.recordLatency(latencyMs);
    context.recordLatency?.(latencyMs, marked);
  }
}

// Decision records: one per scorer binding that skipped the run (its filter, sampling, an
// unsampled trace). When a decisions topic is configured they are published together, until
// acknowledged, after the run's score records; either way each skip is counted by its reason.
import type { DecisionRecord } from '../src/contracts/decision-record.ts';
import type { Source } from '../src/contracts/common.ts';
import { originHeaders } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import { publishUntilAcknowledged } from './publish-until-acknowledged.ts';
import type { MessageOutput } from './record-sink.ts';

export async function publishDecisionRecords(decisions: readonly DecisionRecord[], source: Source, output: MessageOutput, context: MessageContext): Promise<void> {
  if (decisions.length === 0) return;
  const topic = context.config.topics.decisions;
  if (topic !== undefined) {
    const records = decisions.map((decision) => ({ topic, key: decision.runId, value: JSON.stringify(decision), headers: originHeaders }));
    await publishUntilAcknowledged(output, records, source, context);
  }
  for (const decision of decisions) context.stats.countSkip(decision.reason);
}

// Decision records: one per scorer binding that skipped the run (its filter, sampling, an
// unsampled trace). Each skip is counted by its reason; when a decisions topic is configured the
// records are also published together, until acknowledged, after the run's score records, keyed
// like score records (recordKeyFor: one per pair under compaction, partitioned by run id).
import type { DecisionRecord } from '../src/contracts/decision-record.ts';
import type { Source } from '../src/contracts/common.ts';
import { recordKeyFor } from '../src/contracts/record-key.ts';
import { dataHandlingOf } from '../src/data-handling/data-handling.ts';
import { originHeaders } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import { publishUntilAcknowledged } from './publish-until-acknowledged.ts';
import type { MessageOutput } from './record-sink.ts';

/** Counts each skip; without a decisions topic that is all, so the caller need not await. */
export function countDecisions(decisions: readonly DecisionRecord[], context: Pick<MessageContext, 'stats'>): void {
  for (const decision of decisions) {
    context.stats.countSkip(decision.reason);
    if (decision.budget !== undefined) context.stats.countBudgetExhausted(decision.budget.name);
  }
}

/** Publishes the decisions until acknowledged (the decisions topic must be configured), then counts them. */
export async function publishDecisionRecords(decisions: readonly DecisionRecord[], topic: string, source: Source, output: MessageOutput, context: MessageContext): Promise<void> {
  // A replay marks every record it publishes (service/replay.ts), whichever path decided it.
  const replay = context.replay;
  // Redacted on the way out (docs/data-handling.md): a predicate's error message may quote the run.
  const handling = dataHandlingOf(context.config);
  const records = decisions.map((decision) => ({ topic, ...recordKeyFor(decision), value: JSON.stringify(handling.decisionRecord(replay === undefined ? decision : { ...decision, replay })), headers: originHeaders }));
  await publishUntilAcknowledged(output, records, source, context);
  countDecisions(decisions, context);
}

// Keeps this instance's share of every judge budget right in a consumer group: on every
// assignment (each join after a rebalance) the share becomes the partitions of the runs topic this
// instance owns / the topic's partitions, so instances that split the partitions split each budget
// the same way (docs/spend-and-replay.md). The topic's partition count is read at start and
// again on every assignment, as partitions may have been added.
import type { KafkaAdmin } from '../kafka/kafka-admin.ts';
import type { Logger } from 'pino';
import type { BudgetLedger } from '../src/engine/budget/budget-ledger.ts';

export type BudgetShareTracker = {
  /** For the scoring consumer's `onAssignment`. */
  assigned(assignment: Record<string, number[] | undefined>): void;
};

export async function trackBudgetShare(admin: Pick<KafkaAdmin, 'partitionCount'>, ledger: BudgetLedger, topic: string, logger: Logger): Promise<BudgetShareTracker> {
  const partitionCount = async (): Promise<number> => (await admin.partitionCount(topic)) ?? 0;
  // A runs topic that does not exist yet has no partitions to share; the first assignment reads again.
  let total = await partitionCount().catch((error: unknown) => {
    logger.warn({ err: error, topic }, 'judge budgets: could not read the runs topic’s partition count yet; reading it again at the first assignment');
    return 0;
  });
  let owned = 0;
  const apply = () => {
    ledger.setShare(total === 0 ? 0 : owned / total);
    logger.info({ ownedPartitions: owned, topicPartitions: total, share: ledger.share }, 'judge budgets: this instance enforces its share');
  };
  // Before the first assignment nothing is consumed; the share is 0 so nothing could be spent.
  ledger.setShare(0);
  return {
    assigned(assignment) {
      owned = assignment[topic]?.length ?? 0;
      // Until the count is known, owning partitions means at least owning them all (a share of 1
      // at most); the count read below corrects it.
      if (total < owned) total = owned;
      apply();
      partitionCount().then(
        (count) => {
          if (count !== total) {
            total = count;
            apply();
          }
        },
        (error: unknown) => logger.warn({ err: error }, 'judge budgets: could not re-read the runs topic’s partition count; keeping the last one'),
      );
    },
  };
}

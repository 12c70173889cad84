import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createBudgetLedger } from '../../../src/engine/budget/budget-ledger.ts';
import { budgetSchema } from '../../../src/engine/budget/budget-schema.ts';
import { trackBudgetShare } from '../../../service/budget-share.ts';
import type { KafkaAdmin } from '../../../kafka/kafka-admin.ts';

/** An admin that answers the topic's partition count from `counts`, in order (an Error rejects). */
function kafkaAnswering(counts: (number | Error)[]): Pick<KafkaAdmin, 'partitionCount'> {
  return {
    partitionCount: async () => {
      const next = counts.shift();
      if (next === undefined || next instanceof Error) throw next ?? new Error('no more answers');
      return next;
    },
  };
}

const ledger = () => createBudgetLedger([budgetSchema.parse({ name: 'runs', of: 'runs', max: 12, window: 'minute' })], () => 0);

describe('each instance’s share of the budgets', () => {
  it('is 0 before the first assignment, then owned / topic partitions on every assignment', async () => {
    const budgets = ledger();
    const tracker = await trackBudgetShare(kafkaAnswering([6, 6, 6]), budgets, 'agent-runs', pino({ level: 'silent' }));
    expect(budgets.share).toBe(0);
    tracker.assigned({ 'agent-runs': [0, 1] });
    expect(budgets.share).toBeCloseTo(1 / 3, 12);
    tracker.assigned({ 'agent-runs': [0, 1, 2, 3, 4, 5] });
    expect(budgets.share).toBe(1);
  });

  it('copes with a runs topic that does not exist yet: the count is read again at the first assignment', async () => {
    const budgets = ledger();
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const tracker = await trackBudgetShare(kafkaAnswering([new Error('This server does not host this topic-partition'), 4]), budgets, 'agent-runs', logger);
    expect(warnings.join('')).toMatch(/could not read the runs topic/);
    tracker.assigned({ 'agent-runs': [0, 1] });
    expect(budgets.share).toBe(1); // owned 2 of at least 2, until the count arrives
    await expect.poll(() => budgets.share).toBe(0.5);
  });
});

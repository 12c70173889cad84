import { describe, expect, it } from 'vitest';
import { budgetSchema } from '../../../../../src/engine/budget/budget-schema.ts';
import { createBudgetLedger, isBudgetRefusal } from '../../../../../src/engine/budget/budget-ledger.ts';
import type { BudgetCharge, BudgetRefusal } from '../../../../../src/engine/budget/budget-ledger.ts';

const budget = (input: Record<string, unknown>) => budgetSchema.parse(input);
const call = { calls: 1, tokens: 100, cost: 0.01 };
const charge = (value: BudgetRefusal | BudgetCharge): BudgetCharge => {
  if (isBudgetRefusal(value)) throw new Error(`refused: ${value.name}`);
  return value;
};

describe('the budget ledger', () => {
  it('admits runs up to the cap per window, refuses the next naming the budget, and admits again once the window rolled', () => {
    let now = 0;
    const ledger = createBudgetLedger([budget({ name: 'runs-per-minute', of: 'runs', max: 2, window: 'minute' })], () => now);
    expect(ledger.admitRun('tone', undefined)).toBeUndefined();
    expect(ledger.admitRun('tone', undefined)).toBeUndefined();
    expect(ledger.admitRun('tone', undefined)).toMatchObject({ name: 'runs-per-minute', window: 'minute', of: 'runs', used: 2, wanted: 1 });
    now += 60_000;
    expect(ledger.admitRun('tone', undefined)).toBeUndefined();
  });

  it('keeps one counter per tenant for a perTenant budget, and only counts the scorer it names', () => {
    const ledger = createBudgetLedger([budget({ name: 'per-tenant', of: 'runs', max: 1, window: 'minute', perTenant: true, scorer: 'tone' })], () => 0);
    expect(ledger.admitRun('tone', 'acme')).toBeUndefined();
    expect(ledger.admitRun('tone', 'globex')).toBeUndefined();
    expect(ledger.admitRun('tone', 'acme')?.name).toBe('per-tenant');
    expect(ledger.admitRun('other-scorer', 'acme')).toBeUndefined();
    expect(ledger.used('per-tenant', 'acme')).toBe(1);
  });

  it('reserves a judge call in every budget it falls under, and refuses without booking anything when one is full', () => {
    const ledger = createBudgetLedger(
      [budget({ name: 'calls', of: 'judgeCalls', max: 10, window: 'hour' }), budget({ name: 'tokens', of: 'tokens', max: 250, window: 'hour', model: 'gpt-4o-mini' })],
      () => 0,
    );
    charge(ledger.reserveJudgeCall({ scorerId: 's', tenant: undefined, modelId: 'openai:gpt-4o-mini' }, call));
    charge(ledger.reserveJudgeCall({ scorerId: 's', tenant: undefined, modelId: 'gpt-4o-mini' }, call));
    const refused = ledger.reserveJudgeCall({ scorerId: 's', tenant: undefined, modelId: 'gpt-4o-mini' }, call);
    expect(refused).toMatchObject({ name: 'tokens', of: 'tokens', used: 200, wanted: 100, max: 250 });
    expect(ledger.used('calls')).toBe(2);
    // Another model is not under the tokens budget.
    charge(ledger.reserveJudgeCall({ scorerId: 's', tenant: undefined, modelId: 'llama3.1' }, call));
    expect(ledger.used('calls')).toBe(3);
  });

  it('settles a reservation with the real usage', () => {
    const ledger = createBudgetLedger([budget({ name: 'tokens', of: 'tokens', max: 1000, window: 'day' }), budget({ name: 'spend', of: 'cost', max: 1, window: 'day' })], () => 0);
    charge(ledger.reserveJudgeCall({ scorerId: 's', tenant: undefined, modelId: 'm' }, call)).settle({ calls: 1, tokens: 37, cost: 0.002 });
    expect(ledger.used('tokens')).toBe(37);
    expect(ledger.used('spend')).toBeCloseTo(0.002, 12);
  });

  it('enforces this instance’s share: max × owned partitions / topic partitions', () => {
    const ledger = createBudgetLedger([budget({ name: 'runs', of: 'runs', max: 10, window: 'minute' })], () => 0);
    ledger.setShare(2 / 6);
    let admitted = 0;
    while (ledger.admitRun('s', undefined) === undefined) admitted += 1;
    expect(admitted).toBe(3); // 10 × 2/6 = 3.33
    ledger.setShare(1); // a rebalance gave it every partition
    while (ledger.admitRun('s', undefined) === undefined) admitted += 1;
    expect(admitted).toBe(10);
    ledger.setShare(0);
    expect(ledger.admitRun('s', undefined)?.share).toBe(0);
  });
});

describe('the budget config', () => {
  it('rejects a runs budget that names a model, saying what to do', () => {
    const parsed = budgetSchema.safeParse({ name: 'x', of: 'runs', max: 1, window: 'minute', model: 'gpt-4o' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/cannot name a model/);
  });
});

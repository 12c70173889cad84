// What a pair's judge calls used and cost, on its score record (docs/spend-and-replay.md, cost):
// the sum over every judge execution of every attempt — a format retry's model calls and the
// attempts that failed before a retry included — of the usage the provider reported, priced with
// the price table. Unlike the judge evidence it summarises, it is kept at every evidence level
// (it quotes nothing of the run), so spend stays countable per record when a deployment keeps no
// judge evidence. Absent on a record whose scorer called no judge. A classifier scorer's
// decision-model calls are not judge executions: they are in the metrics and budgets, and their
// usage in the record's analyze step, but not here; nor are the calls of a pair a budget refused
// mid-run (it gets a decision, not a record).
import { z } from 'zod';
import type { JudgeExecution, JudgeResults } from './judge-execution.ts';

export const recordSpendSchema = z
  .object({
    /** Model calls made, format retries included. */
    judgeCalls: z.number().int().positive(),
    /** Tokens as reported: input (all of it), of which read from and written to the provider's prompt cache; output, of which reasoning. */
    inputTokens: z.number().int().nonnegative(),
    cachedInputTokens: z.number().int().nonnegative(),
    cacheWriteTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    reasoningTokens: z.number().int().nonnegative(),
    /** The priced calls' cost; absent when none was priced. */
    cost: z.object({ amount: z.number().nonnegative(), unit: z.string() }).optional(),
    /** Model calls whose model the price table has no price for: their tokens are above, their cost nowhere. */
    unpricedCalls: z.number().int().positive().optional(),
  })
  .meta({ id: 'RecordSpend' });
export type RecordSpend = z.infer<typeof recordSpendSchema>;

const rounded = (amount: number) => Math.round(amount * 1e9) / 1e9;

/** The spend of some judge executions added to `before` (an earlier attempt's); undefined when there is none. */
export function addSpend(before: RecordSpend | undefined, executions: Iterable<JudgeExecution>): RecordSpend | undefined {
  const sum = { judgeCalls: before?.judgeCalls ?? 0, inputTokens: before?.inputTokens ?? 0, cachedInputTokens: before?.cachedInputTokens ?? 0, cacheWriteTokens: before?.cacheWriteTokens ?? 0, outputTokens: before?.outputTokens ?? 0, reasoningTokens: before?.reasoningTokens ?? 0 };
  let cost = before?.cost;
  let unpriced = before?.unpricedCalls ?? 0;
  for (const execution of executions) {
    sum.judgeCalls += execution.modelCallCount;
    const usage = execution.usage;
    sum.inputTokens += usage?.inputTokens ?? 0;
    sum.cachedInputTokens += usage?.cachedInputTokens ?? 0;
    sum.cacheWriteTokens += usage?.cacheCreationInputTokens ?? 0;
    sum.outputTokens += usage?.outputTokens ?? 0;
    sum.reasoningTokens += usage?.reasoningTokens ?? 0;
    // One currency per deployment (pricing.currency): a cost in another unit would not add up, so it is left out.
    if (execution.cost !== undefined && (cost === undefined || cost.unit === execution.cost.unit)) cost = { amount: rounded((cost?.amount ?? 0) + execution.cost.amount), unit: execution.cost.unit };
    if (execution.unpriced === true) unpriced += execution.modelCallCount;
  }
  if (sum.judgeCalls === 0) return before;
  return { ...sum, ...(cost === undefined ? {} : { cost }), ...(unpriced === 0 ? {} : { unpricedCalls: unpriced }) };
}

/** Two spends added: an earlier attempt's and a later one's. */
export function sumSpend(earlier: RecordSpend, later: RecordSpend | undefined): RecordSpend {
  if (later === undefined) return earlier;
  const cost = earlier.cost === undefined ? later.cost : later.cost === undefined || later.cost.unit !== earlier.cost.unit ? earlier.cost : { amount: rounded(earlier.cost.amount + later.cost.amount), unit: earlier.cost.unit };
  const unpriced = (earlier.unpricedCalls ?? 0) + (later.unpricedCalls ?? 0);
  return {
    judgeCalls: earlier.judgeCalls + later.judgeCalls,
    inputTokens: earlier.inputTokens + later.inputTokens,
    cachedInputTokens: earlier.cachedInputTokens + later.cachedInputTokens,
    cacheWriteTokens: earlier.cacheWriteTokens + later.cacheWriteTokens,
    outputTokens: earlier.outputTokens + later.outputTokens,
    reasoningTokens: earlier.reasoningTokens + later.reasoningTokens,
    ...(cost === undefined ? {} : { cost }),
    ...(unpriced === 0 ? {} : { unpricedCalls: unpriced }),
  };
}

/** Every execution of a record's judge evidence, step by step. */
export function* judgeExecutions(judge: JudgeResults | undefined): Generator<JudgeExecution> {
  if (judge === undefined) return;
  for (const step of Object.values(judge)) if (step !== undefined) yield* step.executions;
}

// The config types are derived from the config schema; these pin what a config file may write and
// what the service gets back (compile-time, checked by `tsc`), plus the one hand-laid part: `when`
// takes the config's own event type.
import type { JudgeBatchConfig } from '../../../../../src/engine/judge-batch/batch-schema.ts';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LanguageModel } from 'ai';
import type { ResolvedBinding, ResolvedConfig, ScorerBindingInput, ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { defineConfig } from '../../../../../src/engine/config/define-config.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import type { Predicate } from '../../../../../src/engine/eligibility/predicate-schema.ts';
import type { JudgeModelResolver } from '../../../../../src/kit/judge/types.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

const scorer = createScorer({ id: 'answer-length', description: 'How long the answer is' }).generateScore(() => 1);

describe('config types', () => {
  it("type a binding's `when` with the config's event type, from defineConfig to the resolved binding", () => {
    type TenantEvent = { metadata: { tenantId: string } };
    const when = (event: TenantEvent) => event.metadata.tenantId !== 'internal';
    const resolved = resolveConfig(defineConfig<TenantEvent>({ kafka: { brokers: ['b:1'] }, scorers: [{ scorer, when }] }));
    expectTypeOf(resolved.scorers[0]!.when).toEqualTypeOf<((event: TenantEvent) => boolean | Promise<boolean>) | undefined>();
    expect(resolved.scorers[0]!.when).toBe(when);
  });

  it('make every field with a default optional in the input and present in the resolved config', () => {
    expectTypeOf<ScorestreamConfigInput>().toExtend<{ scorers: ScorerBindingInput[] }>();
    expectTypeOf<{ scorers: [] }>().toExtend<ScorestreamConfigInput>();
    expectTypeOf<ResolvedConfig['kafka']>().toEqualTypeOf<{ brokers: string[]; clientId: string; client: 'kafkajs' | 'platformatic'; ssl?: ResolvedConfig['kafka']['ssl']; sasl?: ResolvedConfig['kafka']['sasl'] }>();
    expectTypeOf<ResolvedConfig['concurrency']>().toEqualTypeOf<{ runsInFlight: number; judgeCallsPerModel: number }>();
    expectTypeOf<ResolvedConfig['delivery']>().toEqualTypeOf<'at-least-once' | 'exactly-once'>();
    expectTypeOf<ResolvedBinding['timeoutMs']>().toEqualTypeOf<number>();
    expectTypeOf<ResolvedConfig['retries']>().toEqualTypeOf<{ enabled: boolean; delaysMs: number[]; maxAgeMs: number }>();
    expectTypeOf<ResolvedConfig['topics']['retry']>().toEqualTypeOf<string>();
    expectTypeOf<ResolvedBinding['scorerId']>().toEqualTypeOf<string>();
  });

  it('take a filter as unknown JSON (checked at start-up) and give it back parsed and compiled', () => {
    expectTypeOf<ScorerBindingInput['filter']>().toEqualTypeOf<unknown>();
    expectTypeOf<ResolvedBinding['filter']>().toEqualTypeOf<Predicate | undefined>();
    const filter = { op: 'exists', path: 'metadata.tenantId' };
    const [binding] = resolveConfig({ kafka: { brokers: ['b:1'] }, scorers: [{ scorer, filter }] }).scorers;
    expect(binding!.filter).toEqual(filter);
    expect(binding!.matchesFilter?.({ metadata: { tenantId: 't1' } })).toBe(true);
    expect(binding!.matchesFilter?.({ metadata: {} })).toBe(false);
  });

  it('type the judge with the one model-resolver type', () => {
    expectTypeOf<NonNullable<ResolvedConfig['judge']>>().toEqualTypeOf<{ model?: LanguageModel; models?: JudgeModelResolver; callTimeoutMs?: number; batch?: JudgeBatchConfig }>();
  });
});

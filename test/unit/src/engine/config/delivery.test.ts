// The `delivery` option: at-least-once unless the config or SCORESTREAM_DELIVERY says
// exactly-once; anything else is reported against the field or the variable that carried it.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import type { ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

const scorer = createScorer({ id: 'constant', description: 'Always 1' }).generateScore(() => 1);
const config = (extra: Record<string, unknown> = {}) => ({ kafka: { brokers: ['localhost:9092'] }, scorers: [{ scorer }], ...extra }) as ScorestreamConfigInput;

function problems(input: ScorestreamConfigInput, environment: Record<string, string> = {}) {
  try {
    resolveConfig(input, { environment });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected resolveConfig to throw a ConfigError');
}

describe('delivery option', () => {
  it("defaults to 'at-least-once'", () => {
    expect(resolveConfig(config()).delivery).toBe('at-least-once');
  });

  it("takes 'exactly-once' from the config", () => {
    expect(resolveConfig(config({ delivery: 'exactly-once' })).delivery).toBe('exactly-once');
  });

  it('SCORESTREAM_DELIVERY overrides the config (case and spaces ignored)', () => {
    expect(resolveConfig(config({ delivery: 'at-least-once' }), { environment: { SCORESTREAM_DELIVERY: ' Exactly-Once ' } }).delivery).toBe('exactly-once');
    expect(resolveConfig(config({ delivery: 'exactly-once' }), { environment: { SCORESTREAM_DELIVERY: 'at-least-once' } }).delivery).toBe('at-least-once');
  });

  it('a blank SCORESTREAM_DELIVERY leaves the config alone', () => {
    expect(resolveConfig(config({ delivery: 'exactly-once' }), { environment: { SCORESTREAM_DELIVERY: '  ' } }).delivery).toBe('exactly-once');
  });

  it('rejects an unknown mode in the config, naming the field and the choices', () => {
    expect(problems(config({ delivery: 'exactly-twice' }))).toEqual([{ path: 'delivery', message: "expected one of 'at-least-once', 'exactly-once'" }]);
  });

  it('rejects an unknown mode in the environment, naming the variable and the value', () => {
    expect(problems(config(), { SCORESTREAM_DELIVERY: 'eos' })).toEqual([
      { path: 'env SCORESTREAM_DELIVERY', message: "expected one of 'at-least-once', 'exactly-once', got 'eos'" },
    ]);
  });
});

// The `traceSampling` option: runs whose trace is not sampled are scored ('ignore') unless the
// config or SCORESTREAM_TRACE_SAMPLING says 'follow'; anything else is reported against the field
// or the variable that carried it.
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

describe('traceSampling option', () => {
  it("defaults to 'ignore': scores are the product, traces a view of it", () => {
    expect(resolveConfig(config()).traceSampling).toBe('ignore');
  });

  it("takes 'follow' from the config", () => {
    expect(resolveConfig(config({ traceSampling: 'follow' })).traceSampling).toBe('follow');
  });

  it('SCORESTREAM_TRACE_SAMPLING overrides the config (case and spaces ignored)', () => {
    expect(resolveConfig(config(), { environment: { SCORESTREAM_TRACE_SAMPLING: ' Follow ' } }).traceSampling).toBe('follow');
    expect(resolveConfig(config({ traceSampling: 'follow' }), { environment: { SCORESTREAM_TRACE_SAMPLING: 'ignore' } }).traceSampling).toBe('ignore');
  });

  it('rejects an unknown policy in the config and in the environment, naming the choices', () => {
    expect(problems(config({ traceSampling: 'sometimes' }))).toEqual([{ path: 'traceSampling', message: "expected one of 'ignore', 'follow'" }]);
    expect(problems(config(), { SCORESTREAM_TRACE_SAMPLING: 'always' })).toEqual([
      { path: 'env SCORESTREAM_TRACE_SAMPLING', message: "expected one of 'ignore', 'follow', got 'always'" },
    ]);
  });
});

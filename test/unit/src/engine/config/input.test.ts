// The `input` option: run events unless the config or SCORESTREAM_INPUT_FORMAT says 'otlp';
// OTLP's encoding (default otlp_proto, or SCORESTREAM_INPUT_ENCODING), grace period and bounds
// with their defaults; anything else reported against the field or variable that carried it.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import type { ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { OTLP_DEFAULTS } from '../../../../../src/engine/config/input-schema.ts';
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

describe('input option', () => {
  it('defaults to run events', () => {
    expect(resolveConfig(config()).input).toEqual({ format: 'run-event' });
  });

  it("fills in OTLP's defaults: otlp_proto, a 2 s grace period, bounded assembly, outermost agents", () => {
    expect(resolveConfig(config({ input: { format: 'otlp' } })).input).toEqual({ format: 'otlp', ...OTLP_DEFAULTS });
    expect(OTLP_DEFAULTS).toMatchObject({ encoding: 'otlp_proto', gracePeriodMs: 2_000, nestedAgents: 'outermost' });
  });

  it('keeps what the config sets', () => {
    const input = resolveConfig(config({ input: { format: 'otlp', encoding: 'otlp_json', gracePeriodMs: 0, maxOpenTraces: 5, nestedAgents: 'each' } })).input;
    expect(input).toMatchObject({ format: 'otlp', encoding: 'otlp_json', gracePeriodMs: 0, maxOpenTraces: 5, nestedAgents: 'each' });
  });

  it('SCORESTREAM_INPUT_FORMAT and SCORESTREAM_INPUT_ENCODING override the config, keeping its other OTLP settings', () => {
    expect(resolveConfig(config(), { environment: { SCORESTREAM_INPUT_FORMAT: 'OTLP', SCORESTREAM_INPUT_ENCODING: 'otlp_json' } }).input).toMatchObject({ format: 'otlp', encoding: 'otlp_json' });
    expect(resolveConfig(config({ input: { format: 'otlp', gracePeriodMs: 50 } }), { environment: { SCORESTREAM_INPUT_ENCODING: 'otlp_json' } }).input).toMatchObject({ encoding: 'otlp_json', gracePeriodMs: 50 });
    expect(resolveConfig(config({ input: { format: 'otlp' } }), { environment: { SCORESTREAM_INPUT_FORMAT: 'run-event' } }).input).toEqual({ format: 'run-event' });
    // an encoding alone does not switch the format
    expect(resolveConfig(config(), { environment: { SCORESTREAM_INPUT_ENCODING: 'otlp_json' } }).input).toEqual({ format: 'run-event' });
  });

  it('rejects unknown formats and encodings, naming the field or the variable', () => {
    expect(problems(config({ input: { format: 'zipkin' } }))[0]!.path).toBe('input.format');
    expect(problems(config({ input: { format: 'otlp', encoding: 'jaeger_proto' } }))[0]!.path).toBe('input.encoding');
    expect(problems(config({ input: { format: 'otlp', maxOpenTraces: 0 } }))[0]!.path).toBe('input.maxOpenTraces');
    expect(problems(config(), { SCORESTREAM_INPUT_FORMAT: 'zipkin' })).toMatchObject([{ path: 'env SCORESTREAM_INPUT_FORMAT' }]);
    expect(problems(config(), { SCORESTREAM_INPUT_FORMAT: 'otlp', SCORESTREAM_INPUT_ENCODING: 'raw' })).toMatchObject([{ path: 'env SCORESTREAM_INPUT_ENCODING' }]);
  });
});

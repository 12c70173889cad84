// The `health` config: off unless a port is set (config or SCORESTREAM_HEALTH_PORT), every
// interface unless told, and a port that is not one reported against its field or variable.
import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

describe('the health config', () => {
  const scorer = createScorer({ id: 'constant', description: 'd' }).generateScore(() => 1);
  const base = { kafka: { brokers: ['localhost:9092'] }, scorers: [{ scorer }] };

  it('is off by default, on with a port from the config or SCORESTREAM_HEALTH_PORT, on every interface unless told', () => {
    expect(resolveConfig(base).health).toEqual({ host: '0.0.0.0' });
    expect(resolveConfig({ ...base, health: { port: 8080 } }).health).toEqual({ port: 8080, host: '0.0.0.0' });
    expect(resolveConfig(base, { environment: { SCORESTREAM_HEALTH_PORT: '9000', SCORESTREAM_HEALTH_HOST: '127.0.0.1' } }).health).toEqual({ port: 9000, host: '127.0.0.1' });
  });

  it('refuses a port that is not one, naming the field or the variable', () => {
    const problems = (input: Parameters<typeof resolveConfig>[0], environment: Record<string, string> = {}) => {
      try {
        resolveConfig(input, { environment });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      throw new Error('expected a ConfigError');
    };
    expect(problems({ ...base, health: { port: 70_000 } })).toEqual([{ path: 'health.port', message: 'expected a port from 0 to 65535' }]);
    expect(problems(base, { SCORESTREAM_HEALTH_PORT: 'http' })).toEqual([{ path: 'env SCORESTREAM_HEALTH_PORT', message: "expected a port from 0 to 65535, got 'http'" }]);
  });
});

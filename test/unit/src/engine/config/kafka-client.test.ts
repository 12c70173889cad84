// The `kafka.client` option: @platformatic/kafka unless the config or SCORESTREAM_KAFKA_CLIENT says
// kafkajs; anything else is reported against the field or the variable that carried it.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import type { ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

const scorer = createScorer({ id: 'constant', description: 'Always 1' }).generateScore(() => 1);
const config = (client?: string) => ({ kafka: { brokers: ['localhost:9092'], ...(client === undefined ? {} : { client }) }, scorers: [{ scorer }] }) as ScorestreamConfigInput;

function problems(input: ScorestreamConfigInput, environment: Record<string, string> = {}) {
  try {
    resolveConfig(input, { environment });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected resolveConfig to throw a ConfigError');
}

describe('kafka.client option', () => {
  it("defaults to 'platformatic' and takes 'kafkajs' from the config", () => {
    expect(resolveConfig(config()).kafka.client).toBe('platformatic');
    expect(resolveConfig(config('kafkajs')).kafka.client).toBe('kafkajs');
  });

  it('SCORESTREAM_KAFKA_CLIENT overrides the config (case and spaces ignored); a blank one leaves it alone', () => {
    expect(resolveConfig(config(), { environment: { SCORESTREAM_KAFKA_CLIENT: ' Platformatic ' } }).kafka.client).toBe('platformatic');
    expect(resolveConfig(config('platformatic'), { environment: { SCORESTREAM_KAFKA_CLIENT: 'kafkajs' } }).kafka.client).toBe('kafkajs');
    expect(resolveConfig(config('platformatic'), { environment: { SCORESTREAM_KAFKA_CLIENT: ' ' } }).kafka.client).toBe('platformatic');
  });

  it('rejects an unknown client in the config or the environment, naming where it came from and the choices', () => {
    expect(problems(config('librdkafka'))).toEqual([{ path: 'kafka.client', message: "expected one of 'kafkajs', 'platformatic'" }]);
    expect(problems(config(), { SCORESTREAM_KAFKA_CLIENT: 'rdkafka' })).toEqual([{ path: 'env SCORESTREAM_KAFKA_CLIENT', message: "expected one of 'kafkajs', 'platformatic', got 'rdkafka'" }]);
  });
});

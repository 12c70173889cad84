// `rescoreOn` (docs/configuration.md, docs/feedback.md re-scoring): a binding opts in to being
// scored again when a person disagrees; the service then reads the rescore topic. Every mistake is
// reported under the field it is about, at start-up.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import type { ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { subscriptionsOf, topologyOfConfig } from '../../../../../src/engine/topology/topology.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

/** The topic the service's rescore task consumes, if any (its subscriptions: src/engine/topology/). */
const rescoreTopic = (resolved: ReturnType<typeof resolveConfig>) => subscriptionsOf(topologyOfConfig(resolved), 'service').find((subscription) => subscription.task === 'rescore')?.topic;
const relevancy = createScorer({ id: 'answer-relevancy', description: 'd' }).generateScore(() => 1);
const config = (extra: Partial<ScorestreamConfigInput> & Pick<ScorestreamConfigInput, 'scorers'>): ScorestreamConfigInput => ({ kafka: { brokers: ['localhost:9092'] }, ...extra });

function problemsOf(input: ScorestreamConfigInput): { path: string; message: string }[] {
  try {
    resolveConfig(input);
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('rescoreOn', () => {
  it('is kept on the binding, and makes the service read the rescore topic ({runs}-rescore unless named)', () => {
    const resolved = resolveConfig(config({ topics: { runs: 'runs-eu' }, scorers: [{ scorer: relevancy, rescoreOn: ['thumbs-down', 'correction'] }] }));
    expect(resolved.scorers[0]!.rescoreOn).toEqual(['thumbs-down', 'correction']);
    expect(rescoreTopic(resolved)).toBe('runs-eu-rescore');
    expect(rescoreTopic(resolveConfig(config({ topics: { rescore: 'asks' }, scorers: [{ scorer: relevancy, rescoreOn: ['correction'] }] })))).toBe('asks');
  });

  it('left out everywhere: no rescore topic is read', () => {
    expect(rescoreTopic(resolveConfig(config({ scorers: [{ scorer: relevancy }] })))).toBeUndefined();
  });

  it('refuses an unknown reason, an empty list, a thread binding and OTLP input, each under its field', () => {
    expect(problemsOf(config({ scorers: [{ scorer: relevancy, rescoreOn: ['thumbs-up' as never] }] }))).toEqual([{ path: 'scorers[0].rescoreOn[0]', message: "expected one of 'thumbs-down', 'correction'" }]);
    expect(problemsOf(config({ scorers: [{ scorer: relevancy, rescoreOn: [] }] }))[0]).toMatchObject({ path: 'scorers[0].rescoreOn' });
    expect(problemsOf(config({ scorers: [{ scorer: relevancy, level: 'thread', rescoreOn: ['thumbs-down'] }] }))).toEqual([expect.objectContaining({ path: 'scorers[0].rescoreOn', message: expect.stringContaining('thread binding') })]);
    expect(problemsOf(config({ input: { format: 'otlp' }, scorers: [{ scorer: relevancy }, { scorer: relevancy, version: '2', rescoreOn: ['correction'] }] }))).toEqual([expect.objectContaining({ path: 'scorers[1].rescoreOn', message: expect.stringContaining('OTLP input') })]);
  });
});

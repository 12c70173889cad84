// Monitors in the config: defaults, and every mistake reported under its field.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import type { ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

const completeness = createScorer({ id: 'completeness', description: 'd' }).generateScore(() => 1);
const base = { kafka: { brokers: ['b:1'] }, scorers: [{ scorer: completeness, pass: { atLeast: 0.5 } }, { scorer: createScorer({ id: 'tone', description: 'd' }).generateScore(() => 1) }] };
const monitor = { name: 'm', scorer: 'completeness', aggregation: 'mean', window: '5m', threshold: { below: 0.5 } };

function problems(extra: Record<string, unknown>): { path: string; message: string }[] {
  try {
    resolveConfig({ ...base, ...extra } as ScorestreamConfigInput);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('monitors in the config', () => {
  it('fill in the defaults, durations in ms; the alerts topic and evaluation period have defaults', () => {
    const config = resolveConfig({ ...base, monitors: [monitor] } as ScorestreamConfigInput);
    expect(config.monitors).toEqual([{ ...monitor, window: 300_000, for: 0, cooldown: 0, noData: 'keep', minSamples: 1 }]);
    expect(config.topics.alerts).toBe('agent-score-alerts');
    expect(config.alerts).toEqual({ evaluateEvery: 10_000 });
    expect(resolveConfig(base as ScorestreamConfigInput).monitors).toEqual([]);
  });

  it('report schema mistakes under their field', () => {
    const paths = (extra: Record<string, unknown>) => problems({ monitors: [{ ...monitor, ...extra }] }).map((problem) => problem.path);
    expect(paths({ window: '5 minutes' })).toEqual(['monitors[0].window']);
    expect(paths({ for: -1 })).toEqual(['monitors[0].for']);
    expect(paths({ aggregation: 'avg' })).toEqual(['monitors[0].aggregation']);
    expect(paths({ threshold: { below: 0.5, above: 0.9 } })).toEqual(['monitors[0].threshold']);
    expect(paths({ threshold: {} })).toEqual(['monitors[0].threshold']);
    expect(paths({ noData: 'alert' })).toEqual(['monitors[0].noData']);
    expect(paths({ windowMinutes: 5 })).toEqual(['monitors[0]']);
  });

  it('need a bound scorer, a pass criterion for passRate, a share for its threshold, and unique names', () => {
    expect(problems({ monitors: [{ ...monitor, scorer: 'toxicity' }] })).toEqual([{ path: 'monitors[0].scorer', message: "no scorer 'toxicity' is bound in scorers (bound: completeness, tone)" }]);
    expect(problems({ monitors: [{ ...monitor, scorer: 'tone', aggregation: 'passRate' }] })).toEqual([{ path: 'monitors[0].aggregation', message: expect.stringContaining("give the binding of 'tone' a pass criterion") }]);
    expect(problems({ monitors: [{ ...monitor, aggregation: 'passRate', threshold: { below: 90 } }] })).toEqual([{ path: 'monitors[0].threshold', message: expect.stringContaining('a pass rate is a share from 0 to 1') }]);
    expect(problems({ monitors: [monitor, { ...monitor }] })).toEqual([{ path: 'monitors[1].name', message: expect.stringContaining("monitor name 'm' is already used by monitors[0]") }]);
  });

  it('check the webhook', () => {
    expect(problems({ alerts: { webhook: { url: 'ftp://hooks.example/x' } } }).map((problem) => problem.path)).toEqual(['alerts.webhook.url']);
    expect(problems({ alerts: { webhook: { url: 'https://hooks.example/x', format: 'teams' } } }).map((problem) => problem.path)).toEqual(['alerts.webhook.format']);
    const config = resolveConfig({ ...base, alerts: { evaluateEvery: '2s', webhook: { url: 'https://hooks.example/x', format: 'slack' } } } as ScorestreamConfigInput);
    expect(config.alerts).toEqual({ evaluateEvery: 2_000, webhook: { url: 'https://hooks.example/x', format: 'slack', headers: {}, timeoutMs: 5_000, maxAttempts: 5 } });
  });
});

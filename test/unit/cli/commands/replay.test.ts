import { describe, expect, it } from 'vitest';
import { formatDryRunReport, parseReplayTime, run } from '../../../../cli/commands/replay.ts';
import { ConfigError } from '../../../../src/engine/config/config-error.ts';
import { withJudgeMode } from '../../../../service/replay.ts';
import { renderReplayProgress } from '../../../../cli/replay-progress.ts';

describe('replay arguments', () => {
  const now = Date.parse('2026-12-01T12:00:00.000Z');
  it('reads ISO times, epoch milliseconds and durations ago', () => {
    expect(parseReplayTime('2026-12-01T09:30:00Z', now)).toEqual({ spec: '2026-12-01T09:30:00.000Z', at: new Date('2026-12-01T09:30:00.000Z') });
    expect(parseReplayTime(String(now), now)?.at.getTime()).toBe(now);
    // A duration ago is named by its words, so the same command names the same replay later.
    expect(parseReplayTime('90m', now)).toEqual({ spec: '90m ago', at: new Date('2026-12-01T10:30:00.000Z') });
    expect(parseReplayTime('90m', now + 60_000)?.spec).toBe('90m ago');
    expect(parseReplayTime('2d', now)?.at.toISOString()).toBe('2026-11-29T12:00:00.000Z');
    expect(parseReplayTime('yesterday-ish', now)).toBeUndefined();
  });
});

describe('--judge-mode', () => {
  it('takes live or batch, and refuses anything else with exit 2 before reading the config', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => void errors.push(line);
    try {
      expect(await run(['--config', 'missing.config.ts', '--from', '1h', '--judge-mode', 'sometimes'])).toBe(2);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toMatch(/--judge-mode must be 'live' or 'batch', got 'sometimes'/);
  });

  it('sets every binding to the mode; batch needs the config\'s judge.batch', () => {
    const bindings = [{ scorerId: 'a', judge: { mode: 'batch' as const } }, { scorerId: 'b' }];
    expect(withJudgeMode({ judge: undefined }, bindings, 'live').map((binding) => binding.judge)).toEqual([{ mode: 'live' }, { mode: 'live' }]);
    expect(() => withJudgeMode({ judge: undefined }, bindings, 'batch')).toThrow(ConfigError);
    expect(() => withJudgeMode({ judge: undefined }, bindings, 'batch')).toThrow(/--judge-mode batch needs the config's judge.batch/);
    expect(withJudgeMode({ judge: { batch: {} as never } }, bindings, 'batch').map((binding) => binding.judge)).toEqual([{ mode: 'batch' }, { mode: 'batch' }]);
  });
});

describe('the progress line', () => {
  it('shows the bar, the count, the rate so far and the time left', () => {
    expect(renderReplayProgress({ done: 50, total: 200 }, { at: 0, done: 0 }, { at: 10_000, done: 50 }, 10)).toBe('[###-------] 50/200 runs  25%  5.0 runs/s  ETA 30s');
    expect(renderReplayProgress({ done: 200, total: 200 }, { at: 0, done: 0 }, { at: 10_000, done: 200 }, 10)).toMatch(/100%.*done$/);
    expect(renderReplayProgress({ done: 0, total: 10 }, { at: 0, done: 0 }, { at: 0, done: 0 }, 10)).toMatch(/ETA \?$/);
  });
});

describe('the dry-run report', () => {
  it('prints per scorer the eligible runs and the estimate, and the total', () => {
    const text = formatDryRunReport({
      range: { id: 'replay-abc', groupId: 'g', total: 5, partitions: [{ partition: 0, start: 3, end: 8 }] },
      runs: 5,
      currency: 'USD',
      byScorer: new Map([['judged', { eligible: 5, skipped: 0, failed: 0, judgeCalls: 5, inputTokens: 500, outputTokens: 250, cost: 0.0123 }]]),
    });
    expect(text).toContain('dry run of replay-abc: 5 runs in range (p0 3..8); no judge was called');
    expect(text).toMatch(/judged\s+5\s+0\s+5\s+500\s+250\s+0\.0123 USD/);
    expect(text).toContain('total estimated cost 0.0123 USD');
  });
});

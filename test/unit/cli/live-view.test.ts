// The demo's live view: the text drawn from the service's counters, and the redraw loop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderLiveView, startLiveView } from '../../../cli/live-view.ts';
import { ServiceStats } from '../../../consumers/service-stats.ts';

function busyStats(): ServiceStats {
  const stats = new ServiceStats();
  stats.consumed = 1250;
  stats.inFlight = 3;
  stats.pausedPartitions.add('agent-runs[1]');
  stats.lagByPartition.set('agent-runs[0]', 5).set('agent-runs[1]', 2);
  stats.countSkip('sampling');
  stats.countSkip('sampling');
  stats.countSkip('filter');
  stats.countDeadLetter('invalid_json');
  stats.countDeadLetter('invalid_json');
  stats.countDeadLetter('schema_violation');
  stats.byScorer.set('toxicity', { scored: 2, notScorable: 0, failed: 1, scoreSum: 0.5 });
  stats.byScorer.set('answer-length', { scored: 4, notScorable: 1, failed: 0, scoreSum: 3.3 });
  stats.byScorer.set('refund-only', { scored: 0, notScorable: 7, failed: 0, scoreSum: 0 });
  return stats;
}

describe('renderLiveView', () => {
  it('shows the runs each budget skipped, on a line of their own, only when there are any', () => {
    const stats = new ServiceStats();
    expect(renderLiveView(stats, { at: 0, consumed: 0 }, { at: 1000, consumed: 0 })).not.toContain('budget exhausted');
    for (const budget of ['judge-tokens', 'judge-tokens', 'runs-per-tenant']) {
      stats.countSkip('budget_exhausted');
      stats.countBudgetExhausted(budget);
    }
    const lines = renderLiveView(stats, { at: 0, consumed: 0 }, { at: 1000, consumed: 0 }).split('\n');
    expect(lines[1]).toContain('skipped 3 (budget_exhausted 3)');
    expect(lines[2]).toBe('budget exhausted judge-tokens 2, runs-per-tenant 1   (skipped, recorded as budget_exhausted; re-score with scorestream replay)');
  });

  it('draws rates, totals, skips by reason, dead letters by code and one sorted row per scorer', () => {
    const text = renderLiveView(busyStats(), { at: 10_000, consumed: 1200 }, { at: 12_000, consumed: 1250 });
    expect(text.split('\n')).toEqual([
      'events/s    25.0   consumed 1250   lag 7   in flight 3   paused partitions 1',
      'scored 6   not scorable 8   failed 1   skipped 3 (sampling 2, filter 1)   dead-lettered 3 (invalid_json 2, schema_violation 1)',
      '',
      'scorer                         mean   scored    n/s  failed',
      'answer-length                 0.825        4      1       0',
      'refund-only                       -        0      7       0',
      'toxicity                      0.250        2      0       1',
    ]);
  });

  it('draws an idle service: zero rate, "0" skips, no dead-letter codes, no scorer rows', () => {
    const text = renderLiveView(new ServiceStats(), { at: 0, consumed: 0 }, { at: 1000, consumed: 0 });
    expect(text.split('\n')).toEqual([
      'events/s     0.0   consumed 0   lag 0   in flight 0   paused partitions 0',
      'scored 0   not scorable 0   failed 0   skipped 0 (0)   dead-lettered 0',
      '',
      'scorer                         mean   scored    n/s  failed',
    ]);
  });

  it('adds a retry line once the retry topic saw work: pairs waiting, deferred, retried, failed after retries', () => {
    const stats = new ServiceStats();
    stats.retriesDeferred = 9;
    stats.retriesAttempted = 4;
    stats.retriesExhausted = 1;
    stats.retryWaitingByPartition.set('agent-runs-retry[0]', 3).set('agent-runs-retry[1]', 2);
    const text = renderLiveView(stats, { at: 0, consumed: 0 }, { at: 1000, consumed: 0 });
    expect(text.split('\n')[2]).toBe('waiting for retry 5   deferred 9   retried 4   failed after retries 1');
  });

  it('adds a re-score line once the feedback join asked for one: each outcome with its count', () => {
    const stats = new ServiceStats();
    expect(renderLiveView(stats, { at: 0, consumed: 0 }, { at: 1000, consumed: 0 })).not.toContain('re-scores');
    stats.countRescore('admitted');
    stats.countRescore('admitted');
    stats.countRescore('not_enabled');
    const text = renderLiveView(stats, { at: 0, consumed: 0 }, { at: 1000, consumed: 0 });
    expect(text.split('\n')[2]).toBe('re-scores on feedback admitted 2, not enabled 1');
  });

  it('prints rates of 100/s and more without decimals', () => {
    const text = renderLiveView(new ServiceStats(), { at: 0, consumed: 0 }, { at: 500, consumed: 1234 });
    expect(text.split('\n')[0]).toBe('events/s    2468   consumed 0   lag 0   in flight 0   paused partitions 0');
  });

  it('survives two samples taken at the same instant', () => {
    const text = renderLiveView(new ServiceStats(), { at: 1000, consumed: 0 }, { at: 1000, consumed: 0 });
    expect(text.split('\n')[0]).toBe('events/s     0.0   consumed 0   lag 0   in flight 0   paused partitions 0');
  });

  it('appends the extra lines', () => {
    const text = renderLiveView(new ServiceStats(), { at: 0, consumed: 0 }, { at: 1000, consumed: 0 }, ['press Ctrl-C to stop']);
    expect(text.split('\n').at(-1)).toBe('press Ctrl-C to stop');
  });
});

describe('startLiveView', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function output(isTTY: boolean) {
    const writes: string[] = [];
    const out = { isTTY, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream;
    return { out, writes };
  }

  it('on a terminal, redraws in place: moves up over the previous frame and clears it', () => {
    const stats = new ServiceStats();
    const { out, writes } = output(true);
    const view = startLiveView(stats, { out, header: () => ['demo'] });
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.startsWith('demo\nevents/s')).toBe(true);
    const frameLines = writes[0]!.trimEnd().split('\n').length;

    stats.consumed = 30;
    vi.advanceTimersByTime(1000);
    expect(writes[1]).toBe(`\x1b[${frameLines}A\x1b[0J`);
    expect(writes[2]).toContain('events/s    30.0   consumed 30');
    view.stop();
    vi.advanceTimersByTime(5000);
    // stop() draws one final frame and nothing follows it.
    expect(writes).toHaveLength(5);
  });

  it('without a terminal, appends a frame every 5 s with a blank line between frames', () => {
    const { out, writes } = output(false);
    const view = startLiveView(new ServiceStats(), { out, footer: () => ['footer'] });
    vi.advanceTimersByTime(4999);
    expect(writes).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.endsWith('footer\n\n')).toBe(true);
    expect(writes[0]).not.toContain('\x1b[');
    view.stop();
  });
});

// The monitor state machine: `for` before a breach, recovery, cooldown between breach notices,
// and the three noData behaviours.
import { describe, expect, it } from 'vitest';
import { advance, initialState } from '../../../../../src/engine/monitors/monitor-state.ts';
import type { NoDataBehaviour } from '../../../../../src/kit/contracts/alert-record.ts';
import type { MonitorCondition } from '../../../../../src/engine/monitors/monitor-state.ts';

const monitor: { for: number; cooldown: number; noData: NoDataBehaviour } = { for: 60_000, cooldown: 0, noData: 'keep' };

/** Runs conditions at 10 s steps from t=0; returns each step's notice kind (or '-'). */
function run(conditions: MonitorCondition[], options: Partial<typeof monitor> = {}) {
  const state = initialState();
  return conditions.map((condition, step) => advance(state, { ...monitor, ...options }, condition, step * 10_000)?.kind ?? '-');
}

describe('advance', () => {
  it('announces a breach only once the threshold was crossed for `for`, with when it began', () => {
    const state = initialState();
    for (let at = 0; at < 60_000; at += 10_000) expect(advance(state, monitor, 'breaching', at)).toBeUndefined();
    expect(state.phase).toBe('pending');
    expect(advance(state, monitor, 'breaching', 60_000)).toEqual({ kind: 'breach', since: 0 });
    expect(advance(state, monitor, 'breaching', 70_000)).toBeUndefined();
    expect(advance(state, monitor, 'clear', 80_000)).toEqual({ kind: 'recovered', since: 60_000 });
    expect(state).toEqual({ phase: 'ok', lastBreachAt: 60_000 });
  });

  it('forgets a crossing that did not last, and breaches at once with for 0', () => {
    // Crossed again from 30 s: breached at 90 s, `for` (60 s) later.
    expect(run(['breaching', 'breaching', 'clear', 'breaching', 'breaching', 'breaching', 'breaching', 'breaching', 'breaching', 'breaching'])).toEqual(['-', '-', '-', '-', '-', '-', '-', '-', '-', 'breach']);
    expect(run(['breaching', 'clear'], { for: 0 })).toEqual(['breach', 'recovered']);
  });

  it('holds a new breach back until cooldown after the previous breach notice', () => {
    // Breach at 0, recovered at 10 s, breaching again from 20 s: held until 60 s.
    expect(run(['breaching', 'clear', 'breaching', 'breaching', 'breaching', 'breaching', 'breaching'], { for: 0, cooldown: 60_000 })).toEqual(['breach', 'recovered', '-', '-', '-', '-', 'breach']);
  });

  it('noData: keep changes nothing, ok recovers, breach breaches after `for`', () => {
    expect(run(['breaching', 'no_data', 'no_data', 'clear'], { for: 0 })).toEqual(['breach', '-', '-', 'recovered']);
    expect(run(['breaching', 'no_data'], { for: 0, noData: 'ok' })).toEqual(['breach', 'recovered']);
    expect(run(['no_data', 'no_data', 'no_data'], { for: 20_000, noData: 'breach' })).toEqual(['-', '-', 'breach']);
  });
});

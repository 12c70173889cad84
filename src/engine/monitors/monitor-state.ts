// One monitor's state between evaluations: ok → pending (the threshold is crossed; `for` runs) →
// firing (a breach was announced) → ok (recovered). Pure: each evaluation hands in what the window
// said and the time, and gets back the notice to publish, if any. `cooldown` holds a new breach
// back until that long after the previous breach notice; `noData` decides what an empty window
// means (docs/alerts.md, in-stream monitors).
import type { AlertKind } from '../../kit/contracts/alert-record.ts';
import type { Monitor } from './monitor-schema.ts';

export type MonitorPhase = 'ok' | 'pending' | 'firing';

/** What the window said: the threshold crossed, not crossed, or no data. */
export type MonitorCondition = 'breaching' | 'clear' | 'no_data';

export type MonitorState = {
  phase: MonitorPhase;
  /** pending: when the threshold was first crossed. */
  pendingSince?: number;
  /** firing: when the breach was announced. */
  firingSince?: number;
  /** When the last breach was announced (for cooldown), even after a recovery. */
  lastBreachAt?: number;
};

export type Transition = { kind: AlertKind; since: number } | undefined;

export function initialState(): MonitorState {
  return { phase: 'ok' };
}

/** Advances `state` (in place) by one evaluation at `nowMs`; returns the notice it calls for. */
export function advance(state: MonitorState, monitor: Pick<Monitor, 'for' | 'cooldown' | 'noData'>, condition: MonitorCondition, nowMs: number): Transition {
  const effective = condition !== 'no_data' ? condition : monitor.noData === 'breach' ? 'breaching' : monitor.noData === 'ok' ? 'clear' : undefined;
  if (effective === undefined) return undefined; // noData 'keep': nothing changes
  if (effective === 'clear') {
    const wasFiring = state.phase === 'firing' ? state.firingSince : undefined;
    state.phase = 'ok';
    delete state.pendingSince;
    delete state.firingSince;
    return wasFiring === undefined ? undefined : { kind: 'recovered', since: wasFiring };
  }
  if (state.phase === 'firing') return undefined;
  if (state.phase === 'ok') {
    state.phase = 'pending';
    state.pendingSince = nowMs;
  }
  const pendingSince = state.pendingSince!;
  const cooledDown = state.lastBreachAt === undefined || nowMs - state.lastBreachAt >= monitor.cooldown;
  if (nowMs - pendingSince < monitor.for || !cooledDown) return undefined;
  state.phase = 'firing';
  state.firingSince = nowMs;
  state.lastBreachAt = nowMs;
  delete state.pendingSince;
  return { kind: 'breach', since: pendingSince };
}

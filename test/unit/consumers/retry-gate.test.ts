// The retry gate: a message not yet due pauses its partition and one timer resumes it at the due
// time; due (or undated) messages pass. Injected clock and timer: no waiting, no timing.
import { describe, expect, it } from 'vitest';
import { createRetryGate, retryDueMs } from '../../../consumers/retry-gate.ts';
import { RETRY_DUE_HEADER } from '../../../src/kit/contracts/retry-message.ts';

function fakeTimers() {
  const pending: Array<{ callback: () => void; delayMs: number; cleared: boolean }> = [];
  return {
    pending,
    setTimer: (callback: () => void, delayMs: number) => {
      const timer = { callback, delayMs, cleared: false };
      pending.push(timer);
      return { clear: () => void (timer.cleared = true) };
    },
  };
}

const dueAt = (ms: number) => ({ headers: { [RETRY_DUE_HEADER]: Buffer.from(String(ms)) } });

describe('retry gate', () => {
  it('admits a due message without pausing', () => {
    const timers = fakeTimers();
    const gate = createRetryGate({ now: () => 1_000, setTimer: timers.setTimer });
    let paused = 0;
    expect(gate.admit('r', 0, retryDueMs(dueAt(1_000)), () => (paused++, () => undefined))).toBe(true);
    expect(gate.admit('r', 0, retryDueMs({ headers: {} }), () => (paused++, () => undefined))).toBe(true);
    expect(paused).toBe(0);
    expect(timers.pending).toHaveLength(0);
  });

  it('pauses the partition of a message not yet due and resumes it with one timer at the due time', () => {
    const timers = fakeTimers();
    const gate = createRetryGate({ now: () => 1_000, setTimer: timers.setTimer });
    const events: string[] = [];
    const pause = () => (events.push('pause'), () => void events.push('resume'));
    expect(gate.admit('r', 1, 1_250, pause)).toBe(false);
    expect(events).toEqual(['pause']);
    expect(timers.pending.map((timer) => timer.delayMs)).toEqual([250]);
    expect(gate.held).toBe(1);
    timers.pending[0]!.callback();
    expect(events).toEqual(['pause', 'resume']);
    expect(gate.held).toBe(0);
  });

  it('stops its timers at close', () => {
    const timers = fakeTimers();
    const gate = createRetryGate({ now: () => 0, setTimer: timers.setTimer });
    gate.admit('r', 0, 10, () => () => undefined);
    gate.admit('r', 1, 20, () => () => undefined);
    gate.close();
    expect(timers.pending.every((timer) => timer.cleared)).toBe(true);
    expect(gate.held).toBe(0);
  });

  it('reads the due header as text or bytes; an unreadable one counts as due', () => {
    expect(retryDueMs({ headers: { [RETRY_DUE_HEADER]: '42' } })).toBe(42);
    expect(retryDueMs(dueAt(43))).toBe(43);
    expect(retryDueMs({ headers: { [RETRY_DUE_HEADER]: 'soon' } })).toBe(0);
    expect(retryDueMs({})).toBe(0);
  });
});

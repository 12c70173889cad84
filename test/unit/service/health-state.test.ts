// Readiness decided from its parts: started, not stopping, partitions of the runs topic assigned,
// and the broker answering — checked once per cache period however many probes ask, bounded by a
// timeout, and asked only when nothing else already says no.
import { describe, expect, it } from 'vitest';
import { createHealthState } from '../../../service/health-state.ts';

function setUp(probe: () => Promise<void> = async () => undefined) {
  let time = 0;
  let calls = 0;
  const state = createHealthState({
    runsTopic: 'runs',
    now: () => time,
    probeTimeoutMs: 50,
    probeBroker: () => {
      calls += 1;
      return probe();
    },
  });
  return { state, advance: (ms: number) => (time += ms), calls: () => calls };
}

describe('createHealthState', () => {
  it('is not ready while starting, nor without partitions of the runs topic, and says why', async () => {
    const { state } = setUp();
    expect(await state.readiness()).toEqual({ ready: false, reasons: ['starting', 'no_partitions'], partitions: 0 });
    state.started();
    state.assigned({ 'runs-retry': [0, 1] });
    expect(await state.readiness()).toEqual({ ready: false, reasons: ['no_partitions'], partitions: 0 });
    state.assigned({ runs: [2], 'runs-retry': [2] });
    expect(await state.readiness()).toEqual({ ready: true, partitions: 1 });
    state.assigned({ runs: [] });
    expect((await state.readiness()).ready).toBe(false);
    state.close();
  });

  it('is not ready once stopping', async () => {
    const { state } = setUp();
    state.started();
    state.assigned({ runs: [0] });
    state.stopping();
    expect(await state.readiness()).toMatchObject({ ready: false, reasons: ['stopping'] });
    state.close();
  });

  it('is not ready when the broker does not answer, or answers too late, with the error', async () => {
    let answer: () => Promise<void> = () => Promise.reject(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'));
    const { state, advance } = setUp(() => answer());
    state.started();
    state.assigned({ runs: [0] });
    expect(await state.readiness()).toEqual({ ready: false, reasons: ['broker_unreachable'], partitions: 1, brokerError: 'Connection error: connect ECONNREFUSED 127.0.0.1:9092' });
    advance(1_000);
    answer = () => new Promise<void>(() => undefined);
    expect(await state.readiness()).toMatchObject({ ready: false, brokerError: 'the broker did not answer within 50 ms' });
    advance(1_000);
    answer = async () => undefined;
    expect(await state.readiness()).toEqual({ ready: true, partitions: 1 });
    state.close();
  });

  it('asks the broker once per second however many probes come, sharing a check in flight', async () => {
    const { state, advance, calls } = setUp();
    state.started();
    state.assigned({ runs: [0] });
    await Promise.all([state.readiness(), state.readiness(), state.readiness()]);
    await state.readiness();
    expect(calls()).toBe(1);
    advance(999);
    await state.readiness();
    expect(calls()).toBe(1);
    advance(1);
    await state.readiness();
    expect(calls()).toBe(2);
    state.close();
  });

  it('does not ask the broker while something else already says no', async () => {
    const { state, calls } = setUp();
    await state.readiness();
    state.started();
    await state.readiness();
    expect(calls()).toBe(0);
    state.close();
  });

  it('reports the event loop delay as a number of milliseconds', () => {
    const { state } = setUp();
    expect(state.eventLoopDelayMs()).toBeGreaterThanOrEqual(0);
    state.close();
  });
});

// The thread state machine (docs/threads.md): turns, end events and a clock in, effects out. Every
// test drives the wall clock by hand; nothing waits.
import { describe, expect, it } from 'vitest';
import type { ThreadOptionsInput } from '../../../../../src/engine/threads/threads-schema.ts';
import { threadVersionIdFor } from '../../../../../src/kit/contracts/thread-ids.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import type { ThreadClose, ThreadDecision, ThreadEffect } from '../../../../../src/engine/threads/thread-effects.ts';
import { threadPoliciesOf } from '../../../../../src/engine/threads/thread-part.ts';
import type { Admission, ThreadPolicy } from '../../../../../src/engine/threads/thread-part.ts';
import { createThreadState } from '../../../../../src/engine/threads/thread-state.ts';
import { StateBudget } from '../../../../../src/engine/threads/thread-state-options.ts';
import type { ThreadLimits } from '../../../../../src/engine/threads/thread-state-options.ts';
import { entryOf, threadBindings } from './fixtures.ts';

const minute = 60_000;
const t0 = Date.parse('2026-11-29T12:00:00.000Z');
const scorer = (id: string) => createScorer({ id, description: 'd' }).generateScore(() => 1);
const limits: ThreadLimits = { maxThreads: 100, maxStateBytes: 10_000_000, maxThreadBytes: 1_000_000, stateTtlMs: 60 * minute };

function policies(...options: (ThreadOptionsInput & { id?: string; version?: string })[]): ThreadPolicy[] {
  return threadPoliciesOf(threadBindings(...options.map(({ id, version, ...thread }, index) => ({ scorer: scorer(id ?? `thread-scorer-${index}`), ...(version === undefined ? {} : { version }), thread }))));
}

const admitAll = (list: readonly ThreadPolicy[], admission: Admission = { eligible: true }) => new Map(list.map((policy) => [policy.binding, admission]));

/** A machine over the given policies, with helpers that admit every binding of a new thread. */
function machine(list: ThreadPolicy[], overrides: Partial<ThreadLimits> = {}, admission?: Admission, budget?: StateBudget) {
  const state = createThreadState({ policies: list, limits: { ...limits, ...overrides }, ...(budget === undefined ? {} : { budget }) });
  const turn = (runId: string, at: number, extra: { threadId?: string; tenantId?: string; timestamp?: string; metadata?: Record<string, unknown>; answer?: string } = {}) => {
    const entry = entryOf({ runId, timestamp: extra.timestamp ?? new Date(at).toISOString(), ...extra });
    const missing = state.missingAdmissions(entry.key);
    return state.applyTurn(entry, at, admitAll(missing, admission));
  };
  return { state, turn };
}

const closes = (effects: ThreadEffect[]) => effects.filter((effect): effect is ThreadClose => effect.type === 'close');
const decisions = (effects: ThreadEffect[]) => effects.filter((effect): effect is ThreadDecision => effect.type === 'decision');
const kinds = (effects: ThreadEffect[]) => effects.map((effect) => effect.type);
const runIds = (close: ThreadClose | undefined) => close?.turns.map((turn) => turn.runId);

describe('a conversation closed by the clock', () => {
  it('scores version 1 with every turn after idleMs without a turn, and not before', () => {
    const { state, turn } = machine(policies({ idleMs: 15 * minute }));
    expect(kinds(turn('run-1', t0))).toEqual(['write', 'write']);
    turn('run-2', t0 + minute);
    turn('run-3', t0 + 2 * minute);
    expect(state.nextDeadline()).toBe(t0 + 17 * minute);
    expect(state.advance(t0 + 17 * minute - 1)).toEqual([]);
    const effects = state.advance(t0 + 17 * minute);
    expect(kinds(effects)).toEqual(['close', 'write']);
    const [close] = closes(effects);
    expect(close).toMatchObject({ key: 'acme:t-1', threadId: 't-1', tenantId: 'acme', scorerId: 'thread-scorer-0', closedBy: 'idle', version: 1, scope: 'conversation' });
    expect(close).not.toHaveProperty('supersedes');
    expect(runIds(close)).toEqual(['run-1', 'run-2', 'run-3']);
    expect(close!.versionId).toBe(threadVersionIdFor('acme:t-1', ['run-1', 'run-2', 'run-3']));
    // Closed and kept for a resume until the state TTL after its last turn.
    expect(state.stats()).toMatchObject({ threads: 1, openThreads: 0, heldTurns: 3 });
    expect(state.nextDeadline()).toBe(t0 + 2 * minute + limits.stateTtlMs);
  });

  it('keeps turns in run-timestamp order, then arrival, whatever order they arrive in', () => {
    const { state, turn } = machine(policies({}));
    turn('run-b', t0, { timestamp: '2026-11-29T12:00:02.000Z' });
    turn('run-a', t0 + 1, { timestamp: '2026-11-29T12:00:01.000Z' });
    turn('run-c1', t0 + 2, { timestamp: '2026-11-29T12:00:03.000Z' });
    turn('run-c0', t0 + 3, { timestamp: '2026-11-29T12:00:03.000Z' });
    expect(runIds(closes(state.advance(t0 + 3 + 15 * minute))[0])).toEqual(['run-a', 'run-b', 'run-c1', 'run-c0']);
  });

  it('recognises a duplicate turn by its run id and does nothing with it', () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0);
    expect(state.isDuplicate({ key: 'acme:t-1', runId: 'run-1' })).toBe(true);
    expect(turn('run-1', t0 + minute)).toEqual([]);
    // The duplicate did not move the idle deadline either.
    expect(state.nextDeadline()).toBe(t0 + 15 * minute);
    expect(runIds(closes(state.advance(t0 + 15 * minute))[0])).toEqual(['run-1']);
  });

  it('closes a conversation that never goes quiet at maxAgeMs from its first turn', () => {
    const { state, turn } = machine(policies({ idleMs: 10 * minute, maxAgeMs: 30 * minute }));
    for (let index = 0; index < 6; index += 1) {
      const at = t0 + index * 5 * minute;
      expect(closes(state.advance(at))).toEqual([]);
      turn(`run-${index}`, at);
    }
    expect(state.nextDeadline()).toBe(t0 + 30 * minute);
    const [close] = closes(state.advance(t0 + 30 * minute));
    expect(close).toMatchObject({ closedBy: 'max_age', version: 1 });
    expect(close!.turns).toHaveLength(6);
  });

  it('expires a closed thread at the state TTL; a turn after that starts a new thread', () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0);
    state.advance(t0 + 15 * minute);
    expect(state.advance(t0 + limits.stateTtlMs)).toEqual([
      { type: 'delete', key: 't:acme:t-1' },
      { type: 'delete', key: 'u:0:acme:t-1' },
    ]);
    expect(state.stats().threads).toBe(0);
    expect(state.nextDeadline()).toBeUndefined();
    turn('run-2', t0 + limits.stateTtlMs + 1);
    expect(closes(state.advance(t0 + 2 * limits.stateTtlMs))[0]).toMatchObject({ version: 1, turns: [{ runId: 'run-2' }] });
  });

  it('keeps the threads of two tenants with the same thread id apart', () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0, { tenantId: 'acme', threadId: '42' });
    turn('run-2', t0, { tenantId: 'globex', threadId: '42' });
    const effects = closes(state.advance(t0 + 15 * minute));
    expect(effects.map((close) => [close.key, runIds(close)])).toEqual([
      ['acme:42', ['run-1']],
      ['globex:42', ['run-2']],
    ]);
  });
});

describe('a resumed conversation', () => {
  it("onResume 'rescore' (default): version 2 holds every turn and supersedes version 1", () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0);
    turn('run-2', t0 + minute);
    const [first] = closes(state.advance(t0 + 16 * minute));
    turn('run-3', t0 + 60 * minute);
    const [second] = closes(state.advance(t0 + 75 * minute));
    expect(second).toMatchObject({ version: 2, scope: 'conversation', supersedes: first!.versionId, closedBy: 'idle' });
    expect(runIds(second)).toEqual(['run-1', 'run-2', 'run-3']);
  });

  it("onResume 'segment': version 2 holds only the turns since the last close, and the closed ones are released", () => {
    const { state, turn } = machine(policies({ onResume: 'segment' }));
    turn('run-1', t0);
    turn('run-2', t0 + minute);
    state.advance(t0 + 16 * minute);
    expect(state.stats().heldTurns).toBe(0);
    turn('run-3', t0 + 60 * minute);
    const [second] = closes(state.advance(t0 + 75 * minute));
    expect(second).toMatchObject({ version: 2, scope: 'segment' });
    expect(second).not.toHaveProperty('supersedes');
    expect(runIds(second)).toEqual(['run-3']);
  });

  it("onResume 'once': a resumed thread is decided rescore_refused, its new turns are not held", () => {
    const { state, turn } = machine(policies({ onResume: 'once' }));
    turn('run-1', t0);
    state.advance(t0 + 15 * minute);
    expect(state.stats().heldTurns).toBe(0);
    turn('run-2', t0 + 30 * minute);
    turn('run-3', t0 + 31 * minute);
    expect(state.stats().heldTurns).toBe(0);
    const effects = state.advance(t0 + 46 * minute);
    expect(kinds(effects)).toEqual(['decision', 'write']);
    expect(decisions(effects)[0]).toMatchObject({ reason: 'rescore_refused', detail: "the thread was scored before and onResume is 'once'", closedBy: 'idle', turns: 2, first: { runId: 'run-2' }, last: { runId: 'run-3' } });
  });

  it('waits minRescoreIntervalMs after the last score before an idle re-score', () => {
    const { state, turn } = machine(policies({ idleMs: 5 * minute, minRescoreIntervalMs: 60 * minute }));
    turn('run-1', t0);
    state.advance(t0 + 5 * minute);
    turn('run-2', t0 + 6 * minute);
    expect(state.nextDeadline()).toBe(t0 + 65 * minute);
    expect(state.advance(t0 + 64 * minute)).toEqual([]);
    // A turn in the wait moves the idle deadline past the interval's end.
    turn('run-3', t0 + 64 * minute);
    expect(state.advance(t0 + 65 * minute)).toEqual([]);
    const [second] = closes(state.advance(t0 + 69 * minute));
    expect(second).toMatchObject({ version: 2, closedBy: 'idle' });
    expect(runIds(second)).toEqual(['run-1', 'run-2', 'run-3']);
  });

  it('does not make an explicit end wait out minRescoreIntervalMs', () => {
    const { state, turn } = machine(policies({ minRescoreIntervalMs: 60 * minute }));
    turn('run-1', t0);
    state.advance(t0 + 15 * minute);
    expect(closes(turn('run-2', t0 + 16 * minute, { metadata: { threadEnded: true } }))[0]).toMatchObject({ version: 2, closedBy: 'ended' });
  });

  it('refuses the re-scores beyond maxRescores, each with a decision', () => {
    const { state, turn } = machine(policies({ maxRescores: 1 }));
    turn('run-1', t0);
    state.advance(t0 + 15 * minute);
    turn('run-2', t0 + 20 * minute);
    expect(closes(state.advance(t0 + 35 * minute))[0]).toMatchObject({ version: 2 });
    turn('run-3', t0 + 40 * minute);
    const effects = state.advance(t0 + 55 * minute);
    expect(closes(effects)).toEqual([]);
    expect(decisions(effects)[0]).toMatchObject({ reason: 'rescore_refused', detail: 'the thread was re-scored 1 time(s), which is maxRescores' });
  });

  it('gives the same version ids to the same turns in a fresh machine, whatever their arrival order (a replay)', () => {
    const first = machine(policies({}));
    first.turn('run-1', t0, { timestamp: '2026-11-29T12:00:01.000Z' });
    first.turn('run-2', t0 + 1, { timestamp: '2026-11-29T12:00:02.000Z' });
    const replay = machine(policies({}));
    replay.turn('run-2', t0 + 5, { timestamp: '2026-11-29T12:00:02.000Z' });
    replay.turn('run-1', t0 + 6, { timestamp: '2026-11-29T12:00:01.000Z' });
    const original = closes(first.state.advance(t0 + 20 * minute))[0]!;
    const replayed = closes(replay.state.advance(t0 + 20 * minute))[0]!;
    expect(replayed.versionId).toBe(original.versionId);
    expect(replayed.turns).toEqual(original.turns);
  });
});

describe('an explicit end', () => {
  it('closes at once on a run marked metadata.threadEnded: true', () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0);
    const effects = turn('run-2', t0 + minute, { metadata: { threadEnded: true } });
    expect(kinds(effects)).toEqual(['write', 'close', 'write']);
    expect(closes(effects)[0]).toMatchObject({ closedBy: 'ended', version: 1, turns: [{ runId: 'run-1' }, { runId: 'run-2' }] });
    expect(state.advance(t0 + 30 * minute)).toEqual([]);
  });

  it('closes at once on an end event without a last run id', () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0);
    const effects = state.applyEnd({ key: 'acme:t-1', threadId: 't-1', tenantId: 'acme' }, t0 + minute);
    expect(closes(effects)[0]).toMatchObject({ closedBy: 'ended', turns: [{ runId: 'run-1' }] });
    expect(kinds(effects)).toEqual(['close', 'write']);
  });

  it('waits for the named last run, which the end event overtook, and closes when it arrives', () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0);
    expect(kinds(state.applyEnd({ key: 'acme:t-1', threadId: 't-1', lastRunId: 'run-2' }, t0 + minute))).toEqual(['write']);
    expect(closes(turn('run-2', t0 + 2 * minute))[0]).toMatchObject({ closedBy: 'ended', turns: [{ runId: 'run-1' }, { runId: 'run-2' }] });
  });

  it('remembers an end that overtook every turn of its thread', () => {
    const { state, turn } = machine(policies({}));
    expect(state.applyEnd({ key: 'acme:t-1', threadId: 't-1' }, t0)).toEqual([]);
    expect(kinds(state.applyEnd({ key: 'acme:t-1', threadId: 't-1', lastRunId: 'run-2' }, t0))).toEqual(['write']);
    expect(closes(turn('run-1', t0 + 1))).toEqual([]);
    expect(closes(turn('run-2', t0 + 2))[0]).toMatchObject({ closedBy: 'ended', turns: [{ runId: 'run-1' }, { runId: 'run-2' }] });
  });

  it('closes by idle if the named last run never arrives', () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0);
    state.applyEnd({ key: 'acme:t-1', threadId: 't-1', lastRunId: 'run-9' }, t0 + minute);
    expect(closes(state.advance(t0 + 15 * minute))[0]).toMatchObject({ closedBy: 'idle' });
  });
});

describe('bounds: decided, never dropped', () => {
  it('closes a thread at once when a version reaches maxTurns; under rescore it is then full and resumes are refused', () => {
    const { state, turn } = machine(policies({ maxTurns: 3 }));
    turn('run-1', t0);
    turn('run-2', t0 + 1);
    const effects = turn('run-3', t0 + 2);
    expect(closes(effects)[0]).toMatchObject({ closedBy: 'max_turns', version: 1, turns: [{ runId: 'run-1' }, { runId: 'run-2' }, { runId: 'run-3' }] });
    expect(state.stats().heldTurns).toBe(0);
    turn('run-4', t0 + 3);
    expect(decisions(state.advance(t0 + 3 + 15 * minute))[0]).toMatchObject({ reason: 'rescore_refused', turns: 1, detail: expect.stringContaining('full') });
  });

  it("under onResume 'segment', maxTurns cuts the conversation into segments", () => {
    const { state, turn } = machine(policies({ maxTurns: 2, onResume: 'segment' }));
    const all = ['run-1', 'run-2', 'run-3', 'run-4'].flatMap((runId, index) => closes(turn(runId, t0 + index)));
    expect(all.map((close) => [close.version, close.scope, runIds(close)])).toEqual([
      [1, 'conversation', ['run-1', 'run-2']],
      [2, 'segment', ['run-3', 'run-4']],
    ]);
    expect(state.stats().heldTurns).toBe(0);
  });

  it('closes a thread whose turns reach threads.maxThreadBytes (max_bytes) and takes no re-score of it', () => {
    const probe = entryOf({ runId: 'run-1' });
    const { state, turn } = machine(policies({}), { maxThreadBytes: probe.bytes * 2 });
    turn('run-1', t0);
    const effects = turn('run-2', t0 + 1);
    expect(closes(effects)[0]).toMatchObject({ closedBy: 'max_bytes', turns: [{ runId: 'run-1' }, { runId: 'run-2' }] });
    expect(state.stats().bytes).toBe(0);
    turn('run-3', t0 + 2);
    expect(decisions(state.advance(t0 + 2 + 15 * minute))[0]).toMatchObject({ reason: 'rescore_refused' });
  });

  it('at maxThreads, a new thread closes the least recently active one (overflow) and forgets it', () => {
    const { state, turn } = machine(policies({}), { maxThreads: 2 });
    turn('run-a1', t0, { threadId: 'a' });
    turn('run-b1', t0 + 1, { threadId: 'b' });
    turn('run-a2', t0 + 2, { threadId: 'a' });
    const effects = turn('run-c1', t0 + 3, { threadId: 'c' });
    expect(kinds(effects)).toEqual(['close', 'delete', 'delete', 'write', 'write']);
    expect(closes(effects)[0]).toMatchObject({ key: 'acme:b', closedBy: 'overflow', turns: [{ runId: 'run-b1' }] });
    expect(effects.slice(1, 3)).toEqual([{ type: 'delete', key: 't:acme:b' }, { type: 'delete', key: 'u:0:acme:b' }]);
    expect(state.stats().threads).toBe(2);
    // Its history is gone: a resume starts over, superseding nothing.
    turn('run-b2', t0 + 4, { threadId: 'b' });
    const resumed = closes(state.advance(t0 + 4 + 15 * minute)).find((close) => close.key === 'acme:b');
    expect(resumed).toMatchObject({ version: 1, turns: [{ runId: 'run-b2' }] });
    expect(resumed).not.toHaveProperty('supersedes');
  });

  it('over threads.maxStateBytes, the least recently active threads close until the state fits', () => {
    const probe = entryOf({ runId: 'run-a1', threadId: 'a' });
    const { state, turn } = machine(policies({}), { maxStateBytes: probe.bytes * 2 + 10, maxThreadBytes: probe.bytes * 2 + 10 });
    turn('run-a1', t0, { threadId: 'a' });
    turn('run-b1', t0 + 1, { threadId: 'b' });
    const effects = turn('run-c1', t0 + 2, { threadId: 'c' });
    expect(kinds(effects)).toEqual(['write', 'write', 'close', 'delete', 'delete']);
    expect(closes(effects)[0]).toMatchObject({ key: 'acme:a', closedBy: 'overflow' });
    expect(state.stats().bytes).toBeLessThanOrEqual(probe.bytes * 2 + 10);
  });
});

describe('the instance budget shared by its partitions', () => {
  it('bounds the held turns of every partition together: a partition over the sum closes its own least recently active threads, and a cleared one returns its bytes', () => {
    const probe = entryOf({ runId: 'run-a1', threadId: 'a' });
    const budget = new StateBudget(probe.bytes * 3 + 10);
    const one = machine(policies({}), { maxThreadBytes: probe.bytes * 2 }, undefined, budget);
    const two = machine(policies({}), { maxThreadBytes: probe.bytes * 2 }, undefined, budget);
    one.turn('run-a1', t0, { threadId: 'a' });
    one.turn('run-b1', t0 + 1, { threadId: 'b' });
    expect(budget.used).toBe(2 * probe.bytes);
    // Partition two's first thread fits the sum; its second does not: it closes its own oldest.
    expect(closes(two.turn('run-c1', t0 + 2, { threadId: 'c' }))).toEqual([]);
    const effects = two.turn('run-d1', t0 + 3, { threadId: 'd' });
    expect(closes(effects)).toEqual([expect.objectContaining({ key: 'acme:c', closedBy: 'overflow' })]);
    expect(one.state.stats()).toMatchObject({ threads: 2, bytes: 2 * probe.bytes });
    expect(two.state.stats()).toMatchObject({ threads: 1, bytes: probe.bytes });
    expect(budget.used).toBeLessThanOrEqual(budget.maxBytes);
    // The claim of partition one ends: its bytes go back, and partition two has room again.
    one.state.clear();
    expect(budget.used).toBe(probe.bytes);
    expect(closes(two.turn('run-e1', t0 + 4, { threadId: 'e' }))).toEqual([]);
    expect(budget.used).toBe(2 * probe.bytes);
  });
});

describe('bindings', () => {
  it('decides a binding once per thread on its first turn: an unsampled thread gets decisions at its closes and holds no turn', () => {
    const list = policies({});
    const { state, turn } = machine(list, {}, { eligible: false, reason: 'sampling', sampling: { rate: 0.1, bucket: 0.7 } });
    turn('run-1', t0);
    turn('run-2', t0 + 1);
    expect(state.stats()).toMatchObject({ heldTurns: 0, bytes: 0 });
    const effects = state.advance(t0 + 1 + 15 * minute);
    expect(decisions(effects)).toEqual([
      expect.objectContaining({ reason: 'sampling', sampling: { rate: 0.1, bucket: 0.7 }, turns: 2, first: expect.objectContaining({ runId: 'run-1' }), last: expect.objectContaining({ runId: 'run-2', source: { topic: 'agent-runs', partition: 1, offset: '0' } }) }),
    ]);
    // A later turn needs no admission: the decision was kept.
    expect(state.missingAdmissions('acme:t-1')).toEqual([]);
  });

  it('closes each binding on its own clock and keeps the turns until the last binding needs them no more', () => {
    const list = policies({ id: 'fast', idleMs: 5 * minute, onResume: 'segment' }, { id: 'slow', idleMs: 30 * minute, onResume: 'segment' });
    const { state, turn } = machine(list);
    turn('run-1', t0);
    const early = closes(state.advance(t0 + 5 * minute));
    expect(early.map((close) => close.scorerId)).toEqual(['fast']);
    expect(state.stats().heldTurns).toBe(1);
    const late = closes(state.advance(t0 + 30 * minute));
    expect(late.map((close) => close.scorerId)).toEqual(['slow']);
    expect(state.stats().heldTurns).toBe(0);
  });

  it('refuses a turn of a new thread without its admissions, naming what to do', () => {
    const state = createThreadState({ policies: policies({}), limits });
    expect(() => state.applyTurn(entryOf({ runId: 'run-1' }), t0)).toThrow(expect.objectContaining({ code: 'thread_admission_missing', message: expect.stringContaining('missingAdmissions') }));
  });
});

/** A compacted changelog topic: every write and tombstone applied in order, the last per key kept. */
function changelog() {
  const records = new Map<string, string | null>();
  return {
    records,
    take(effects: ThreadEffect[]): ThreadEffect[] {
      for (const effect of effects) {
        if (effect.type === 'write') records.set(effect.key, effect.value);
        if (effect.type === 'delete') records.set(effect.key, null);
      }
      return effects;
    },
    /** A fresh state restored from these records, as a new owner of the partition would. */
    restoreInto(list: ThreadPolicy[]) {
      const restored = createThreadState({ policies: list, limits });
      for (const [key, value] of records) expect(restored.restore(key, value)).toEqual({ restored: true });
      const result = restored.finishRestore();
      return { restored, result };
    },
  };
}

const live = (records: Map<string, string | null>) => [...records].filter(([, value]) => value !== null).map(([key]) => key).sort();

describe('the changelog', () => {
  it('writes a turn once, under its own key, before the thread record that lists it; a released turn gets a tombstone after', () => {
    const { state, turn } = machine(policies({ onResume: 'segment' }));
    expect(turn('run-1', t0).map((effect) => [effect.type, 'key' in effect ? effect.key : undefined])).toEqual([
      ['write', 'u:0:acme:t-1'],
      ['write', 't:acme:t-1'],
    ]);
    expect(turn('run-2', t0 + 1).map((effect) => 'key' in effect && effect.key)).toEqual(['u:1:acme:t-1', 't:acme:t-1']);
    expect(state.advance(t0 + 1 + 15 * minute).map((effect) => [effect.type, 'key' in effect ? effect.key : undefined])).toEqual([
      ['close', 'acme:t-1'],
      ['write', 't:acme:t-1'],
      ['delete', 'u:0:acme:t-1'],
      ['delete', 'u:1:acme:t-1'],
    ]);
  });

  it('restores a thread from its records: same deadline, same close, same version id', () => {
    const list = policies({});
    const log = changelog();
    const { state, turn } = machine(list);
    log.take(turn('run-1', t0));
    log.take(turn('run-2', t0 + minute));
    const { restored, result } = log.restoreInto(list);
    expect(result).toEqual({ effects: [], problems: [] });
    expect(restored.nextDeadline()).toBe(state.nextDeadline());
    expect(restored.isDuplicate({ key: 'acme:t-1', runId: 'run-1' })).toBe(true);
    expect(restored.stats()).toEqual(state.stats());
    expect(closes(restored.advance(t0 + 16 * minute))).toEqual(closes(state.advance(t0 + 16 * minute)));
  });

  it('restores a thread scored before, so that a resume is version 2 and released run ids are still duplicates', () => {
    const list = policies({ onResume: 'segment' });
    const log = changelog();
    const { state, turn } = machine(list);
    log.take(turn('run-1', t0));
    log.take(state.advance(t0 + 15 * minute));
    expect(live(log.records)).toEqual(['t:acme:t-1']);
    const { restored } = log.restoreInto(list);
    const entry = entryOf({ runId: 'run-1' });
    expect(restored.applyTurn(entry, t0 + 20 * minute)).toEqual([]);
    restored.applyTurn(entryOf({ runId: 'run-2' }), t0 + 20 * minute);
    expect(closes(restored.advance(t0 + 35 * minute))[0]).toMatchObject({ version: 2, scope: 'segment', turns: [{ runId: 'run-2' }] });
  });

  it('re-arms a restored thread from its stored last activity: a restart after the deadline closes at once', () => {
    const list = policies({});
    const log = changelog();
    log.take(machine(list).turn('run-1', t0));
    const { restored } = log.restoreInto(list);
    expect(restored.nextDeadline()).toBe(t0 + 15 * minute);
    expect(closes(restored.advance(t0 + 50 * minute))[0]).toMatchObject({ closedBy: 'idle', turns: [{ runId: 'run-1' }] });
  });

  it('keeps only the live threads and their held turns: expiry and overflow leave tombstones', () => {
    const list = policies({});
    const log = changelog();
    const { state, turn } = machine(list, { maxThreads: 1 });
    log.take(turn('run-a1', t0, { threadId: 'a' }));
    log.take(turn('run-b1', t0 + 1, { threadId: 'b' }));
    expect(live(log.records)).toEqual(['t:acme:b', 'u:0:acme:b']);
    log.take(state.advance(t0 + 1 + limits.stateTtlMs));
    expect(live(log.records)).toEqual([]);
  });

  it('deletes turn records no thread lists (a crash between writes), drops removed bindings, reports a damaged record', () => {
    const list = policies({ id: 'kept' }, { id: 'removed', onResume: 'segment' });
    const log = changelog();
    log.take(machine(list).turn('run-1', t0));
    // A turn written just before a crash, its thread record never written; and one of a thread that has none.
    log.records.set('u:1:acme:t-1', 'lost turn');
    log.records.set('u:0:acme:t-9', 'orphan');
    const fewer = createThreadState({ policies: [list[0]!, ...policies({ id: 'added' })], limits });
    for (const [key, value] of log.records) fewer.restore(key, value);
    const { effects, problems } = fewer.finishRestore();
    expect(problems).toEqual([]);
    expect(effects).toEqual([
      { type: 'delete', key: 'u:1:acme:t-1' },
      { type: 'delete', key: 'u:0:acme:t-9' },
    ]);
    expect(fewer.missingAdmissions('acme:t-1').map((policy) => policy.scorerId)).toEqual(['added']);
    expect(closes(fewer.advance(t0 + 15 * minute)).map((close) => close.scorerId)).toEqual(['kept']);

    const damaged = createThreadState({ policies: list, limits });
    expect(damaged.restore('acme:t-1', '{}')).toMatchObject({ restored: false, problem: expect.stringContaining('not a thread state key') });
    damaged.restore('t:acme:t-1', '{"schemaVersion":1');
    damaged.restore('t:acme:t-2', '{"schemaVersion":2}');
    damaged.restore('t:acme:t-3', log.records.get('t:acme:t-1')!);
    expect(damaged.finishRestore().problems).toEqual([
      { key: 't:acme:t-1', problem: expect.stringContaining('not JSON') },
      { key: 't:acme:t-2', problem: expect.stringContaining('schemaVersion') },
      { key: 't:acme:t-3', problem: expect.stringContaining('has no record u:0:acme:t-1') },
    ]);
    expect(damaged.stats().threads).toBe(0);
  });

  it('applies a tombstone of a thread over the thread the state holds', () => {
    const list = policies({});
    const { state, turn } = machine(list);
    turn('run-1', t0);
    state.restore('t:acme:t-1', null);
    state.finishRestore();
    expect(state.stats().threads).toBe(0);
  });

  it('forgets everything on clear (the claim ended), ready to restore again', () => {
    const { state, turn } = machine(policies({}));
    turn('run-1', t0);
    state.clear();
    expect(state.stats()).toEqual({ threads: 0, openThreads: 0, heldTurns: 0, bytes: 0 });
    expect(state.nextDeadline()).toBeUndefined();
    expect(state.advance(t0 + 100 * minute)).toEqual([]);
  });
});

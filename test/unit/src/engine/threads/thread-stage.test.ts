// ThreadStage: the transport-free thread stage, end to end — decoded messages and a hand-driven
// clock in; score records, decision records and changelog writes out.
import { describe, expect, it } from 'vitest';
import type { ThreadsConfig } from '../../../../../src/engine/threads/threads-schema.ts';
import { parseDecisionRecord, parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { decodeThreadMessage } from '../../../../../src/engine/threads/decode-thread-message.ts';
import { threadCloseOutcome } from '../../../../../src/engine/threads/score-thread-close.ts';
import { createThreadStage } from '../../../../../src/engine/threads/thread-stage.ts';
import type { ThreadOutcome, ThreadStage } from '../../../../../src/engine/threads/thread-stage.ts';
import { settleOutcomes } from '../../../../../src/engine/pipeline/scoring-outcome.ts';
import { threadRunOf } from '../../../../../src/kit/scorer/thread-run.ts';
import { runScore, threadBindings, turnOf } from './fixtures.ts';
import type { ConversationRunOptions } from './fixtures.ts';

const minute = 60_000;
const t0 = Date.parse('2026-11-29T12:00:00.000Z');
const threads: ThreadsConfig = { maxThreads: 100, maxStateBytes: 10_000_000, maxThreadBytes: 1_000_000, maxTurnBytes: 65_536, stateTtlMs: 24 * 60 * minute };

/** The thread scorer of these tests: the mean of the turns' completeness scores. */
const meanCompleteness = createScorer({ id: 'mean-completeness', description: 'd' }).generateScore(({ run }) => {
  const scores = threadRunOf(run)!.turns.flatMap((turn) => turn.runScores.filter((score) => score.scorerId === 'completeness').map((score) => score.score ?? 0));
  return scores.reduce((sum, score) => sum + score, 0) / scores.length;
});

function harness(bindings = threadBindings({ scorer: meanCompleteness })) {
  const clock = { now: t0 };
  const changelog = new Map<string, string | null>();
  const stage = createThreadStage({ bindings, threads, now: () => clock.now });
  // The job runner's part (consumers/perform-job.ts): each close's work scored, or its decision taken.
  const settle = async (outcome: Promise<ThreadOutcome>) => {
    const { changelog: writes, closes } = await outcome;
    const { records, decisions } = await settleOutcomes(closes.map((work) => threadCloseOutcome(work, { bindings, now: () => clock.now })));
    const scored = { records, decisions };
    for (const write of writes) changelog.set(write.key, write.value);
    return scored;
  };
  /** The run path scored the run (completeness) and re-keyed its turn; the stage reads it off the topic. */
  const send = (options: ConversationRunOptions & { completeness?: number }) => {
    const { json } = turnOf(options, { records: [runScore(options.runId, 'completeness', options.completeness ?? 1)], decisions: [] });
    const decoded = decodeThreadMessage(Buffer.from(json));
    if (!decoded.success || decoded.data.kind !== 'turn') throw new Error('not a turn');
    return settle(stage.turn(decoded.data.turn, decoded.data.json));
  };
  const tick = (at: number) => {
    clock.now = at;
    return settle(stage.advance());
  };
  return { stage, clock, changelog, send, tick, settle };
}

function restoredFrom(changelog: Map<string, string | null>, stage: ThreadStage): void {
  for (const [key, value] of changelog) expect(stage.restore(key, value)).toEqual({ restored: true });
  expect(stage.restored()).toEqual({ changelog: [], problems: [] });
}

describe('ThreadStage', () => {
  it('scores a conversation after its idle gap, from the run scores its turns carried', async () => {
    const { send, tick, changelog, stage } = harness();
    expect(await send({ runId: 'run-1', completeness: 0.5 })).toEqual({ records: [], decisions: [] });
    expect([...changelog.keys()]).toEqual(['u:0:acme:t-1', 't:acme:t-1']);
    await send({ runId: 'run-2', completeness: 1 });
    expect(stage.nextDeadline()).toBe(t0 + 15 * minute);
    const { records } = await tick(t0 + 15 * minute);
    expect(records).toHaveLength(1);
    expect(parseScoreRecord(records[0]).success).toBe(true);
    expect(records[0]).toMatchObject({ status: 'scored', score: 0.75, runId: 'run-2', thread: { version: 1, turns: 2, closedBy: 'idle' } });
  });

  it('re-scores a resumed conversation as version 2 superseding version 1, and survives a crash with the same ids', async () => {
    const first = harness();
    await first.send({ runId: 'run-1', completeness: 0.5 });
    const v1 = (await first.tick(t0 + 15 * minute)).records[0] as { scoreId: string; thread: { versionId: string } };
    first.clock.now = t0 + 60 * minute;
    await first.send({ runId: 'run-2', completeness: 1 });

    // Crash: a new member restores the partition from the changelog and its timer is re-armed.
    const second = harness();
    restoredFrom(first.changelog, second.stage);
    expect(second.stage.nextDeadline()).toBe(t0 + 75 * minute);
    const v2 = (await second.tick(t0 + 75 * minute)).records[0];
    expect(v2).toMatchObject({ score: 0.75, thread: { version: 2, supersedes: v1.thread.versionId, turns: 2 } });

    // The first member, had it lived, would have written the very same record.
    const survivor = (await first.tick(t0 + 75 * minute)).records[0] as { scoreId: string };
    expect(survivor.scoreId).toBe((v2 as { scoreId: string }).scoreId);
    expect(survivor.scoreId).not.toBe(v1.scoreId);
  });

  it('ignores a redelivered turn: no second version, no write', async () => {
    const { send, tick, changelog } = harness();
    await send({ runId: 'run-1' });
    changelog.clear();
    expect(await send({ runId: 'run-1' })).toEqual({ records: [], decisions: [] });
    expect(changelog.size).toBe(0);
    expect((await tick(t0 + 15 * minute)).records).toHaveLength(1);
  });

  it('publishes a decision for every close of a thread its binding did not sample', async () => {
    const { send, tick } = harness(threadBindings({ scorer: meanCompleteness, sampling: { type: 'ratio', rate: 0 } }));
    await send({ runId: 'run-1' });
    const { records, decisions } = await tick(t0 + 15 * minute);
    expect(records).toEqual([]);
    expect(decisions).toEqual([expect.objectContaining({ reason: 'sampling', runId: 'run-1', thread: expect.objectContaining({ key: 'acme:t-1', turns: 1, closedBy: 'idle' }) })]);
    expect(parseDecisionRecord(decisions[0]).success).toBe(true);
  });

  it('applies calls in the order they were made, even while a new thread waits for its admission', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { stage, settle } = harness(threadBindings({ scorer: meanCompleteness, when: async () => (await gate, true) }));
    const { turn, json } = turnOf({ runId: 'run-1' }, { records: [runScore('run-1', 'completeness', 0.4)], decisions: [] });
    const turned = settle(stage.turn(turn, json));
    const ended = settle(stage.end({ schemaVersion: 1, type: 'agent.thread.ended', threadId: 't-1', tenantId: 'acme', timestamp: '2026-11-29T12:01:00.000Z' }, 'acme:t-1'));
    release();
    expect((await turned).records).toEqual([]);
    expect((await ended).records).toEqual([expect.objectContaining({ score: 0.4, thread: expect.objectContaining({ closedBy: 'ended' }) })]);
  });

  it('applies nothing that was queued when the claim ends (clear)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { stage } = harness(threadBindings({ scorer: meanCompleteness, when: async () => (await gate, true) }));
    const { turn, json } = turnOf({ runId: 'run-1' });
    const pending = stage.turn(turn, json);
    stage.clear();
    release();
    expect((await pending).effects).toEqual([]);
    expect(stage.stats().threads).toBe(0);
  });

  it('reports a changelog record it cannot restore rather than trusting it, and deletes orphan turns', () => {
    const { stage } = harness();
    expect(stage.restore('acme:t-1', 'not json')).toMatchObject({ restored: false });
    stage.restore('t:acme:t-1', 'not json');
    stage.restore('u:0:acme:t-2', 'an orphan turn');
    expect(stage.restored()).toEqual({ changelog: [{ key: 'u:0:acme:t-2', value: null }], problems: [{ key: 't:acme:t-1', problem: expect.stringContaining('not JSON') }] });
    expect(stage.stats().threads).toBe(0);
  });
});

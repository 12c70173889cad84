// Helpers of the thread tests on a real broker (docs/threads.md): the turns of a conversation as
// messages for the runs topic, its explicit end, and the thread scores read back from the results.
import { onTestFinished } from 'vitest';
import { threadTopicsFor } from '../../../src/engine/topology/thread-topics.ts';
import type { ThreadTopics } from '../../../src/engine/topology/thread-topics.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { THREAD_ENDED_SCHEMA_VERSION, THREAD_ENDED_TYPE } from '../../../src/kit/contracts/thread-ended.ts';
import type { ThreadEndedEventInput } from '../../../src/kit/contracts/thread-ended.ts';
import { THREAD_TURN_TYPE } from '../../../src/kit/contracts/thread-turn.ts';
import { testKafka } from '../../helpers/kafka.ts';
import { readAll } from '../../helpers/read-all.ts';
import type { Isolation } from '../../helpers/read-all.ts';
import { traceFor } from '../../helpers/runs.ts';
import { readUntil, useServiceTopics } from '../../helpers/service.ts';
import type { RawRun, ServiceTopics } from '../../helpers/service.ts';
import { conversationRunInput } from '../../unit/src/engine/threads/fixtures.ts';

export type ThreadScore = ScoreRecord & { thread: NonNullable<ScoreRecord['thread']> };

const base = Date.parse('2026-12-01T10:00:00.000Z');

/** A turn of `threadId` (its messages carry it), `index` minutes into the conversation; `metadata` e.g. `{ threadEnded: true }`. */
export function turn(threadId: string, index: number, options: { runId?: string; metadata?: Record<string, unknown> } = {}): RawRun {
  const runId = options.runId ?? `${threadId}-run-${index}`;
  const timestamp = new Date(base + index * 60_000).toISOString();
  const run = conversationRunInput({ runId, threadId, tenantId: 'acme', timestamp, answer: `Answer ${index} of ${threadId}: ${'x'.repeat(10 * index)}`, ...(options.metadata === undefined ? {} : { metadata: options.metadata }) });
  return { key: runId, value: JSON.stringify(run), headers: { traceparent: traceFor(runId).traceparent } };
}

/** An `agent.thread.ended` event for the runs topic (ThreadEnded v1), of tenant acme like turn()'s. */
export function threadEnded(threadId: string, fields: Partial<Pick<ThreadEndedEventInput, 'lastRunId' | 'reason'>> = {}): RawRun {
  const event: ThreadEndedEventInput = { schemaVersion: THREAD_ENDED_SCHEMA_VERSION, type: THREAD_ENDED_TYPE, threadId, tenantId: 'acme', timestamp: new Date(base).toISOString(), ...fields };
  return { key: `end-${threadId}`, value: JSON.stringify(event) };
}

export const isThreadScore = (record: ScoreRecord): record is ThreadScore => record.thread !== undefined;

/** Reads the results topic (read_committed) until `done` holds for its thread scores; returns them. */
export async function threadScores(results: string, done: (scores: ThreadScore[]) => boolean, timeoutMs = 60_000): Promise<ThreadScore[]> {
  const records = await readUntil<ScoreRecord>(results, (all) => done(all.filter(isThreadScore)), timeoutMs);
  return records.filter(isThreadScore);
}

/**
 * The run ids of the turns the thread state changelog `stateTopic` holds (turn records `u:…`, whose
 * values are the ThreadTurns as they came; tombstones read as null), read at `isolation`: which
 * turns a partition's state would be restored with.
 */
export async function changelogTurnRunIds(stateTopic: string, isolation: Isolation): Promise<Set<string>> {
  const records = await readAll<{ type?: string; run?: { runId?: string } } | null>(stateTopic, { isolation });
  return new Set(records.flatMap((record) => (record?.type === THREAD_TURN_TYPE && record.run?.runId !== undefined ? [record.run.runId] : [])));
}

/**
 * The thread topics the service creates for the runs topic `runs` (`{runs}-by-thread`,
 * `{runs}-thread-state`, `{runs}-thread-scores`), deleted after the test as useServiceTopics
 * deletes the others.
 */
export function useThreadTopics(runs: string): ThreadTopics {
  const topics = threadTopicsFor(runs);
  onTestFinished(async () => {
    const admin = testKafka('scorestream-test-admin').admin();
    try {
      await admin.connect();
      const existing = new Set(await admin.listTopics());
      const names = Object.values(topics).filter((topic) => existing.has(topic));
      if (names.length > 0) await admin.deleteTopics({ topics: names, timeout: 10_000 });
    } catch (error) {
      console.warn(`useThreadTopics: could not delete the thread topics of ${runs}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await admin.disconnect();
    }
  });
  return topics;
}

/** useServiceTopics, and the thread topics the service will create for them deleted after the test too. */
export async function useThreadServiceTopics(partitions: number): Promise<ServiceTopics> {
  const topics = await useServiceTopics(partitions);
  useThreadTopics(topics.runs);
  return topics;
}

// Thread runs for the built-in thread scorer tests: what scoreThreadClose hands a thread scorer,
// built from conversation turns the way the service builds it.
import { threadVersionIdFor } from '../../../../../src/kit/contracts/thread-ids.ts';
import type { ThreadVersion } from '../../../../../src/kit/contracts/thread-ref.ts';
import type { RunScoring } from '../../../../../src/engine/threads/build-thread-turn.ts';
import { buildThreadScorerInput } from '../../../../../src/engine/threads/thread-scorer-input.ts';
import type { ThreadScorerRun } from '../../../../../src/kit/scorer/thread-run.ts';
import { noScoring, turnOf } from '../../engine/threads/fixtures.ts';
import type { ConversationRunOptions } from '../../engine/threads/fixtures.ts';

export type TurnSpec = Omit<ConversationRunOptions, 'runId'> & { runId?: string; scoring?: RunScoring };

export function threadRun(specs: readonly TurnSpec[], version: Partial<ThreadVersion> = {}): ThreadScorerRun {
  const turns = specs.map((spec, index) => {
    const { scoring, ...options } = spec;
    const runId = options.runId ?? `run-${index + 1}`;
    return turnOf({ ...options, runId, timestamp: options.timestamp ?? new Date(Date.parse('2026-11-29T12:00:00.000Z') + index * 60_000).toISOString() }, scoring ?? noScoring).turn;
  });
  const runIds = turns.map((turn) => turn.run.runId);
  return buildThreadScorerInput(
    { id: 't-1', key: 'acme:t-1', turns: turns.length, firstRunId: runIds[0]!, lastRunId: runIds.at(-1)!, closedBy: 'idle', version: 1, versionId: threadVersionIdFor('acme:t-1', runIds), scope: 'conversation', ...version },
    turns,
  );
}

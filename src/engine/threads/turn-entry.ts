// What the thread state keeps of a turn: the few fields it orders, deduplicates, bounds and
// explains decisions by, beside the turn's JSON text. The text is kept as it came (it was parsed
// and validated at the edge), so holding a turn costs about its size, a changelog write does not
// serialise it again, and a close parses only the turns it scores.
import type { Entity, Source } from '../../kit/contracts/common.ts';
import type { ThreadTurn, TurnTrace } from '../../kit/contracts/thread-turn.ts';

/** Where a turn came from, its trace and its run's agent or workflow: what a decision record about it needs. */
export type TurnAnchor = { runId: string; timestampMs: number; source: Source; trace: TurnTrace; entity?: Entity };

export type TurnEntry = {
  key: string;
  threadId: string;
  tenantId?: string;
  runId: string;
  timestampMs: number;
  /** The run said it was the conversation's last. */
  ended: boolean;
  json: string;
  /** UTF-8 size of `json`. */
  bytes: number;
  anchor: TurnAnchor;
};

/** `json` must be the text `turn` was parsed from. */
export function turnEntryOf(turn: ThreadTurn, json: string): TurnEntry {
  const timestampMs = Date.parse(turn.run.timestamp);
  return {
    key: turn.thread.key,
    threadId: turn.thread.id,
    ...(turn.thread.tenantId === undefined ? {} : { tenantId: turn.thread.tenantId }),
    runId: turn.run.runId,
    timestampMs,
    ended: turn.ended === true,
    json,
    bytes: Buffer.byteLength(json, 'utf8'),
    anchor: { runId: turn.run.runId, timestampMs, source: turn.source, trace: turn.trace, entity: turn.run.entity },
  };
}

// "Why is there no score for this run?": per run id, every score record and skip decision seen,
// as short entries. Bounded: at most `maxRuns` runs (the least recently touched go first) and
// `maxEntriesPerRun` entries each.
import type { RescoreMark } from '../src/kit/contracts/rescore-request.ts';

export type RunEntry =
  /** `rescore`: the record is a re-score (docs/feedback.md, re-scoring), shown beside the judged score it revisits. */
  | { kind: 'score'; scoreId: string; scorer: string; status: string; score?: number; detail: string; at: number; rescore?: RescoreMark }
  | { kind: 'decision'; scorer: string; reason: string; detail?: string; at: number };

export class RunIndex {
  private readonly runs = new Map<string, RunEntry[]>();

  readonly maxRuns: number;
  readonly maxEntriesPerRun: number;
  constructor(maxRuns: number, maxEntriesPerRun: number) {
    this.maxRuns = maxRuns;
    this.maxEntriesPerRun = maxEntriesPerRun;
  }

  add(runId: string, entry: RunEntry): void {
    const entries = this.runs.get(runId) ?? [];
    this.runs.delete(runId);
    const duplicate = entries.findIndex((known) => sameEntry(known, entry));
    if (duplicate >= 0) entries[duplicate] = entry;
    else if (entries.length < this.maxEntriesPerRun) entries.push(entry);
    this.runs.set(runId, entries);
    if (this.runs.size > this.maxRuns) this.runs.delete(this.runs.keys().next().value as string);
  }

  get(runId: string): RunEntry[] | undefined {
    return this.runs.get(runId);
  }

  get size(): number {
    return this.runs.size;
  }
}

function sameEntry(a: RunEntry, b: RunEntry): boolean {
  if (a.kind === 'score' && b.kind === 'score') return a.scoreId === b.scoreId;
  if (a.kind === 'decision' && b.kind === 'decision') return a.scorer === b.scorer && a.reason === b.reason;
  return false;
}

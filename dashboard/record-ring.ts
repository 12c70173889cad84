// The most recent score records, whole (the detail view needs their steps and judge evidence),
// bounded by count and by their size on the wire, oldest out first. A record arriving again with
// the same scoreId (a re-run after a crash) replaces the one kept.
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import type { RecordSummary } from './record-summary.ts';

export type RingEntry = { record: ScoreRecord; summary: RecordSummary; bytes: number };

export class RecordRing {
  private readonly entries = new Map<string, RingEntry>();
  private totalBytes = 0;

  readonly maxRecords: number;
  readonly maxBytes: number;
  constructor(maxRecords: number, maxBytes: number) {
    this.maxRecords = maxRecords;
    this.maxBytes = maxBytes;
  }

  add(entry: RingEntry): void {
    const previous = this.entries.get(entry.summary.scoreId);
    if (previous !== undefined) {
      this.totalBytes -= previous.bytes;
      this.entries.delete(entry.summary.scoreId);
    }
    this.entries.set(entry.summary.scoreId, entry);
    this.totalBytes += entry.bytes;
    while (this.entries.size > this.maxRecords || (this.totalBytes > this.maxBytes && this.entries.size > 1)) {
      const [oldestId, oldest] = this.entries.entries().next().value as [string, RingEntry];
      this.entries.delete(oldestId);
      this.totalBytes -= oldest.bytes;
    }
  }

  get(scoreId: string): RingEntry | undefined {
    return this.entries.get(scoreId);
  }

  /** The newest `limit` summaries, oldest first. */
  recent(limit: number): RecordSummary[] {
    const all = [...this.entries.values()];
    return all.slice(Math.max(0, all.length - limit)).map((entry) => entry.summary);
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }
}

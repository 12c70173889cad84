// read_committed for one partition across fetches. A fetch under read_committed brings the
// records up to the last stable offset and, beside them, the aborted transactions that overlap
// them (producer id and first offset); the ABORT marker that ends such a transaction may come in
// this fetch or in a later one. @platformatic/kafka's own filter drops an aborted transaction's
// records only when its marker is in the same response, so a reader fetching small pieces would
// deliver them (seen with one record batch per fetch). This filter keeps, per partition, every
// aborted transaction noted and not yet ended by a marker of its producer, and drops a data batch
// of that producer at or after the transaction's first offset — the rule of Kafka's own consumer.
import { IS_CONTROL, IS_TRANSACTIONAL } from '@platformatic/kafka';
import type { RecordsBatch } from '@platformatic/kafka';

/** An aborted transaction as the fetch response lists it. */
export type AbortedTransaction = { readonly producerId: bigint; readonly firstOffset: bigint };

/** What of a record batch the filter reads (a test hand-makes these). */
export type FilteredBatch = Pick<RecordsBatch, 'firstOffset' | 'lastOffsetDelta' | 'attributes' | 'producerId'>;

export type AbortedTransactionFilter = {
  /**
   * The data batches of one fetch's `batches` (in offset order) that a read_committed reader
   * sees: transaction markers are dropped, and so are the batches of aborted transactions.
   * `aborted` is the fetch's list of aborted transactions for the partition.
   */
  committedBatches<Batch extends FilteredBatch>(batches: readonly Batch[], aborted: readonly AbortedTransaction[] | null | undefined): Batch[];
  /** Forgets every noted transaction: the read jumped (its start was deleted) and the next fetch lists them again. */
  reset(): void;
  /** Aborted transactions noted whose marker has not been read yet. */
  readonly openAborted: number;
};

export const lastOffsetOf = (batch: Pick<RecordsBatch, 'firstOffset' | 'lastOffsetDelta'>): bigint => batch.firstOffset + BigInt(batch.lastOffsetDelta);

export function createAbortedTransactionFilter(): AbortedTransactionFilter {
  /** Per producer, the first offsets of its aborted transactions not yet ended by a marker, ascending. */
  const open = new Map<bigint, bigint[]>();

  const note = (aborted: readonly AbortedTransaction[]) => {
    for (const { producerId, firstOffset } of aborted) {
      const starts = open.get(producerId) ?? [];
      // A transaction whose marker lies past this fetch is listed again by the next one.
      if (starts.includes(firstOffset)) continue;
      starts.push(firstOffset);
      starts.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
      open.set(producerId, starts);
    }
  };

  // A marker (ABORT or COMMIT) ends its producer's transaction, and a producer has one open at a
  // time: every aborted transaction of it that began at or before the marker has ended. (A COMMIT
  // marker finding one open means its ABORT marker was cleaned away; keeping the entry would hide
  // committed records.)
  const endTransactions = (marker: FilteredBatch) => {
    const starts = open.get(marker.producerId);
    if (starts === undefined) return;
    const remaining = starts.filter((start) => start > lastOffsetOf(marker));
    if (remaining.length === 0) open.delete(marker.producerId);
    else open.set(marker.producerId, remaining);
  };

  return {
    committedBatches(batches, aborted) {
      note(aborted ?? []);
      const committed: (typeof batches)[number][] = [];
      for (const batch of batches) {
        if ((batch.attributes & IS_CONTROL) !== 0) {
          endTransactions(batch);
          continue;
        }
        const firstOpen = open.get(batch.producerId)?.[0];
        if ((batch.attributes & IS_TRANSACTIONAL) !== 0 && firstOpen !== undefined && firstOpen <= lastOffsetOf(batch)) continue;
        committed.push(batch);
      }
      return committed;
    },
    reset() {
      open.clear();
    },
    get openAborted() {
      let count = 0;
      for (const starts of open.values()) count += starts.length;
      return count;
    },
  };
}

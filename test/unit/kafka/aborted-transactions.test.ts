// read_committed across fetches (kafka/aborted-transactions.ts) over hand-made record batches:
// an aborted transaction is hidden whether its ABORT marker comes in the same fetch or a later
// one, a committed one of the same producer after it is shown, markers never are.
import { IS_CONTROL, IS_TRANSACTIONAL } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { createAbortedTransactionFilter } from '../../../kafka/aborted-transactions.ts';
import type { FilteredBatch } from '../../../kafka/aborted-transactions.ts';

type Batch = FilteredBatch & { name: string };

const data = (name: string, producerId: bigint, firstOffset: bigint, count = 1): Batch => ({ name, producerId, firstOffset, lastOffsetDelta: count - 1, attributes: IS_TRANSACTIONAL });
const plain = (name: string, producerId: bigint, firstOffset: bigint): Batch => ({ name, producerId, firstOffset, lastOffsetDelta: 0, attributes: 0 });
const marker = (name: string, producerId: bigint, offset: bigint): Batch => ({ name, producerId, firstOffset: offset, lastOffsetDelta: 0, attributes: IS_TRANSACTIONAL | IS_CONTROL });
const names = (batches: Batch[]) => batches.map((batch) => batch.name);

describe('createAbortedTransactionFilter', () => {
  it('hides an aborted transaction whose marker is in the same fetch, and every marker', () => {
    const filter = createAbortedTransactionFilter();
    const batches = [data('a1', 7n, 0n, 2), marker('abort', 7n, 2n), data('c1', 7n, 3n), marker('commit', 7n, 4n)];
    expect(names(filter.committedBatches(batches, [{ producerId: 7n, firstOffset: 0n }]))).toEqual(['c1']);
    expect(filter.openAborted).toBe(0);
  });

  it('hides an aborted transaction whose ABORT marker comes in a later fetch, one batch per fetch', () => {
    const filter = createAbortedTransactionFilter();
    const aborted = [{ producerId: 7n, firstOffset: 0n }];
    // The broker lists the transaction with every fetch that overlaps it, until its marker.
    expect(names(filter.committedBatches([data('a1', 7n, 0n)], aborted))).toEqual([]);
    expect(filter.openAborted).toBe(1);
    expect(names(filter.committedBatches([data('a2', 7n, 1n)], aborted))).toEqual([]);
    expect(filter.openAborted).toBe(1);
    expect(names(filter.committedBatches([marker('abort', 7n, 2n)], aborted))).toEqual([]);
    expect(filter.openAborted).toBe(0);
    expect(names(filter.committedBatches([data('c1', 7n, 3n)], []))).toEqual(['c1']);
  });

  it('shows the batches of other producers and outside transactions in between', () => {
    const filter = createAbortedTransactionFilter();
    const batches = [data('a1', 7n, 0n), data('other', 8n, 1n), plain('plain', 9n, 2n)];
    expect(names(filter.committedBatches(batches, [{ producerId: 7n, firstOffset: 0n }]))).toEqual(['other', 'plain']);
    expect(names(filter.committedBatches([data('a2', 7n, 3n), marker('abort', 7n, 4n), data('c1', 7n, 5n)], [{ producerId: 7n, firstOffset: 0n }]))).toEqual(['c1']);
  });

  it('shows a committed transaction of the producer that ended before its aborted one began', () => {
    const filter = createAbortedTransactionFilter();
    const batches = [data('c1', 7n, 0n), marker('commit', 7n, 1n), data('a1', 7n, 2n)];
    expect(names(filter.committedBatches(batches, [{ producerId: 7n, firstOffset: 2n }]))).toEqual(['c1']);
  });

  it('tells two aborted transactions of one producer apart, with a committed one between them', () => {
    const filter = createAbortedTransactionFilter();
    const aborted = [{ producerId: 7n, firstOffset: 0n }, { producerId: 7n, firstOffset: 4n }];
    const first = [data('a1', 7n, 0n), marker('abort', 7n, 1n), data('c1', 7n, 2n), marker('commit', 7n, 3n), data('a2', 7n, 4n)];
    expect(names(filter.committedBatches(first, aborted))).toEqual(['c1']);
    expect(names(filter.committedBatches([data('a3', 7n, 5n), marker('abort', 7n, 6n), data('c2', 7n, 7n)], [{ producerId: 7n, firstOffset: 4n }]))).toEqual(['c2']);
  });

  it('forgets what it noted when reset (the read jumped)', () => {
    const filter = createAbortedTransactionFilter();
    filter.committedBatches([data('a1', 7n, 0n)], [{ producerId: 7n, firstOffset: 0n }]);
    filter.reset();
    expect(filter.openAborted).toBe(0);
    expect(names(filter.committedBatches([data('c1', 7n, 10n)], []))).toEqual(['c1']);
  });
});

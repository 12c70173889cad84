import { describe, expect, it } from 'vitest';
import { PartitionProgress } from '../../../consumers/partition-progress.ts';

describe('PartitionProgress', () => {
  it('commits only the contiguous prefix of finished messages', () => {
    const progress = new PartitionProgress('runs', 0);
    for (const offset of ['10', '11', '12', '13']) progress.dispatched(offset);
    progress.completed('12');
    progress.completed('13');
    expect(progress.commitCandidate()).toBeUndefined(); // 10 and 11 still running
    progress.completed('10');
    expect(progress.commitCandidate()).toBe('11');
    progress.markCommitted('11');
    expect(progress.commitCandidate()).toBeUndefined();
    progress.completed('11');
    expect(progress.commitCandidate()).toBe('14');
    expect(progress.inFlight).toBe(0);
  });

  it('steps over offsets that were never dispatched (compaction, transaction markers)', () => {
    const progress = new PartitionProgress('runs', 3);
    progress.dispatched(5);
    progress.dispatched(9);
    progress.completed(9);
    progress.completed(5);
    expect(progress.commitCandidate()).toBe('10');
  });

  it('ignores a completion it does not know (a message finished twice)', () => {
    const progress = new PartitionProgress('runs', 0);
    progress.dispatched(1);
    progress.completed(1);
    progress.completed(1);
    progress.completed(7);
    expect(progress.commitCandidate()).toBe('2');
  });

  it('refuses out-of-order dispatch, which would make the prefix meaningless', () => {
    const progress = new PartitionProgress('runs', 0);
    progress.dispatched(4);
    expect(() => progress.dispatched(3)).toThrow(/dispatched in order/);
  });

  it('keeps memory bounded over a long history', () => {
    const progress = new PartitionProgress('runs', 0);
    for (let offset = 0; offset < 50_000; offset += 1) {
      progress.dispatched(offset);
      progress.completed(offset);
    }
    expect(progress.commitCandidate()).toBe('50000');
    expect((progress as unknown as { pending: unknown[] }).pending.length).toBeLessThan(2100);
  });
});

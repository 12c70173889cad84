// Ratcliff/Obershelp similarity, computed the way Python's difflib.SequenceMatcher does it
// (matching blocks found by repeatedly taking the longest common run, then 2·M / T), so
// textual-difference scores line up with difflib-based scorers such as Mastra's.

export type MatchingBlock = {
  /** Start of the block in the first sequence. */
  firstStart: number;
  /** Start of the block in the second sequence. */
  secondStart: number;
  size: number;
};

export type SequenceMatcherOptions = {
  /**
   * difflib's "autojunk": when the second sequence has 200 or more items, items that make up
   * more than 1% of it cannot start a match (they can still extend one). Default true, as in
   * difflib; it keeps long texts fast at the price of some accuracy.
   */
  autoJunk?: boolean;
};

type Sequence<T> = readonly T[];

const autoJunkMinimumLength = 200;

/** Positions of each item in `second`, without the "popular" items when autojunk applies. */
function indexSecond<T>(second: Sequence<T>, autoJunk: boolean): Map<T, number[]> {
  const positions = new Map<T, number[]>();
  second.forEach((item, index) => {
    const list = positions.get(item);
    if (list) list.push(index);
    else positions.set(item, [index]);
  });
  if (autoJunk && second.length >= autoJunkMinimumLength) {
    const popularThreshold = Math.floor(second.length / 100) + 1;
    for (const [item, list] of positions) {
      if (list.length > popularThreshold) positions.delete(item);
    }
  }
  return positions;
}

function findLongestMatch<T>(
  first: Sequence<T>,
  second: Sequence<T>,
  positions: Map<T, number[]>,
  firstLow: number,
  firstHigh: number,
  secondLow: number,
  secondHigh: number,
): MatchingBlock {
  let bestFirst = firstLow;
  let bestSecond = secondLow;
  let bestSize = 0;
  // runLengths.get(j) = length of the common run ending at first[i - 1] and second[j].
  let runLengths = new Map<number, number>();
  for (let i = firstLow; i < firstHigh; i++) {
    const nextRunLengths = new Map<number, number>();
    for (const j of positions.get(first[i] as T) ?? []) {
      if (j < secondLow) continue;
      if (j >= secondHigh) break;
      const size = (runLengths.get(j - 1) ?? 0) + 1;
      nextRunLengths.set(j, size);
      if (size > bestSize) {
        bestFirst = i - size + 1;
        bestSecond = j - size + 1;
        bestSize = size;
      }
    }
    runLengths = nextRunLengths;
  }
  // Popular items were left out of the index; let them extend a match on both sides.
  while (bestFirst > firstLow && bestSecond > secondLow && first[bestFirst - 1] === second[bestSecond - 1]) {
    bestFirst--;
    bestSecond--;
    bestSize++;
  }
  while (
    bestFirst + bestSize < firstHigh &&
    bestSecond + bestSize < secondHigh &&
    first[bestFirst + bestSize] === second[bestSecond + bestSize]
  ) {
    bestSize++;
  }
  return { firstStart: bestFirst, secondStart: bestSecond, size: bestSize };
}

/** The non-overlapping common blocks of the two sequences, ordered by position. */
export function getMatchingBlocks<T>(
  first: Sequence<T>,
  second: Sequence<T>,
  options: SequenceMatcherOptions = {},
): MatchingBlock[] {
  const positions = indexSecond(second, options.autoJunk ?? true);
  const blocks: MatchingBlock[] = [];
  const pending: [number, number, number, number][] = [[0, first.length, 0, second.length]];
  while (pending.length > 0) {
    const [firstLow, firstHigh, secondLow, secondHigh] = pending.pop()!;
    const block = findLongestMatch(first, second, positions, firstLow, firstHigh, secondLow, secondHigh);
    if (block.size === 0) continue;
    blocks.push(block);
    const firstEnd = block.firstStart + block.size;
    const secondEnd = block.secondStart + block.size;
    if (firstLow < block.firstStart && secondLow < block.secondStart) {
      pending.push([firstLow, block.firstStart, secondLow, block.secondStart]);
    }
    if (firstEnd < firstHigh && secondEnd < secondHigh) {
      pending.push([firstEnd, firstHigh, secondEnd, secondHigh]);
    }
  }
  return blocks.sort((left, right) => left.firstStart - right.firstStart || left.secondStart - right.secondStart);
}

/**
 * Similarity in [0, 1]: twice the number of matched items over the total number of items.
 * Two empty sequences are identical (1), as in difflib.
 */
export function sequenceRatio<T>(first: Sequence<T>, second: Sequence<T>, options: SequenceMatcherOptions = {}): number {
  const total = first.length + second.length;
  if (total === 0) return 1;
  const matched = getMatchingBlocks(first, second, options).reduce((sum, block) => sum + block.size, 0);
  return (2 * matched) / total;
}

/**
 * How many edit regions (replace, delete or insert runs) separate the sequences: the gaps
 * before, between and after the matching blocks. Identical sequences give 0.
 */
export function countChanges<T>(first: Sequence<T>, second: Sequence<T>, options: SequenceMatcherOptions = {}): number {
  let changes = 0;
  let firstPosition = 0;
  let secondPosition = 0;
  const blocks = getMatchingBlocks(first, second, options);
  const sentinel: MatchingBlock = { firstStart: first.length, secondStart: second.length, size: 0 };
  for (const block of [...blocks, sentinel]) {
    if (firstPosition < block.firstStart || secondPosition < block.secondStart) changes++;
    firstPosition = block.firstStart + block.size;
    secondPosition = block.secondStart + block.size;
  }
  return changes;
}

/** Character-level ratio of two strings, counting Unicode code points rather than UTF-16 units. */
export function textRatio(first: string, second: string, options: SequenceMatcherOptions = {}): number {
  return sequenceRatio(Array.from(first), Array.from(second), options);
}

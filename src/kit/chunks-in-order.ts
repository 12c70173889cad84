// The one way the project cuts a list into pieces bounded by summed bytes and by count, keeping
// order: the producers' Kafka requests (producers/send-records.ts, producers/run-publisher.ts) and
// the judge batches (src/engine/judge-batch/split-batches.ts). An item larger than `maxBytes` goes
// alone; a caller that cannot send such an item sets it apart first.
export function chunksInOrder<T>(items: readonly T[], sizeOf: (item: T) => number, maxBytes: number, maxCount: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length > 0 && (bytes + size > maxBytes || current.length >= maxCount)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

// A set that remembers at most `capacity` keys, forgetting the oldest first. The dashboard uses
// it to count each score record once: after a crash, kafkajs can deliver records of aborted
// transactions next to their committed re-runs, and both carry the same deterministic scoreId.
export class BoundedSet {
  private readonly keys = new Set<string>();
  readonly capacity: number;
  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Adds `key`; false when it was already there (a duplicate). */
  add(key: string): boolean {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.values().next().value as string);
    return true;
  }

  get size(): number {
    return this.keys.size;
  }
}

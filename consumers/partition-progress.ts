// Which offsets of one partition may be committed. Messages finish out of order (a judge call
// may take seconds while the next message's code scorers take microseconds), but a committed
// offset promises that everything before it is done: so we commit only the contiguous prefix
// of finished messages. kafkajs' resolveOffset cannot do this (it overwrites the position).

type Entry = { offset: number; done: boolean };

export class PartitionProgress {
  readonly topic: string;
  readonly partition: number;
  /** Dispatched messages not yet covered by the committable position, in offset order. */
  private readonly pending: Entry[] = [];
  private head = 0;
  private readonly byOffset = new Map<number, Entry>();
  private committablePosition: number | undefined;
  private committedPosition: number | undefined;

  constructor(topic: string, partition: number) {
    this.topic = topic;
    this.partition = partition;
  }

  /** Number of dispatched messages that have not finished. */
  get inFlight(): number {
    return this.byOffset.size;
  }

  dispatched(offset: string | number): void {
    const value = Number(offset);
    const last = this.pending[this.pending.length - 1];
    if (last !== undefined && value <= last.offset) {
      throw new Error(`offset ${value} of ${this.topic}[${this.partition}] dispatched after ${last.offset}: messages of a partition must be dispatched in order`);
    }
    const entry = { offset: value, done: false };
    this.pending.push(entry);
    this.byOffset.set(value, entry);
  }

  /** Marks a message finished (all its records acknowledged) and advances the committable prefix. */
  completed(offset: string | number): void {
    const value = Number(offset);
    const entry = this.byOffset.get(value);
    if (entry === undefined) return; // finished twice, or from a forgotten assignment: nothing to do
    entry.done = true;
    this.byOffset.delete(value);
    while (this.head < this.pending.length && this.pending[this.head]!.done) {
      this.committablePosition = this.pending[this.head]!.offset + 1;
      this.head += 1;
    }
    // Compact now and then so the array does not grow with the partition's history.
    if (this.head > 1024 && this.head * 2 > this.pending.length) {
      this.pending.splice(0, this.head);
      this.head = 0;
    }
  }

  /** The next offset to commit (Kafka's convention: last done + 1), if it moved since the last commit. */
  commitCandidate(): string | undefined {
    if (this.committablePosition === undefined || this.committablePosition === this.committedPosition) return undefined;
    return String(this.committablePosition);
  }

  markCommitted(offset: string): void {
    this.committedPosition = Number(offset);
  }
}

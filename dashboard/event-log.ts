// The short log of the events sent to pages (dashboard-event.ts), and their listeners. Each event
// gets an id `<epoch>.<sequence>`: a page that reconnects with the last id it saw gets exactly
// what it missed, or — when the log no longer reaches back that far, or the server restarted (a
// new epoch) — nothing, and the server sends it a fresh snapshot instead. Bounded: the last
// `maxEvents` events are kept (DashboardLimits.eventLog).
import type { DashboardEvent, UnnumberedEvent } from './dashboard-event.ts';

type Listener = (event: DashboardEvent) => void;

export class EventLog {
  private sequence = 0;
  private readonly log: DashboardEvent[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly epoch: string;
  private readonly maxEvents: number;

  constructor(epoch: string, maxEvents: number) {
    this.epoch = epoch;
    this.maxEvents = maxEvents;
  }

  /** The id of the latest event sent (`<epoch>.0` before the first). */
  lastEventId(): string {
    return this.eventId(this.sequence);
  }

  /** The events after `lastEventId`, or undefined when only a snapshot can bring the page up to date. */
  eventsAfter(lastEventId: string): DashboardEvent[] | undefined {
    const match = /^([0-9a-f]+)\.(\d+)$/.exec(lastEventId);
    if (match === null || match[1] !== this.epoch) return undefined;
    const after = Number(match[2]);
    if (after > this.sequence) return undefined;
    if (after === this.sequence) return [];
    const first = this.log[0];
    if (first === undefined || Number(first.id.split('.')[1]) > after + 1) return undefined;
    return this.log.filter((event) => Number(event.id.split('.')[1]) > after);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Numbers the event, keeps it for pages that reconnect, and sends it to every listener. */
  emit(event: UnnumberedEvent): DashboardEvent {
    this.sequence += 1;
    // A tally is copied: the aggregates keep mutating theirs, and the log must replay what was sent.
    const data = 'tally' in event.data ? { ...event.data, tally: structuredClone(event.data.tally) } : event.data;
    const withId = { ...event, id: this.eventId(this.sequence), data } as DashboardEvent;
    this.log.push(withId);
    if (this.log.length > this.maxEvents) this.log.splice(0, this.log.length - this.maxEvents);
    for (const listener of this.listeners) listener(withId);
    return withId;
  }

  private eventId(sequence: number): string {
    return `${this.epoch}.${sequence}`;
  }
}

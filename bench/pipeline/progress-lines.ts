// The pipeline benchmark's progress lines (pipeline.bench.ts and its scenarios): one line per
// finished scenario as it finishes, so a long run shows where it is and what each part measured.
import type { Throughput } from './measurement.ts';

export const progress = (line: string) => console.log(`· ${line}`);
export const micros = (seconds: number) => `${Math.round(seconds * 1e6)} µs`;
export const rate = (throughput: Pick<Throughput, 'eventsPerSecond' | 'events' | 'seconds'>) => `${Math.round(throughput.eventsPerSecond).toLocaleString('en-US')} events/s (${throughput.events} events in ${throughput.seconds.toFixed(1)} s)`;

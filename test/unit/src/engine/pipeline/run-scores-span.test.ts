// RunScoresSpan: opened once, by the first score; ended once, when the last binding settled, at the
// last score's time; a binding settling more often than counted ends nothing twice.
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it, vi } from 'vitest';
import { RunScoresSpan } from '../../../../../src/engine/pipeline/run-scores-span.ts';
import type { ScorerOutcome } from '../../../../../src/engine/pipeline/scorer-outcome.ts';

const exporter = new InMemorySpanExporter();
const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }).getTracer('run-scores');
const scored = { status: 'scored', score: 1, result: {} } as unknown as ScorerOutcome;

describe('RunScoresSpan', () => {
  it('opens on the first score, ends with the last binding at the last score\'s time, and only once', () => {
    exporter.reset();
    const open = vi.fn((startMs: number) => tracer.startSpan('score run', { startTime: startMs }));
    const shared = new RunScoresSpan(open, 3);
    const t0 = Date.now();
    shared.add({ scorerId: 'a', scoreId: 'id-a', outcome: scored, finishedMs: t0 + 1, withExplanation: false });
    shared.add({ scorerId: 'b', scoreId: 'id-b', outcome: scored, finishedMs: t0 + 5, withExplanation: false });
    shared.settle();
    shared.settle();
    expect(exporter.getFinishedSpans()).toEqual([]);
    shared.settle();
    shared.settle(); // one too many: nothing ends twice
    expect(open).toHaveBeenCalledTimes(1);
    const [span] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(span!.events.map((event) => event.attributes?.['gen_ai.evaluation.name'])).toEqual(['a', 'b']);
    expect(span!.endTime[0] * 1000 + span!.endTime[1] / 1e6).toBeCloseTo(t0 + 5, 0);
  });

  it('opens nothing when no binding put a score on it', () => {
    const open = vi.fn((startMs: number) => tracer.startSpan('score run', { startTime: startMs }));
    const shared = new RunScoresSpan(open, 2);
    shared.settle();
    shared.settle();
    expect(open).not.toHaveBeenCalled();
  });
});

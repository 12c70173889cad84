// A span's times as the OTLP input reads them: nanoseconds since the epoch (a fixed64) to
// milliseconds, the whole milliseconds exact. Regression: (high · 2^32 + low) / 1e6 read one in
// eight times that end on a millisecond as 0.9998 of the one before, and a run's ISO times (and a
// thread's turn order at a tie) a millisecond early.
import { describe, expect, it, onTestFinished } from 'vitest';
import { decodeOtlpTraces } from '../../../../../src/engine/otlp/decode-otlp.ts';
import { nanosToMs } from '../../../../../src/engine/otlp/span-parts.ts';
import { isoTime } from '../../../../../src/kit/contracts/iso-time.ts';
import { encodeSpans, spanRecorder } from '../../../../helpers/otlp-traces.ts';

const halves = (nanos: bigint) => [Number(nanos >> 32n), Number(nanos & 0xffff_ffffn)] as const;

describe('nanosToMs', () => {
  it('reads every whole millisecond as itself, over 200,000 consecutive ones of today and the fixed64 range’s edges', () => {
    const start = Date.parse('2026-12-04T18:00:48.714Z');
    for (let ms = start; ms < start + 200_000; ms += 1) {
      const [high, low] = halves(BigInt(ms) * 1_000_000n);
      if (nanosToMs(high, low) !== ms) expect.fail(`${ms} ms read as ${nanosToMs(high, low)}`);
    }
    for (const ms of [0, 1, 999, 1_000, 4_294, 4_295, 2 ** 32, 9_223_372_036_854]) {
      const [high, low] = halves(BigInt(ms) * 1_000_000n);
      expect(nanosToMs(high, low)).toBe(ms);
    }
  });

  it('keeps the fraction of a millisecond and never rounds a time into the next one', () => {
    const ms = Date.parse('2026-12-04T18:00:48.713Z');
    const at = (extraNanos: bigint) => nanosToMs(...halves(BigInt(ms) * 1_000_000n + extraNanos));
    expect(at(1n) - ms).toBeCloseTo(0.000001, 3);
    expect(at(500_000n) - ms).toBeCloseTo(0.5, 6);
    expect(Math.floor(at(999_000n))).toBe(ms);
    expect(isoTime(at(999_000n))).toBe('2026-12-04T18:00:48.713Z');
  });
});

describe('span times through both decoders', () => {
  for (const encoding of ['otlp_proto', 'otlp_json'] as const) {
    it(`reads a span that starts and ends on whole milliseconds as exactly those (${encoding})`, () => {
      const recorder = spanRecorder({ 'service.name': 'agent' });
      const start = Date.parse('2026-12-04T18:00:46.714Z');
      const ends: number[] = [];
      for (let index = 0; index < 64; index += 1) {
        const end = start + 2_000 + index * 7;
        ends.push(end);
        const span = recorder.tracer.startSpan(`turn ${index}`, { startTime: start + index });
        span.addEvent('checkpoint', {}, end - 1);
        span.end(end);
      }
      onTestFinished(() => recorder.shutdown());
      const decoded = decodeOtlpTraces(encodeSpans(recorder.spans(), encoding), encoding);
      expect(decoded.success).toBe(true);
      if (!decoded.success) return;
      const byName = new Map(decoded.data.map((span) => [span.name, span]));
      ends.forEach((end, index) => {
        const span = byName.get(`turn ${index}`)!;
        expect(span.startTimeMs).toBe(start + index);
        expect(span.endTimeMs).toBe(end);
        expect(span.events[0]!.timeMs).toBe(end - 1);
      });
    });
  }
});

import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { watchReceiver } from '../../../otel/receiver-watch.ts';

function lines() {
  const logged: Array<{ level: number; msg: string; droppedSpans?: number }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line));
      callback();
    },
  });
  return { logged, logger: pino({ level: 'info' }, stream) };
}

/** An exporter that answers as told and counts what it was asked to send. */
function scriptedExporter() {
  const state = { up: false, calls: 0 };
  const exporter: SpanExporter = {
    export(_spans: ReadableSpan[], done: (result: ExportResult) => void) {
      state.calls += 1;
      done(state.up ? { code: ExportResultCode.SUCCESS } : { code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED 127.0.0.1:4318') });
    },
    shutdown: async () => undefined,
  };
  return { exporter, state };
}

const batch = (size: number) => Array.from({ length: size }, () => ({}) as ReadableSpan);
const exportOnce = (exporter: SpanExporter, size: number) => new Promise<ExportResult>((resolve) => exporter.export(batch(size), resolve));

describe('watchReceiver', () => {
  it('says once that no receiver takes spans, drops batches unsent until a probe gets through, then says that once', async () => {
    const { exporter: inner, state } = scriptedExporter();
    const { logged, logger } = lines();
    let clock = 0;
    const watched = watchReceiver(inner, { endpoint: 'http://127.0.0.1:4318/v1/traces', logger, probeEveryMs: 10_000, now: () => clock });

    // The batch processor is told every batch went: it has nothing to retry or to log.
    expect(await exportOnce(watched, 5)).toEqual({ code: ExportResultCode.SUCCESS });
    for (let index = 0; index < 20; index += 1) expect((await exportOnce(watched, 5)).code).toBe(ExportResultCode.SUCCESS);
    expect(state.calls).toBe(1); // only the first batch was serialised and sent
    expect(watched.receiverAway).toBe(true);
    expect(watched.dropped).toBe(105);
    expect(logged.filter((line) => line.level === 40)).toHaveLength(1);
    expect(logged[0]!.msg).toContain('no OTLP receiver takes spans at http://127.0.0.1:4318/v1/traces (connect ECONNREFUSED 127.0.0.1:4318)');

    // A probe after the interval, still failing: sent, not said again.
    clock = 10_000;
    await exportOnce(watched, 5);
    expect(state.calls).toBe(2);
    await exportOnce(watched, 5);
    expect(state.calls).toBe(2);
    expect(logged).toHaveLength(1);

    // The receiver is back: the next probe goes through, export resumes, and that is said once.
    state.up = true;
    clock = 20_000;
    await exportOnce(watched, 5);
    await exportOnce(watched, 5);
    expect(state.calls).toBe(4);
    expect(watched.receiverAway).toBe(false);
    expect(logged).toHaveLength(2);
    expect(logged[1]).toMatchObject({ level: 30, droppedSpans: 115 });
  });

  it('passes every batch through while the receiver takes them, logging nothing', async () => {
    const { exporter: inner, state } = scriptedExporter();
    state.up = true;
    const { logged, logger } = lines();
    const watched = watchReceiver(inner, { endpoint: 'http://collector:4318/v1/traces', logger });
    for (let index = 0; index < 5; index += 1) expect((await exportOnce(watched, 3)).code).toBe(ExportResultCode.SUCCESS);
    expect(state.calls).toBe(5);
    expect(watched.dropped).toBe(0);
    expect(logged).toEqual([]);
  });
});

import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { reachedNoReceiver, watchReceiver } from '../../../otel/receiver-watch.ts';

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
      done(state.up ? { code: ExportResultCode.SUCCESS } : { code: ExportResultCode.FAILED, error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4318'), { code: 'ECONNREFUSED' }) });
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

  it('tells a receiver that cannot be reached from one that answers with an error', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4318'), { code: 'ECONNREFUSED' });
    expect(reachedNoReceiver(refused)).toBe(true);
    expect(reachedNoReceiver(Object.assign(new Error('getaddrinfo ENOTFOUND collector'), { code: 'ENOTFOUND' }))).toBe(true);
    expect(reachedNoReceiver(new AggregateError([refused, Object.assign(new Error('connect ECONNREFUSED ::1:4318'), { code: 'ECONNREFUSED' })], 'connect failed'))).toBe(true);
    expect(reachedNoReceiver(new Error('Request timed out'))).toBe(true);
    expect(reachedNoReceiver(Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }))).toBe(true);
    expect(reachedNoReceiver(Object.assign(new Error('Bad Request'), { code: 400 }))).toBe(false);
    expect(reachedNoReceiver(new Error('Export failed with retryable status'))).toBe(false);
    expect(reachedNoReceiver(undefined)).toBe(false);
  });
});

/** Real spans, as the batch processor hands them to the exporter. */
function realSpans(count: number): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] }).getTracer('receiver-watch-test');
  for (let index = 0; index < count; index += 1) tracer.startSpan(`span ${index}`).end();
  return memory.getFinishedSpans();
}

/** An OTLP/HTTP receiver that answers each request with the status `answer()` gives (or never answers). */
async function receiver(answer: () => number | 'silent'): Promise<{ url: string; requests: () => number; server: Server }> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on('end', () => {
      const status = answer();
      if (status === 'silent') return;
      response.writeHead(status, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, requests: () => requests, server };
}

describe('watchReceiver over the real OTLP/HTTP exporter', { timeout: 30_000 }, () => {
  const exportSpans = (exporter: SpanExporter, spans: ReadableSpan[]) => new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));

  it('keeps exporting to a receiver that refuses batches, says so once, and once more when one is taken', async () => {
    let status = 400;
    const { url, requests, server } = await receiver(() => status);
    const { logged, logger } = lines();
    const watched = watchReceiver(new OTLPTraceExporter({ url, timeoutMillis: 2_000 }), { endpoint: url, logger });
    try {
      for (let index = 0; index < 4; index += 1) expect((await exportSpans(watched, realSpans(3))).code).toBe(ExportResultCode.SUCCESS);
      // Every batch was sent: a receiver that answers is not away, whatever it answers.
      expect(requests()).toBe(4);
      expect(watched.receiverAway).toBe(false);
      expect(watched.dropped).toBe(12);
      expect(logged.map((line) => line.level)).toEqual([40]);
      expect(logged[0]!.msg).toContain(`the OTLP receiver at ${url} refused a batch of 3 spans (Bad Request); the batch is lost, exporting goes on`);

      status = 200;
      await exportSpans(watched, realSpans(2));
      expect(requests()).toBe(5);
      expect(logged).toHaveLength(2);
      expect(logged[1]).toMatchObject({ level: 30, refusedSpans: 12 });
    } finally {
      server.close();
    }
  });

  it('drops batches unsent when nothing listens, and when the receiver never answers', async () => {
    const closed = await receiver(() => 200);
    await new Promise((resolve) => closed.server.close(resolve));
    const { logged, logger } = lines();
    const unreachable = watchReceiver(new OTLPTraceExporter({ url: closed.url, timeoutMillis: 2_000 }), { endpoint: closed.url, logger });
    await exportSpans(unreachable, realSpans(2));
    expect(unreachable.receiverAway).toBe(true);
    expect(logged[0]!.msg).toContain(`no OTLP receiver takes spans at ${closed.url}`);

    const silent = await receiver(() => 'silent');
    try {
      const unanswered = watchReceiver(new OTLPTraceExporter({ url: silent.url, timeoutMillis: 300 }), { endpoint: silent.url });
      await exportSpans(unanswered, realSpans(2));
      expect(unanswered.receiverAway).toBe(true);
      await exportSpans(unanswered, realSpans(2));
      expect(silent.requests()).toBe(1);
    } finally {
      silent.server.closeAllConnections();
      silent.server.close();
    }
  });

  it('resumes exporting when a probe is answered, even with an error', async () => {
    let status: number | 'silent' = 'silent';
    const { url, requests, server } = await receiver(() => status);
    let clock = 0;
    const { logged, logger } = lines();
    const watched = watchReceiver(new OTLPTraceExporter({ url, timeoutMillis: 300 }), { endpoint: url, logger, probeEveryMs: 10_000, now: () => clock });
    try {
      await exportSpans(watched, realSpans(1));
      expect(watched.receiverAway).toBe(true);
      status = 500;
      clock = 10_000;
      await exportSpans(watched, realSpans(1)); // the probe, answered with 500
      expect(watched.receiverAway).toBe(false);
      await exportSpans(watched, realSpans(1)); // sent, not dropped
      expect(requests()).toBe(3);
      expect(logged.map((line) => line.level)).toEqual([40, 40]);
      expect(logged[1]!.msg).toContain('answers again but refused a batch of 1 spans (Internal Server Error); exporting resumed');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

// startTelemetry: which OTEL_* settings start the SDK (and which leave it unloaded), the default and
// overridable resource, the judge integration's registration, the diagnostics routed to the JSON
// log, and a shutdown that flushes and never rejects.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { context, diag, metrics, propagation, trace } from '@opentelemetry/api';
import type { ProxyTracerProvider } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { generateText } from 'ai';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyBatchSpanDefaults } from '../../../otel/batch-span-defaults.ts';
import { exportConcurrency, watchedOtlpSpanProcessor } from '../../../otel/otlp-span-processor.ts';
import { startTelemetry } from '../../../otel/setup.ts';
import { telemetryPlan } from '../../../otel/telemetry-plan.ts';
import { recordInputsFromEnvironment, traceOptionsFromEnvironment } from '../../../otel/trace-options.ts';
import { decodeOtlpTraces } from '../../../src/engine/otlp/decode-otlp.ts';
import type { Telemetry } from '../../../otel/setup.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { CollectingMetricReader } from '../../helpers/spans.ts';

let running: Telemetry | undefined;

/** SimpleSpanProcessor exports after the resource's async attributes (host, process) settle. */
async function flushSpans(): Promise<void> {
  const provider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?: () => Promise<void> };
  await provider.forceFlush?.();
}

afterEach(async () => {
  await running?.shutdown();
  running = undefined;
  trace.disable();
  context.disable();
  propagation.disable();
  metrics.disable();
  diag.disable();
  vi.unstubAllEnvs();
});

function sink(): { stream: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { stream, lines };
}

describe('telemetryPlan', () => {
  it('turns traces and metrics on by default (OTLP, as sdk-node does)', () => {
    expect(telemetryPlan({})).toEqual({ enabled: true, tracing: true, metrics: true, logs: false, configFile: false });
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' }, false, false],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false, true],
    [{ OTEL_METRICS_EXPORTER: 'none' }, true, false],
    [{ OTEL_TRACES_EXPORTER: 'console', OTEL_METRICS_EXPORTER: ' none ' }, true, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp,none', OTEL_METRICS_EXPORTER: 'none' }, false, false],
    [{ OTEL_TRACES_EXPORTER: ' , ', OTEL_METRICS_EXPORTER: 'prometheus' }, true, true],
  ])('reads the exporter lists %j', (environment, tracing, metricsOn) => {
    expect(telemetryPlan(environment)).toEqual({ enabled: tracing || metricsOn, tracing, metrics: metricsOn, logs: false, configFile: false });
  });

  it('turns the logs signal on only when OTEL_LOGS_EXPORTER names an exporter (a collector without a logs pipeline refuses them)', () => {
    expect(telemetryPlan({ OTEL_LOGS_EXPORTER: 'otlp' })).toMatchObject({ logs: true });
    expect(telemetryPlan({ OTEL_LOGS_EXPORTER: 'otlp', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' })).toMatchObject({ enabled: true, tracing: false, metrics: false, logs: true });
    expect(telemetryPlan({ OTEL_LOGS_EXPORTER: 'none' }).logs).toBe(false);
    expect(telemetryPlan({ OTEL_LOGS_EXPORTER: ' ' }).logs).toBe(false);
  });

  it('is off entirely with OTEL_SDK_DISABLED=true, whatever the exporters say', () => {
    expect(telemetryPlan({ OTEL_SDK_DISABLED: 'TRUE', OTEL_TRACES_EXPORTER: 'otlp' }).enabled).toBe(false);
    expect(telemetryPlan({ OTEL_SDK_DISABLED: 'false' }).enabled).toBe(true);
  });

  it('leaves everything to a declarative OTEL_CONFIG_FILE', () => {
    expect(telemetryPlan({ OTEL_CONFIG_FILE: '/etc/otel.yaml', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' })).toMatchObject({ enabled: true, configFile: true });
  });
});

describe('recordInputsFromEnvironment', () => {
  it('is on only for true or 1', () => {
    expect(recordInputsFromEnvironment({})).toBe(false);
    expect(recordInputsFromEnvironment({ SCORESTREAM_TRACE_RECORD_INPUTS: 'true' })).toBe(true);
    expect(recordInputsFromEnvironment({ SCORESTREAM_TRACE_RECORD_INPUTS: '1' })).toBe(true);
    expect(recordInputsFromEnvironment({ SCORESTREAM_TRACE_RECORD_INPUTS: 'yes' })).toBe(false);
    expect(recordInputsFromEnvironment({ SCORESTREAM_TRACE_RECORD_INPUTS: 'false' })).toBe(false);
  });
});

describe('traceOptionsFromEnvironment', () => {
  it('has no function step spans unless SCORESTREAM_TRACE_FUNCTION_STEPS is true or 1', () => {
    expect(traceOptionsFromEnvironment({})).toEqual({ recordInputs: false, functionStepSpans: false, processSpans: false });
    expect(traceOptionsFromEnvironment({ SCORESTREAM_TRACE_FUNCTION_STEPS: 'true' })).toEqual({ recordInputs: false, functionStepSpans: true, processSpans: false });
    expect(traceOptionsFromEnvironment({ SCORESTREAM_TRACE_FUNCTION_STEPS: '1', SCORESTREAM_TRACE_RECORD_INPUTS: 'true' })).toEqual({ recordInputs: true, functionStepSpans: true, processSpans: false });
    expect(traceOptionsFromEnvironment({ SCORESTREAM_TRACE_FUNCTION_STEPS: 'yes' }).functionStepSpans).toBe(false);
  });

  it('has no process span per message unless SCORESTREAM_TRACE_PROCESS_SPANS is true or 1', () => {
    expect(traceOptionsFromEnvironment({ SCORESTREAM_TRACE_PROCESS_SPANS: 'true' }).processSpans).toBe(true);
    expect(traceOptionsFromEnvironment({ SCORESTREAM_TRACE_PROCESS_SPANS: '1' })).toEqual({ recordInputs: false, functionStepSpans: false, processSpans: true });
    expect(traceOptionsFromEnvironment({ SCORESTREAM_TRACE_PROCESS_SPANS: 'no' }).processSpans).toBe(false);
  });
});

describe('startTelemetry', () => {
  it('starts nothing when every exporter is none: spans stay non-recording, no judge integration', async () => {
    const { stream, lines } = sink();
    running = await startTelemetry({ OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' }, { logger: pino(stream) });
    expect(running).toMatchObject({ tracing: false, metrics: false });
    expect(lines).toEqual([expect.objectContaining({ level: 30, tracing: false, metrics: false, msg: expect.stringContaining('OpenTelemetry is off') })]);
    expect(trace.getTracer('test').startSpan('nothing').isRecording()).toBe(false);
    expect(globalThis.AI_SDK_TELEMETRY_INTEGRATIONS ?? []).toHaveLength(0);
    await expect(running.shutdown()).resolves.toBeUndefined();
  });

  it('starts nothing with OTEL_SDK_DISABLED=true even when processors are given', async () => {
    const exporter = new InMemorySpanExporter();
    running = await startTelemetry({ OTEL_SDK_DISABLED: 'true' }, { spanProcessors: [new SimpleSpanProcessor({ exporter })], metricReaders: [] });
    expect(running.tracing).toBe(false);
    const span = trace.getTracer('test').startSpan('nothing');
    expect(span.isRecording()).toBe(false);
    span.end();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('records spans with a default service.name and the scorestream.origin resource attribute', async () => {
    const exporter = new InMemorySpanExporter();
    running = await startTelemetry({}, { spanProcessors: [new SimpleSpanProcessor({ exporter })], metricReaders: [], serviceVersion: '9.9.9', logger: pino({ level: 'silent' }) });
    expect(running).toMatchObject({ tracing: true, metrics: false });
    trace.getTracer('test').startSpan('one').end();
    await flushSpans();
    const [span] = exporter.getFinishedSpans();
    expect(span?.resource.attributes).toMatchObject({ 'service.name': 'scorestream', 'service.version': '9.9.9', 'scorestream.origin': 'scorestream' });
  });

  it('says at start-up what it exports', async () => {
    const { stream, lines } = sink();
    vi.stubEnv('OTEL_TRACES_EXPORTER', 'console');
    running = await startTelemetry(process.env, { metricReaders: [], logger: pino(stream) });
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'OpenTelemetry started', tracing: true, metrics: false, tracesExporter: 'console', metricsExporter: 'custom' }));
  });

  it('lets OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override the defaults', async () => {
    vi.stubEnv('OTEL_SERVICE_NAME', 'scorer-eu');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'deployment.environment.name=staging,service.version=2.0.0');
    const exporter = new InMemorySpanExporter();
    running = await startTelemetry({}, { spanProcessors: [new SimpleSpanProcessor({ exporter })], metricReaders: [], serviceVersion: '1.0.0', logger: pino({ level: 'silent' }) });
    trace.getTracer('test').startSpan('one').end();
    await flushSpans();
    expect(exporter.getFinishedSpans()[0]?.resource.attributes).toMatchObject({
      'service.name': 'scorer-eu',
      'service.version': '2.0.0',
      'deployment.environment.name': 'staging',
    });
  });

  it('installs W3C propagation and an async context manager', async () => {
    running = await startTelemetry({}, { spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })], metricReaders: [], logger: pino({ level: 'silent' }) });
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('outer', async (outer) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(trace.getActiveSpan()).toBe(outer);
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      expect(carrier.traceparent).toBe(`00-${outer.spanContext().traceId}-${outer.spanContext().spanId}-01`);
      outer.end();
    });
  });

  it('registers the AI SDK integration only while tracing, and removes it on shutdown', async () => {
    running = await startTelemetry({}, { spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })], metricReaders: [], logger: pino({ level: 'silent' }) });
    expect(globalThis.AI_SDK_TELEMETRY_INTEGRATIONS).toHaveLength(1);
    await running.shutdown();
    expect(globalThis.AI_SDK_TELEMETRY_INTEGRATIONS).toHaveLength(0);
  });

  it.each([
    [{}, false],
    [{ SCORESTREAM_TRACE_RECORD_INPUTS: 'true' }, true],
  ])('lets judge spans carry prompts only when the environment opts in (%j)', async (environment, recorded) => {
    const exporter = new InMemorySpanExporter();
    running = await startTelemetry(environment, { spanProcessors: [new SimpleSpanProcessor({ exporter })], metricReaders: [], logger: pino({ level: 'silent' }) });
    const model = mockJudge({ modelId: 'judge', answer: 'fine' });
    await generateText({ model, prompt: 'PRIVATE-QUESTION', telemetry: { recordInputs: true } });
    await flushSpans();
    expect(exporter.getFinishedSpans().length).toBeGreaterThan(0);
    expect(JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes)).includes('PRIVATE-QUESTION')).toBe(recorded);
  });

  it('does not register the AI SDK integration for metrics alone', async () => {
    const reader = new CollectingMetricReader();
    running = await startTelemetry({}, { spanProcessors: [], metricReaders: [reader], logger: pino({ level: 'silent' }) });
    expect(running).toMatchObject({ tracing: false, metrics: true });
    expect(globalThis.AI_SDK_TELEMETRY_INTEGRATIONS ?? []).toHaveLength(0);
    metrics.getMeter('test').createCounter('test.count').add(2);
    const { resourceMetrics } = await reader.collect();
    expect(resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name))).toContain('test.count');
  });

  it('flushes pending spans on shutdown', async () => {
    const exported: string[] = [];
    const slowExporter: SpanExporter = {
      export(spans, done) {
        exported.push(...spans.map((span) => span.name));
        done({ code: 0 });
      },
      shutdown: async () => undefined,
    };
    const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace');
    running = await startTelemetry({}, { spanProcessors: [new BatchSpanProcessor({ exporter: slowExporter, scheduledDelayMillis: 60_000 })], metricReaders: [], logger: pino({ level: 'silent' }) });
    trace.getTracer('test').startSpan('pending').end();
    expect(exported).toEqual([]);
    await running.shutdown();
    expect(exported).toEqual(['pending']);
  });

  it('gives up flushing after shutdownTimeoutMs and says so, without rejecting', async () => {
    const { stream, lines } = sink();
    const hangingExporter: SpanExporter = { export: () => undefined, shutdown: () => new Promise(() => undefined) };
    running = await startTelemetry({}, { spanProcessors: [new SimpleSpanProcessor({ exporter: hangingExporter })], metricReaders: [], logger: pino({ level: 'warn' }, stream), shutdownTimeoutMs: 50 });
    await expect(running.shutdown()).resolves.toBeUndefined();
    expect(lines.some((line) => String(line.msg).includes('flushing telemetry took too long'))).toBe(true);
  });

  it("routes the SDK's diagnostics into the JSON log", async () => {
    const { stream, lines } = sink();
    running = await startTelemetry({ OTEL_LOG_LEVEL: 'warn' }, { spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })], metricReaders: [], logger: pino({ level: 'debug' }, stream) });
    diag.warn('exporter unreachable', new Error('ECONNREFUSED'));
    diag.info('below the level');
    expect(lines.filter((line) => line.component === 'opentelemetry')).toEqual([expect.objectContaining({ level: 40, msg: 'exporter unreachable ECONNREFUSED' })]);
  });

  it('logs SDK diagnostics from warn up by default', async () => {
    const quiet = sink();
    running = await startTelemetry({}, { spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })], metricReaders: [], logger: pino({ level: 'trace' }, quiet.stream) });
    diag.info('chatter');
    diag.error('export failed');
    expect(quiet.lines.filter((line) => line.component === 'opentelemetry').map((line) => line.msg)).toEqual(['export failed']);
  });

  it('logs SDK diagnostics at the OTEL_LOG_LEVEL asked for', async () => {
    const verbose = sink();
    running = await startTelemetry({ OTEL_LOG_LEVEL: 'DEBUG' }, { spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })], metricReaders: [], logger: pino({ level: 'trace' }, verbose.stream) });
    diag.debug('details');
    diag.verbose('too much');
    const messages = verbose.lines.filter((line) => line.component === 'opentelemetry').map((line) => line.msg);
    expect(messages).toContain('details');
    expect(messages).not.toContain('too much');
  });
});

describe('applyBatchSpanDefaults', () => {
  it('fills in stream-sized batch span settings, and keeps what the environment says', () => {
    const environment: Record<string, string | undefined> = { OTEL_BSP_SCHEDULE_DELAY: '250', OTEL_BSP_MAX_QUEUE_SIZE: '' };
    applyBatchSpanDefaults(environment);
    expect(environment).toEqual({ OTEL_BSP_SCHEDULE_DELAY: '250', OTEL_BSP_MAX_QUEUE_SIZE: '16384', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048' });
  });
});

describe('watchedOtlpSpanProcessor', () => {
  it('exports every span of a queue that holds more batches than the exporter allowed at once (regression: "Concurrent export limit reached" taken for a missing receiver)', async () => {
    let spans = 0;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const decoded = decodeOtlpTraces(Buffer.concat(chunks), 'otlp_proto');
        if (decoded.success) spans += decoded.data.length;
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const names = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_BSP_MAX_QUEUE_SIZE', 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 'OTEL_BSP_SCHEDULE_DELAY'] as const;
    const saved = names.map((name) => process.env[name]);
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
      OTEL_BSP_MAX_QUEUE_SIZE: '16384',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '64',
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _encoding, done) => (warnings.push(chunk.toString('utf8')), done()) }));
    const provider = new TracerProvider({ spanProcessors: [await watchedOtlpSpanProcessor({}, logger)] });
    try {
      // 40 batches queued before the loop turns: the flush exports them together, past the exporter's default 30.
      const tracer = provider.getTracer('test');
      for (let n = 0; n < 40 * 64; n += 1) tracer.startSpan(`span ${n}`).end();
      await provider.forceFlush();
      expect(spans).toBe(40 * 64);
      expect(warnings).toEqual([]);
    } finally {
      await provider.shutdown();
      names.forEach((name, index) => (saved[index] === undefined ? delete process.env[name] : (process.env[name] = saved[index])));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('allows as many exports at once as the batches a full queue holds, and never fewer than the exporter’s 30', () => {
    expect(exportConcurrency(65_536, 2_048)).toBe(32);
    expect(exportConcurrency(65_536, 64)).toBe(1_024);
    expect(exportConcurrency(2_048, 512)).toBe(30);
    expect(exportConcurrency()).toBe(30);
  });
});

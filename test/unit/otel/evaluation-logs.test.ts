// Evaluation log records through the real SDK: with the logs signal on (an in-memory exporter in
// place of OTEL_LOGS_EXPORTER's), the sink's records leave on the evaluated span's trace and span
// ids, with their event name, time and attributes; without it, no sink is made at all.
import { logs, trace } from '@opentelemetry/api';
import { InMemoryLogRecordExporter, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluationLogOptions, evaluationLogSink } from '../../../otel/evaluation-logs.ts';
import { startTelemetry } from '../../../otel/setup.ts';
import type { Telemetry } from '../../../otel/setup.ts';
import type { EvaluationLog } from '../../../src/engine/pipeline/evaluation-event.ts';

let running: Telemetry | undefined;
afterEach(async () => {
  await running?.shutdown();
  running = undefined;
  logs.disable();
  trace.disable();
});

const log: EvaluationLog = {
  eventName: 'gen_ai.evaluation.result',
  timeMs: Date.parse('2026-12-06T10:00:00.000Z'),
  trace: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: true },
  attributes: { 'gen_ai.evaluation.name': 'completeness', 'gen_ai.evaluation.score.value': 0.75, 'scorestream.score_id': 'score-1' },
};

describe('evaluation log records', () => {
  it('leave through the SDK on the evaluated span, with the event name, the score time and the attributes', async () => {
    const exporter = new InMemoryLogRecordExporter();
    running = await startTelemetry({ OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' }, { logRecordProcessors: [new SimpleLogRecordProcessor({ exporter })], logger: pino({ level: 'silent' }) });
    expect(running).toMatchObject({ tracing: false, metrics: false, logs: true });
    const options = evaluationLogOptions(running);
    expect(options.evaluationLogs).toBeDefined();
    options.evaluationLogs!.emit(log);
    options.evaluationLogs!.emit({ ...log, trace: undefined, attributes: { 'gen_ai.evaluation.name': 'untraced' } });
    // The simple processor exports once the resource's async attributes (host, process) settle.
    await (logs.getLoggerProvider() as { forceFlush?: () => Promise<void> }).forceFlush?.();
    const [first, second] = exporter.getFinishedLogRecords();
    expect(first?.eventName).toBe('gen_ai.evaluation.result');
    expect(first?.spanContext).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 });
    expect(first?.hrTime).toEqual([Date.parse('2026-12-06T10:00:00.000Z') / 1000, 0]);
    expect(first?.attributes).toEqual(log.attributes);
    expect(first?.resource.attributes).toMatchObject({ 'service.name': 'scorestream' });
    // A run without trace context: the record still leaves, on no span.
    expect(second?.spanContext).toBeUndefined();
    expect(second?.attributes).toEqual({ 'gen_ai.evaluation.name': 'untraced' });
  });

  it('are not made when the logs signal is off (OTEL_LOGS_EXPORTER unset)', async () => {
    running = await startTelemetry({ OTEL_METRICS_EXPORTER: 'none' }, { spanProcessors: [], logger: pino({ level: 'silent' }) });
    expect(running.logs).toBe(false);
    expect(evaluationLogOptions(running)).toEqual({});
    expect(evaluationLogOptions(undefined)).toEqual({});
    // The sink itself writes to whatever provider is global: none here, so nothing is kept.
    expect(() => evaluationLogSink()?.emit(log)).not.toThrow();
  });

  it('are set by SCORESTREAM_EVALUATION_LOGS: beside the spans by default, instead of code scorers\' spans, or off', () => {
    const on = { logs: true };
    const off = { logs: false };
    expect(evaluationLogOptions(on, {})).toEqual({ evaluationLogs: expect.any(Object) });
    expect(evaluationLogOptions(on, { SCORESTREAM_EVALUATION_LOGS: 'beside-spans' })).toEqual({ evaluationLogs: expect.any(Object) });
    expect(evaluationLogOptions(on, { SCORESTREAM_EVALUATION_LOGS: ' Instead-Of-Spans ' })).toEqual({ evaluationLogs: expect.any(Object), codeScores: 'log-records' });
    expect(evaluationLogOptions(on, { SCORESTREAM_EVALUATION_LOGS: 'off' })).toEqual({});
    expect(evaluationLogOptions(off, { SCORESTREAM_EVALUATION_LOGS: 'off' })).toEqual({});
    // A dry run starts no telemetry: nothing to decide.
    expect(evaluationLogOptions(undefined, { SCORESTREAM_EVALUATION_LOGS: 'instead-of-spans' })).toEqual({});
  });

  it('refuse a mode they cannot honour, saying what to set: log records without a logs signal, or a mode that does not exist', () => {
    const refusal = (environment: Record<string, string>, telemetry = { logs: false }) => {
      try {
        evaluationLogOptions(telemetry, environment);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ SCORESTREAM_EVALUATION_LOGS: 'instead-of-spans' })).toMatch(/SCORESTREAM_EVALUATION_LOGS: instead-of-spans asks for evaluation log records, but the logs signal is off: set OTEL_LOGS_EXPORTER=otlp/);
    expect(refusal({ SCORESTREAM_EVALUATION_LOGS: 'beside-spans' })).toMatch(/the logs signal is off/);
    expect(refusal({ SCORESTREAM_EVALUATION_LOGS: 'spans' }, { logs: true })).toMatch(/'spans' is not a mode; use one of off, beside-spans, instead-of-spans/);
  });
});

// Content on the logs signal (docs/otlp.md): a GenAI run whose spans carry no content, its model
// calls' messages emitted as log-based events by the OpenTelemetry JS SDK's own Logger in each
// call's span context, both signals serialised by the SDK's own OTLP serialisers (both encodings).
// The records join their spans when the trace closes, as span events the content readers already
// read; a record delivered twice is kept once; a record whose span never came is counted, not
// attached; a logs request is told from a traces request by its bytes alone.
import { JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeOtlpTraces } from '../../../../../src/engine/otlp/decode-otlp.ts';
import type { OtlpEncoding } from '../../../../../src/engine/otlp/decode-otlp.ts';
import { attachLogRecords, carriesGenAiContent, isLogRecordCarrier } from '../../../../../src/engine/otlp/otlp-log-record.ts';
import type { OtlpSpan } from '../../../../../src/engine/otlp/otlp-span.ts';
import { isOtlpLogsProto } from '../../../../../src/engine/otlp/read-otlp-logs.ts';
import { runsFromTrace } from '../../../../../src/engine/otlp/run-from-trace.ts';
import { getUserMessageFromRunInput } from '../../../../../src/kit/utils/run-input.ts';
import { getAssistantMessageFromRunOutput } from '../../../../../src/kit/utils/run-output.ts';
import { encodeSpans, spanRecorder } from '../../../../helpers/otlp-traces.ts';
import type { Recorder } from '../../../../helpers/otlp-traces.ts';
import { recordRunWithEventContent } from '../../../../helpers/otlp-log-events.ts';

let recorder: Recorder;
const logExporter = new InMemoryLogRecordExporter();
const loggerProvider = new LoggerProvider({ resource: resourceFromAttributes({ 'service.name': 'events-app' }), processors: [new SimpleLogRecordProcessor({ exporter: logExporter })] });
beforeAll(() => {
  recorder = spanRecorder({ 'service.name': 'events-app' });
});
afterAll(async () => {
  await recorder.shutdown();
  await loggerProvider.shutdown();
});
beforeEach(() => {
  recorder.reset();
  logExporter.reset();
});

function decoded(bytes: Buffer, encoding: OtlpEncoding): OtlpSpan[] {
  const result = decodeOtlpTraces(bytes, encoding);
  if (!result.success) throw new Error(result.message);
  return result.data;
}

function logsRequest(encoding: OtlpEncoding): Buffer {
  const records = logExporter.getFinishedLogRecords();
  const bytes = encoding === 'otlp_proto' ? ProtobufLogsSerializer.serializeRequest(records) : JsonLogsSerializer.serializeRequest(records);
  return Buffer.from(bytes!);
}

describe('content on the logs signal', () => {
  for (const encoding of ['otlp_proto', 'otlp_json'] as const) {
    it(`joins the model calls' log-based events to their spans: question, answer and tool call (${encoding})`, () => {
      recordRunWithEventContent(recorder.tracer, loggerProvider.getLogger('genai'));
      const spans = decoded(encodeSpans(recorder.spans(), encoding), encoding);
      const records = decoded(logsRequest(encoding), encoding);
      expect(records).toHaveLength(3);
      expect(records.every(isLogRecordCarrier)).toBe(true);
      // The app's own log line carries no GenAI content: the source drops it as read.
      const logs = records.filter(carriesGenAiContent);
      expect(logs).toHaveLength(2);
      expect(records.filter((record) => !carriesGenAiContent(record))[0]!.events[0]).toMatchObject({ name: '', attributes: { body: 'looking up the weather for weather' } });
      // Spans alone: no content.
      expect(runsFromTrace(spans)[0]!.event.missing?.map((part) => part.part)).toEqual(['question', 'answer']);
      // The records in either order, one delivered twice (a re-read message): kept once.
      const [run] = runsFromTrace([...logs, ...spans, logs[0]!]);
      expect(run!.event.missing).toBeUndefined();
      expect(getUserMessageFromRunInput(run!.event.input)).toBe('What is the weather in Paris?');
      expect(getAssistantMessageFromRunOutput(run!.event.output)).toBe('It is sunny in Paris.');
      const calls = run!.event.output.flatMap((message) => message.content.parts).flatMap((part) => (part.type === 'tool-invocation' ? [part.toolInvocation] : []));
      expect(calls).toEqual([expect.objectContaining({ toolName: 'get_weather', args: { city: 'Paris' }, state: 'result', result: 'sunny, 21°C' })]);
      expect(run!.sources.input).toMatch(/^events of 'chat scripted-model'$/);
    });
  }

  it('tells a logs request from a traces request by its bytes, and counts a record whose span never came', () => {
    recordRunWithEventContent(recorder.tracer, loggerProvider.getLogger('genai'));
    expect(isOtlpLogsProto(logsRequest('otlp_proto'))).toBe(true);
    expect(isOtlpLogsProto(encodeSpans(recorder.spans(), 'otlp_proto'))).toBe(false);
    expect(isOtlpLogsProto(Buffer.from('not protobuf at all'))).toBe(false);
    const spans = decoded(encodeSpans(recorder.spans(), 'otlp_proto'), 'otlp_proto');
    const logs = decoded(logsRequest('otlp_proto'), 'otlp_proto').filter(carriesGenAiContent);
    const withoutSecondCall = spans.filter((span) => span.spanId !== logs[1]!.parentSpanId);
    const attached = attachLogRecords([...withoutSecondCall, ...logs]);
    expect(attached.orphans).toBe(1);
    expect(attached.spans.some(isLogRecordCarrier)).toBe(false);
    // The trace's own spans are not changed: attaching again gives the same, not twice the events.
    expect(attachLogRecords([...spans, ...logs]).spans.flatMap((span) => span.events)).toHaveLength(2);
    expect(attachLogRecords([...spans, ...logs]).spans.flatMap((span) => span.events)).toHaveLength(2);
  });
});

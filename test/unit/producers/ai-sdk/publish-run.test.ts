// publishAiSdkRun: which trace context a run is published in — the AI SDK's root span recorded by
// scorestreamTelemetry (here for a stream consumed to the end), else the context the app gives —
// and that an invalid run is refused before anything is sent.
import { context, trace } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSpanContext, publishAiSdkRun, scorestreamTelemetry } from '../../../../producers/ai-sdk/index.ts';
import { createRunPublisher } from '../../../../producers/run-publisher.ts';
import { InvalidRunError } from '../../../../producers/run-validation.ts';
import type { PublishableRun, PublishOptions, PublishReport } from '../../../../producers/index.ts';
import { generateText } from 'ai';
import { scriptedModel, usage } from '../../../helpers/ai-sdk-app.ts';
import { installTestTelemetry, waitForSpans } from '../../../helpers/spans.ts';
import type { TelemetryCapture } from '../../../helpers/spans.ts';

let capture: TelemetryCapture;
beforeAll(async () => {
  capture = await installTestTelemetry({ metrics: false });
});
afterAll(async () => {
  await capture.uninstall();
});

/** Keeps what would be sent: the run and the trace context it would be published in. */
function recordingPublisher() {
  const sent: Array<{ run: PublishableRun; context: Context | undefined }> = [];
  return {
    sent,
    async publish(runs: PublishableRun | readonly PublishableRun[], options: PublishOptions = {}): Promise<PublishReport> {
      const list = Array.isArray(runs) ? runs : [runs as PublishableRun];
      list.forEach((run, index) => sent.push({ run, context: options.contextFor?.(run, index) }));
      return { topic: 'agent-runs', count: list.length, runIds: [], requests: 1, partitions: [] };
    },
  };
}

const streamed: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello.' },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

describe('publishAiSdkRun', () => {
  it("publishes a stream's run in the AI SDK's root span, recorded by scorestreamTelemetry", async () => {
    const publisher = recordingPublisher();
    const call = { prompt: 'Say hello' };
    const model = new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream(streamed) }) });
    const stream = streamText({ model, ...call, telemetry: { integrations: [scorestreamTelemetry()] } });
    await stream.consumeStream();
    await publishAiSdkRun(publisher, call, stream, { agentId: 'greeter', runId: 'stream-1' });

    // The AI SDK ends its root span after the stream's last chunk was handed out.
    const spans = await waitForSpans(capture, (all) => all.some((span) => span.name.startsWith('invoke_agent')));
    const root = spans.find((span) => span.name.startsWith('invoke_agent'));
    expect(publisher.sent).toHaveLength(1);
    expect(trace.getSpanContext(publisher.sent[0]!.context!)).toMatchObject({ traceId: root!.spanContext().traceId, spanId: root!.spanContext().spanId });
    expect(publisher.sent[0]!.run).toMatchObject({ runId: 'stream-1', entity: { id: 'greeter' } });
    expect(agentSpanContext((await stream.steps)[0]!.callId)).toBeDefined();
  });

  it('without the integration, publishes in the context the app gives', async () => {
    const publisher = recordingPublisher();
    const call = { prompt: 'hi' };
    const result = await generateText({ model: scriptedModel([[{ type: 'text', text: 'hello' }]]), ...call });
    const appSpan = trace.getTracer('app').startSpan('request');
    const appContext = trace.setSpan(context.active(), appSpan);
    await publishAiSdkRun(publisher, call, result, { agentId: 'greeter', context: appContext });
    appSpan.end();
    expect(publisher.sent[0]!.context).toBe(appContext);
    expect(agentSpanContext(result.steps[0]!.callId)).toBeUndefined();
  });

  it('refuses an invalid run with every problem, before connecting to Kafka', async () => {
    const publisher = createRunPublisher({ brokers: ['127.0.0.1:1'] });
    const call = { prompt: 'hi' };
    const result = await generateText({ model: scriptedModel([[{ type: 'text', text: 'hello' }]]), ...call });
    const failure = await publishAiSdkRun(publisher, call, result, { agentId: '', runId: '' }).catch((error: unknown) => error);
    expect(InvalidRunError.isInstance(failure)).toBe(true);
    expect((failure as InvalidRunError).problems.map((problem) => problem.path).sort()).toEqual(['entity.id', 'runId']);
    await publisher.close();
  });
});

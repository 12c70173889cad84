// The whole way from an AI SDK app to scores: an app with AI SDK telemetry on (the real SDK set-up,
// an in-memory exporter, scorestreamTelemetry in place of @ai-sdk/otel's OpenTelemetry) runs a
// generateText tool loop, publishes the run to the real broker with publishAiSdkRun, and the
// service scores it. Every record's trace.parentSpanId is the AI SDK's root span (`invoke_agent …`),
// and the score spans are its children.
import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { publishAiSdkRun, scorestreamTelemetry } from '../../../producers/ai-sdk/index.ts';
import { createRunPublisher } from '../../../producers/run-publisher.ts';
import { createCompletenessScorer } from '../../../src/kit/scorers/code/completeness/index.ts';
import { createToolErrorRateScorer } from '../../../src/kit/scorers/code/tool-error-rate/index.ts';
import { scriptedModel, toolLoop, tools } from '../../helpers/ai-sdk-app.ts';
import { testBrokers } from '../../helpers/kafka.ts';
import { readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { installTestTelemetry, parentSpanId, waitForSpans } from '../../helpers/spans.ts';
import type { TelemetryCapture } from '../../helpers/spans.ts';

let capture: TelemetryCapture;
beforeAll(async () => {
  capture = await installTestTelemetry();
});
afterAll(async () => {
  await capture.uninstall();
});

describe('an AI SDK app publishing its runs', () => {
  it("is scored under the AI SDK's own root span", async () => {
    const topics = await useServiceTopics();
    await startTestService({ topics, scorers: [{ scorer: createToolErrorRateScorer() }, { scorer: createCompletenessScorer() }] });
    const publisher = createRunPublisher({ brokers: testBrokers(), topic: topics.runs });

    // The app: two lines attach it (the telemetry integration, and the publish after the call).
    const call = { instructions: 'You are a support agent.', prompt: 'Refund order 42' };
    const result = await generateText({
      model: scriptedModel(toolLoop),
      tools,
      stopWhen: stepCountIs(4),
      ...call,
      telemetry: { integrations: [scorestreamTelemetry()], functionId: 'support' },
    });
    await publishAiSdkRun(publisher, call, result, { agentId: 'support', runId: 'ai-sdk-run-1', tenantId: 'acme' });
    await publisher.close();

    const records = await readRecords<ScoreRecord>(topics.results, 2);
    // Two code scorers: their scores are events on the run's one `score run` span.
    const spans = await waitForSpans(capture, (all) => all.some((span) => span.name === 'score run' && span.attributes['scorestream.run.id'] === 'ai-sdk-run-1'));
    const roots = spans.filter((span) => span.name.startsWith('invoke_agent'));
    expect(roots).toHaveLength(1);
    const root = roots[0]!.spanContext();

    expect(records.map((record) => record.scorerId).sort()).toEqual(['completeness', 'tool-error-rate']);
    for (const record of records) {
      expect(record).toMatchObject({ runId: 'ai-sdk-run-1', entity: { type: 'agent', id: 'support' }, metadata: { tenantId: 'acme' } });
      expect(record.trace).toMatchObject({ traceId: root.traceId, parentSpanId: root.spanId });
    }
    const toolErrors = records.find((record) => record.scorerId === 'tool-error-rate')!;
    expect(toolErrors).toMatchObject({ status: 'scored', score: 0.5 });
    const scoreSpans = spans.filter((span) => span.name.startsWith('score ') && span.attributes['scorestream.run.id'] === 'ai-sdk-run-1');
    expect(scoreSpans.map((span) => span.name)).toEqual(['score run']);
    expect(scoreSpans[0]!.events.map((event) => event.attributes?.['gen_ai.evaluation.name']).sort()).toEqual(['completeness', 'tool-error-rate']);
    for (const scoreSpan of scoreSpans) {
      expect(scoreSpan.spanContext().traceId).toBe(root.traceId);
      expect(parentSpanId(scoreSpan)).toBe(root.spanId);
    }
  });
});

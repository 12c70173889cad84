// The AI SDK integration: judge calls made inside a span produce gen_ai spans nested under it, all
// marked scorestream.origin=judge; prompts stay off the spans unless recordInputs; unregistering
// removes exactly this registration.
import { trace } from '@opentelemetry/api';
import { generateText } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JUDGE_SPAN_ATTRIBUTES, registerJudgeTelemetry } from '../../../otel/judge-telemetry.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { descendantsOf, installTestTelemetry, waitForSpans } from '../../helpers/spans.ts';
import type { TelemetryCapture } from '../../helpers/spans.ts';

let capture: TelemetryCapture;

beforeAll(async () => {
  // Tracing only: this file registers its own integrations below.
  capture = await installTestTelemetry({ metrics: false });
  // installTestTelemetry registered one through startTelemetry; start from none.
  globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = [];
});
afterAll(async () => {
  await capture.uninstall();
});
beforeEach(() => capture.reset());

async function judgeInsideStep(callRecordsInputs: boolean | undefined) {
  const tracer = trace.getTracer('test');
  await tracer.startActiveSpan('generateScore', async (step) => {
    await generateText({
      model: mockJudge({ modelId: 'judge-x', answer: 'SECRET-ANSWER' }),
      instructions: 'SECRET-INSTRUCTIONS',
      prompt: 'SECRET-PROMPT',
      ...(callRecordsInputs === undefined ? {} : { telemetry: { functionId: 'scorestream.judge.generateScore', recordInputs: callRecordsInputs, recordOutputs: callRecordsInputs } }),
    });
    step.end();
  });
  const spans = await waitForSpans(capture, (all) => all.some((span) => span.name === 'generateScore'));
  const step = spans.find((span) => span.name === 'generateScore')!;
  const judgeSpans = descendantsOf(spans, step);
  capture.reset();
  return { step, judgeSpans, recorded: JSON.stringify(judgeSpans.map((span) => [span.attributes, span.events])) };
}

describe('registerJudgeTelemetry', () => {
  it('nests the judge spans under the active step span and marks every one of them', async () => {
    const unregister = registerJudgeTelemetry();
    try {
      const { step, judgeSpans } = await judgeInsideStep(undefined);
      expect(judgeSpans.length).toBeGreaterThanOrEqual(2);
      expect(judgeSpans.map((span) => span.name)).toContain('invoke_agent judge-x');
      for (const span of judgeSpans) {
        expect(span.spanContext().traceId).toBe(step.spanContext().traceId);
        expect(span.attributes).toMatchObject(JUDGE_SPAN_ATTRIBUTES);
      }
    } finally {
      unregister();
    }
  });

  it('keeps prompts and answers off the spans by default, even for calls that ask to record them', async () => {
    const unregister = registerJudgeTelemetry();
    try {
      for (const callRecordsInputs of [undefined, true, false]) {
        const { judgeSpans, recorded } = await judgeInsideStep(callRecordsInputs);
        expect(judgeSpans.length, String(callRecordsInputs)).toBeGreaterThan(0);
        for (const secret of ['SECRET-PROMPT', 'SECRET-INSTRUCTIONS', 'SECRET-ANSWER']) expect(recorded, `${secret} with ${String(callRecordsInputs)}`).not.toContain(secret);
      }
    } finally {
      unregister();
    }
  });

  it('records prompts and answers when the deployment opted in, unless a call declines', async () => {
    const unregister = registerJudgeTelemetry({ recordInputs: true });
    try {
      const opted = (await judgeInsideStep(true)).recorded;
      expect(opted).toContain('SECRET-PROMPT');
      expect(opted).toContain('SECRET-ANSWER');
      expect((await judgeInsideStep(false)).recorded).not.toContain('SECRET-PROMPT');
    } finally {
      unregister();
    }
  });

  it('removes only its own registration', async () => {
    const other = { onStart: () => undefined };
    globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = [other as never];
    const unregister = registerJudgeTelemetry();
    expect(globalThis.AI_SDK_TELEMETRY_INTEGRATIONS).toHaveLength(2);
    unregister();
    unregister();
    expect(globalThis.AI_SDK_TELEMETRY_INTEGRATIONS).toEqual([other]);
    globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = [];
    const { judgeSpans } = await judgeInsideStep(undefined);
    expect(judgeSpans).toEqual([]);
  });
});

// The runtime names of `scorestream/ai-sdk`, pinned: adding or dropping one is a decision.
import { expect, it } from 'vitest';
import * as aiSdkApi from '../../../../producers/ai-sdk/index.ts';

it("'scorestream/ai-sdk' exports exactly these names", () => {
  expect(Object.keys(aiSdkApi).sort()).toEqual(['agentSpanContext', 'aiSdkRunEvent', 'publishAiSdkRun', 'scorestreamTelemetry', 'settleAiSdkResult']);
});

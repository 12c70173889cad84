// A Mastra 1.x agent's run, published as docs/ai-sdk.md shows: the scorer input and output Mastra hands
// its scorers (fixtures in Mastra's shapes — in process with Date `createdAt`s, or as JSON) pass the
// run publisher's validation unchanged, and Scorestream's scorers and utils read them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateRuns } from '../../../producers/run-validation.ts';
import { getAssistantMessageFromRunOutput, getReasoningFromRunOutput } from '../../../src/kit/utils/run-output.ts';
import { getCombinedSystemPrompt, getUserMessageFromRunInput } from '../../../src/kit/utils/run-input.ts';
import { createToolCallAccuracyScorer } from '../../../src/kit/scorers/code/tool-call-accuracy/index.ts';
import { createKeywordCoverageScorer } from '../../../src/kit/scorers/code/keyword-coverage/index.ts';
import { mastraRunEvent } from '../../fixtures/mastra/publish-mastra-run.ts';
import type { MastraScorerRun } from '../../fixtures/mastra/publish-mastra-run.ts';

const fixtureText = readFileSync(new URL('../../fixtures/mastra/agent-run.json', import.meta.url), 'utf8');
const fixture = JSON.parse(fixtureText) as MastraScorerRun & { requestContext: Record<string, unknown> };

/** The fixture as Mastra holds it in process: `createdAt` as Dates, the request context a Map. */
function inProcess(): MastraScorerRun {
  const run = JSON.parse(fixtureText, (key, value: unknown) => (key === 'createdAt' && typeof value === 'string' ? new Date(value) : value)) as MastraScorerRun;
  return { ...run, requestContext: new Map(Object.entries(fixture.requestContext)) };
}

describe("a Mastra agent's run", () => {
  for (const [shape, run] of [['in process (Dates, a RequestContext)', inProcess()], ['as JSON', fixture]] as const) {
    it(`passes the run publisher's validation unchanged: ${shape}`, () => {
      const [validated] = validateRuns([mastraRunEvent(run, { id: 'support', name: 'Support agent' })], { batch: false });
      const event = validated!.event;
      expect(event).toMatchObject({ runId: '2f0d4c1e-mastra-run-0001', entity: { type: 'agent', id: 'support' }, requestContext: { tenantId: 'lumen', channel: 'web' } });
      expect(event.input.taggedSystemMessages.memory).toHaveLength(1);
      expect(event.output[0]!.content.toolInvocations).toHaveLength(1);
      // What the wire carries is what Mastra produced (createdAt as ISO text).
      expect(JSON.parse(validated!.value).output[0].createdAt).toBe('2026-11-30T09:14:05.940Z');
    });
  }

  it("is read by Scorestream's utils and scorers as Mastra's own scorers read it", async () => {
    const event = validateRuns([mastraRunEvent(fixture, { id: 'support' })], { batch: false })[0]!.event;
    expect(getUserMessageFromRunInput(event.input)).toBe('Where is order 1042? It was due yesterday.');
    expect(getCombinedSystemPrompt(event.input)).toContain('Look orders up before answering.');
    expect(getAssistantMessageFromRunOutput(event.output)).toContain('in transit with DHL');
    expect(getReasoningFromRunOutput(event.output)).toBe('I should look the order up first.');

    const run = { runId: event.runId, input: event.input, output: event.output, requestContext: event.requestContext };
    expect((await createToolCallAccuracyScorer({ expectedTool: 'lookupOrder' }).run(run)).score).toBe(1);
    expect((await createToolCallAccuracyScorer({ expectedTool: 'refundOrder' }).run(run)).score).toBe(0);
    expect((await createKeywordCoverageScorer({ keywords: ['DHL', 'December 2', 'refund'] }).run(run)).score).toBeCloseTo(2 / 3, 5);
  });

  it('a part Mastra does not have is refused with its path, before anything is sent', () => {
    const broken = structuredClone(fixture);
    (broken.output[0]!.content.parts as unknown[])[2] = { type: 'tool-call', toolName: 'lookupOrder' };
    expect(() => validateRuns([mastraRunEvent(broken, { id: 'support' })], { batch: false })).toThrow(/output\[0\]\.content\.parts\[2\]/);
  });
});

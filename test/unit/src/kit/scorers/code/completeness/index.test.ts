import { describe, expect, it } from 'vitest';
import { createCompletenessScorer } from '../../../../../../../src/kit/scorers/code/completeness/index.ts';
import { createAgentTestRun } from '../../../../../../../src/kit/testing/agent-test-run.ts';
import { agentTurn, assistantMessage, toolCall, userMessage } from '../../agent-runs.ts';

describe('createCompletenessScorer', () => {
  it("scores the share of the input's key terms the response covers", async () => {
    const run = agentTurn('What will the weather be in Paris and London tomorrow?', [
      assistantMessage('', [toolCall('getForecast')]),
      assistantMessage('Tomorrow Paris will be sunny with 21°C.', [], 'assistant-2'),
    ]);
    const result = await createCompletenessScorer().run(run);
    expect(result.score).toBe(0.5);
    expect(result.preprocessStepResult).toEqual({
      inputTerms: ['weather', 'paris', 'london', 'tomorrow'],
      coveredTerms: ['paris', 'tomorrow'],
      missingTerms: ['weather', 'london'],
    });
    expect(result.reason).toBe('The response covers 2 of 4 key terms of the input; missing: weather, london.');
  });

  it('reads every assistant message of the turn and accepts inflections', async () => {
    const run = agentTurn('Cheap flights and hotels in Lisbon?', [
      assistantMessage('Here is a cheap flight to Lisbon.', [], 'assistant-1'),
      assistantMessage('And two hotels near the centre.', [], 'assistant-2'),
    ]);
    const result = await createCompletenessScorer().run(run);
    expect(result.preprocessStepResult?.missingTerms).toEqual([]);
    expect(result.score).toBe(1);
    expect(result.reason).toBe('The response covers 4 of 4 key terms of the input.');
  });

  it('uses every input message of the turn', async () => {
    const run = createAgentTestRun({
      inputMessages: [userMessage('Summarise the contract', 'u1'), userMessage('Focus on termination clauses', 'u2')],
      output: [assistantMessage('The contract allows termination with 30 days notice.')],
    });
    const result = await createCompletenessScorer().run(run);
    expect(result.preprocessStepResult?.inputTerms).toEqual(['summarise', 'contract', 'focus', 'termination', 'clauses']);
    expect(result.preprocessStepResult?.coveredTerms).toEqual(['contract', 'termination']);
  });

  it.each([
    ['no input text', agentTurn(undefined, [assistantMessage('Hello')]), 'The run input has no text.'],
    ['only stop words in the input', agentTurn('What is it?', [assistantMessage('Hello')]), 'The input has no key terms to cover (only stop words).'],
    ['a tool-only response', agentTurn('Weather in Oslo?', [assistantMessage('', [toolCall('getWeather')])]), 'The agent gave no text response.'],
  ])('is not scorable with %s', async (_case, run, reason) => {
    const result = await createCompletenessScorer().run(run);
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason });
  });

  it('works on plain string runs', async () => {
    // Agent scorers are typed for agent runs but, like Mastra's, read plain strings too.
    const result = await createCompletenessScorer().run({
      input: 'Capital of France?' as never,
      output: 'The capital is Paris.' as never,
    });
    expect(result.score).toBe(0.5);
  });

  it("returns notScorable with the run's own account of a missing answer (an OTLP run whose spans held none)", async () => {
    const run = { ...agentTurn('What is the weather in Paris?', []), missing: [{ part: 'answer' as const, reason: "no final answer in the spans of the run ('invoke_agent x', 'chat m' ×2)" }] };
    const result = await createCompletenessScorer().run(run);
    expect(result.score).toBeUndefined();
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: "The agent gave no text response: no final answer in the spans of the run ('invoke_agent x', 'chat m' ×2)." });
  });
});

import { describe, expect, it } from 'vitest';
import * as publicApi from '../../../../../src/index.ts';
import { builtInScorers, createDefaultBuiltInScorers } from '../../../../../src/kit/scorers/registry.ts';
import { agentTurn, assistantMessage } from './agent-runs.ts';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';

const codeIds = ['tool-call-accuracy', 'tool-error-rate', 'tool-argument-validity', 'unoffered-tool-calls', 'repeated-tool-calls', 'tool-error-recovery', 'step-budget', 'trajectory-match', 'completeness', 'keyword-coverage', 'textual-difference', 'content-similarity'];
const llmIds = ['answer-relevancy', 'faithfulness', 'hallucination', 'toxicity', 'bias', 'task-completion', 'tool-selection'];
const threadCodeIds = ['turn-count', 'thread-tool-error-rate', 'run-score-mean', 'run-score-min'];
/** The run code scorers that work with default options. */
const defaultCodeIds = codeIds.filter((id) => id !== 'tool-call-accuracy' && id !== 'step-budget');
const threadLlmIds = ['conversation-resolution', 'user-frustration', 'knowledge-retention'];

describe('builtInScorers', () => {
  it('lists every built-in scorer once: run scorers (code first), then thread scorers (code first)', () => {
    expect(builtInScorers.map((entry) => entry.id)).toEqual([...codeIds, ...llmIds, ...threadCodeIds, ...threadLlmIds]);
    expect(builtInScorers.filter((entry) => entry.level === 'run' && entry.kind === 'code').map((entry) => entry.id)).toEqual(codeIds);
    expect(builtInScorers.filter((entry) => entry.level === 'run' && entry.kind === 'llm').map((entry) => entry.id)).toEqual(llmIds);
    expect(builtInScorers.filter((entry) => entry.level === 'thread').map((entry) => entry.id)).toEqual([...threadCodeIds, ...threadLlmIds]);
  });

  it('marks the scores where lower is better', () => {
    expect(builtInScorers.filter((entry) => entry.better === 'lower').map((entry) => entry.id)).toEqual([
      'hallucination',
      'toxicity',
      'bias',
      'turn-count',
      'user-frustration',
    ]);
  });

  it('builds scorers whose id matches their entry, through the exact factory types', () => {
    const toolCallAccuracy = builtInScorers[0].factory({ expectedTool: 'search' });
    expect(toolCallAccuracy.id).toBe('tool-call-accuracy');
    const model = mockJudge();
    for (const entry of builtInScorers) {
      const scorer = entry.kind === 'llm' ? entry.createDefault({ model }) : entry.createDefault?.();
      if (scorer) expect(scorer.id).toBe(entry.id);
    }
  });

  it('has no default for the scorers that need options: tool-call-accuracy (the expected tools), step-budget (its limits), run-score-mean and -min (the run scorer)', () => {
    expect(builtInScorers.filter((entry) => entry.createDefault === undefined).map((entry) => entry.id)).toEqual(['tool-call-accuracy', 'step-budget', 'run-score-mean', 'run-score-min']);
  });
});

describe('createDefaultBuiltInScorers', () => {
  it('gives the code scorers that need no options when there is no judge', () => {
    expect(createDefaultBuiltInScorers().map((scorer) => scorer.id)).toEqual(defaultCodeIds);
  });

  it('adds every LLM scorer around the given judge', async () => {
    const model = mockJudge({ answers: [{ statements: [{ statement: 'Paris.', verdict: 'yes', reason: 'Answers it.' }] }, 'Relevant.'] });
    const scorers = createDefaultBuiltInScorers({ judge: { model, modelSettings: { temperature: 0 } } });
    expect(scorers.map((scorer) => scorer.id)).toEqual([...defaultCodeIds, ...llmIds]);
    const relevancy = scorers.find((scorer) => scorer.id === 'answer-relevancy')!;
    expect(relevancy.judge?.modelSettings).toEqual({ temperature: 0 });
    const result = await relevancy.run(agentTurn('Capital of France?', [assistantMessage('Paris.')]));
    expect(result.score).toBe(1);
  });
});

describe('createDefaultBuiltInScorers for threads', () => {
  it('gives the thread scorers of level thread, the LLM ones only with a judge', () => {
    expect(createDefaultBuiltInScorers({ level: 'thread' }).map((scorer) => scorer.id)).toEqual(['turn-count', 'thread-tool-error-rate']);
    expect(createDefaultBuiltInScorers({ level: 'thread', judge: { model: mockJudge() } }).map((scorer) => scorer.id)).toEqual(['turn-count', 'thread-tool-error-rate', ...threadLlmIds]);
  });
});

describe('public API', () => {
  it('exports the factory of every catalogue entry, and the catalogue', () => {
    const exported = new Set<unknown>(Object.values(publicApi));
    for (const entry of builtInScorers) expect(exported.has(entry.factory), entry.id).toBe(true);
    expect(publicApi.builtInScorers).toBe(builtInScorers);
    expect(publicApi.createDefaultBuiltInScorers).toBe(createDefaultBuiltInScorers);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { createOpenAICompatibleJudgeProvider, judgeModelsFromEnv } from '../../../../../src/kit/judge/openai-compatible.ts';

type Captured = { url: string; headers: Headers; body: Record<string, unknown> };

/** A fetch that answers like an OpenAI-compatible chat completions endpoint; no network. */
function fakeServer(content: string, captured: Captured[]): typeof globalThis.fetch {
  return async (input, init) => {
    captured.push({
      url: String(input),
      headers: new Headers(init?.headers),
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    });
    return new Response(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'llama3.1:8b',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
      }),
      { status: 200, headers: { 'content-type': 'application/json', 'x-secret-header': 'sk-SECRET-header' } },
    );
  };
}

describe('createOpenAICompatibleJudgeProvider', () => {
  it('judges through an OpenAI-compatible server by base URL, with native structured outputs', async () => {
    const captured: Captured[] = [];
    const provider = createOpenAICompatibleJudgeProvider({
      baseURL: 'http://localhost:11434/v1',
      apiKey: 'local-key',
      fetch: fakeServer('{"verdict":"yes"}', captured),
    });
    const result = await createScorer({
      id: 'ollama',
      description: 'd',
      judge: { model: 'llama3.1:8b', instructions: 'judge' },
    })
      .analyze({ description: 'v', outputSchema: z.object({ verdict: z.string() }), createPrompt: () => 'p' })
      .generateScore(({ results }) => (results.analyzeStepResult.verdict === 'yes' ? 1 : 0))
      .run({ output: 'o' }, { models: provider });
    expect(result.score).toBe(1);
    expect(captured[0]!.url).toBe('http://localhost:11434/v1/chat/completions');
    expect(captured[0]!.headers.get('authorization')).toBe('Bearer local-key');
    expect(captured[0]!.body).toMatchObject({ model: 'llama3.1:8b', response_format: { type: 'json_schema' } });
    expect(result.judge?.analyze?.executions[0]).toMatchObject({
      judgeModelId: 'llama3.1:8b',
      judgeProvider: 'judge.chat',
      usage: { inputTokens: 12, outputTokens: 6, totalTokens: 18 },
      response: { id: 'chatcmpl-1', modelId: 'llama3.1:8b' },
    });
    expect(JSON.stringify(result)).not.toContain('SECRET');
  });

  it('needs a baseURL', () => {
    expect(() => createOpenAICompatibleJudgeProvider({ baseURL: ' ' })).toThrow(/needs a baseURL/);
  });
});

describe('judgeModelsFromEnv', () => {
  it('is undefined without SCORESTREAM_JUDGE_BASE_URL', () => {
    expect(judgeModelsFromEnv({})).toBeUndefined();
    expect(judgeModelsFromEnv({ SCORESTREAM_JUDGE_MODEL: 'x', SCORESTREAM_JUDGE_BASE_URL: '  ' })).toBeUndefined();
  });

  it('gives a resolver for any model id on the server, and the default model id', () => {
    const fromEnv = judgeModelsFromEnv({
      SCORESTREAM_JUDGE_BASE_URL: 'http://localhost:8000/v1',
      SCORESTREAM_JUDGE_API_KEY: 'k',
      SCORESTREAM_JUDGE_MODEL: 'qwen2.5-7b-instruct',
    });
    expect(fromEnv?.baseURL).toBe('http://localhost:8000/v1');
    expect(fromEnv?.defaultModelId).toBe('qwen2.5-7b-instruct');
    const model = fromEnv!.models.languageModel('qwen2.5-7b-instruct');
    expect(typeof model === 'object' && model.modelId).toBe('qwen2.5-7b-instruct');
  });

  it('omits defaultModelId when SCORESTREAM_JUDGE_MODEL is not set', () => {
    expect(judgeModelsFromEnv({ SCORESTREAM_JUDGE_BASE_URL: 'http://localhost:8080/v1' })).not.toHaveProperty('defaultModelId');
  });
});

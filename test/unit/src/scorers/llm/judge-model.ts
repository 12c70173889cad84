// A scripted judge for the LLM scorer tests: an ai/test mock model that answers each call with
// the next scripted text (objects are sent as JSON), and helpers to read what it was asked.
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';

function reply(text: string): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 100, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 20, text: undefined, reasoning: undefined },
    },
    warnings: [],
  };
}

/** Answers call n with `answers[n]`; a call past the script fails the test loudly. */
export function scriptedJudge(answers: (object | string)[]): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    provider: 'mock-provider',
    modelId: 'mock-judge',
    doGenerate: async () => {
      const answer = answers[call];
      call += 1;
      if (answer === undefined) throw new Error(`the judge was called ${call} times but only ${answers.length} answers were scripted`);
      return reply(typeof answer === 'string' ? answer : JSON.stringify(answer));
    },
  });
}

/** The system prompt and the user turn text of a recorded call. */
export function promptOf(call: LanguageModelV4CallOptions | undefined): { system: string; user: string } {
  let system = '';
  let user = '';
  for (const message of call?.prompt ?? []) {
    if (message.role === 'system') system += message.content;
    if (message.role === 'user') {
      for (const part of message.content) if (part.type === 'text') user += part.text;
    }
  }
  return { system, user };
}

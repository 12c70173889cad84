// The prompt mapping and the engine handling of the local model, against a scripted stand-in
// for node-llama-cpp's API (the real engine runs in test/integration/local-judge.test.ts).
import { generateText, Output } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { LlamaChatHistoryItem, LlamaPromptOptions, LlamaRuntime } from '../../../../local/model/llama-api.ts';
import { createLlamaLanguageModel, toChat } from '../../../../local/model/llama-language-model.ts';

type Seen = { systemPrompt?: string; history?: LlamaChatHistoryItem[]; prompt: string; options: LlamaPromptOptions; clearedBefore: boolean };

function scriptedRuntime(answer: (prompt: string, options: LlamaPromptOptions) => Promise<string> | string) {
  const seen: Seen[] = [];
  const grammars: object[] = [];
  let meter = { usedInputTokens: 0, usedOutputTokens: 0 };
  let cleared = false;
  let active = 0;
  let maxActive = 0;
  const sequence = {
    tokenMeter: { getState: () => ({ ...meter }) },
    clearHistory: async () => {
      cleared = true;
    },
    dispose: () => {},
  };
  const runtime: LlamaRuntime = {
    getLlama: async () => ({
      loadModel: async () => ({ trainContextSize: 32_768, createContext: async () => ({ getSequence: () => sequence, dispose: async () => {} }), dispose: async () => {} }),
      createGrammarForJsonSchema: async (schema: object) => (grammars.push(schema), { schema }),
      getGrammarFor: async () => ({ json: true }),
      dispose: async () => {},
    }),
    LlamaChatSession: class {
      readonly entry: Partial<Seen>;
      constructor(options: { systemPrompt?: string }) {
        this.entry = { systemPrompt: options.systemPrompt, clearedBefore: cleared };
        cleared = false;
      }
      setChatHistory(history: LlamaChatHistoryItem[]) {
        this.entry.history = history;
      }
      async promptWithMeta(prompt: string, options: LlamaPromptOptions = {}) {
        active += 1;
        maxActive = Math.max(maxActive, active);
        try {
          seen.push({ ...this.entry, prompt, options } as Seen);
          const text = await answer(prompt, options);
          meter = { usedInputTokens: meter.usedInputTokens + prompt.length, usedOutputTokens: meter.usedOutputTokens + text.length };
          return { responseText: text, stopReason: 'eogToken' as const };
        } finally {
          active -= 1;
        }
      }
      dispose() {}
    },
  };
  return { runtime, seen, grammars, maxActive: () => maxActive };
}

describe('toChat', () => {
  it('makes system turns the system prompt, the last user turn the prompt, and the turns between history', () => {
    expect(
      toChat([
        { role: 'system', content: 'Be strict.' },
        { role: 'user', content: [{ type: 'text', text: 'first' }] },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }, { type: 'text', text: 'answer' }] },
        { role: 'user', content: [{ type: 'text', text: 'sec' }, { type: 'text', text: 'ond' }] },
      ]),
    ).toEqual({ systemPrompt: 'Be strict.', history: [{ type: 'user', text: 'first' }, { type: 'model', response: ['answer'] }], prompt: 'second' });
  });

  it('refuses what a text-only local model cannot take', () => {
    expect(() => toChat([{ role: 'assistant', content: [{ type: 'text', text: 'x' }] }])).toThrow(/must end with/);
    expect(() => toChat([{ role: 'user', content: [{ type: 'file', data: { type: 'data', data: new Uint8Array([1]) }, mediaType: 'image/png' }] }])).toThrow(/text only, not file parts/);
  });
});

describe('createLlamaLanguageModel', () => {
  it('answers a judge step through a grammar built from its schema, with usage and finish reason', async () => {
    const engine = scriptedRuntime(() => '{"relevant":true,"reason":"on topic"}');
    const model = createLlamaLanguageModel({ modelPath: '/models/tiny.gguf', loadRuntime: async () => engine.runtime });
    const result = await generateText({
      model,
      instructions: 'You judge relevance.',
      prompt: 'Q: capital of France? A: Paris.',
      output: Output.object({ schema: z.object({ relevant: z.boolean(), reason: z.string() }) }),
    });
    expect(result.output).toEqual({ relevant: true, reason: 'on topic' });
    expect(result.usage.inputTokens).toBe('Q: capital of France? A: Paris.'.length);
    expect(result.usage.outputTokens).toBe('{"relevant":true,"reason":"on topic"}'.length);
    expect(result.finishReason).toBe('stop');
    expect(result.response.modelId).toBe('tiny');
    expect(engine.seen[0]).toMatchObject({ systemPrompt: 'You judge relevance.', clearedBefore: true, options: { maxTokens: 2048 } });
    expect(engine.grammars[0]).toMatchObject({ type: 'object', properties: { reason: { type: 'string', maxLength: 240 } }, additionalProperties: false });
  });

  it('serves one call at a time and builds each schema’s grammar once', async () => {
    const engine = scriptedRuntime(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return '{"ok":true}';
    });
    const model = createLlamaLanguageModel({ modelPath: '/models/tiny.gguf', loadRuntime: async () => engine.runtime });
    const schema = z.object({ ok: z.boolean() });
    await Promise.all(Array.from({ length: 5 }, () => generateText({ model, prompt: 'x', output: Output.object({ schema }) })));
    expect(engine.seen).toHaveLength(5);
    expect(engine.maxActive()).toBe(1);
    expect(engine.grammars).toHaveLength(1);
  });

  it("rejects with the caller's abort reason, and a call aborted while queued never reaches the model", async () => {
    let release: () => void = () => {};
    const engine = scriptedRuntime(
      (_prompt, options) =>
        new Promise<string>((resolve, reject) => {
          release = () => resolve('late');
          options.signal?.addEventListener('abort', () => reject(new Error('llama aborted')));
        }),
    );
    const model = createLlamaLanguageModel({ modelPath: '/models/tiny.gguf', loadRuntime: async () => engine.runtime });
    const first = new AbortController();
    const second = new AbortController();
    const running = model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }], abortSignal: first.signal });
    const queued = model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'b' }] }], abortSignal: second.signal });
    await vi.waitFor(() => expect(engine.seen).toHaveLength(1));
    second.abort(new Error('judge timeout'));
    first.abort(new Error('scorer deadline'));
    await expect(running).rejects.toThrow('scorer deadline');
    await expect(queued).rejects.toThrow('judge timeout');
    release();
    expect(engine.seen.map((entry) => entry.prompt)).toEqual(['a']);
  });

  it('keeps a free-text answer short unless the call asks for more', async () => {
    const engine = scriptedRuntime(() => 'It is on topic.');
    const model = createLlamaLanguageModel({ modelPath: '/m.gguf', loadRuntime: async () => engine.runtime });
    await generateText({ model, prompt: 'Why?' });
    await generateText({ model, prompt: 'Why, at length?', maxOutputTokens: 900 });
    expect(engine.seen.map((entry) => [entry.options.maxTokens, entry.options.grammar])).toEqual([
      [400, undefined],
      [900, undefined],
    ]);
  });

  it('maps the stop reason: a token limit is a length finish', async () => {
    const engine = scriptedRuntime(() => 'cut');
    engine.runtime.LlamaChatSession.prototype.promptWithMeta = async function () {
      return { responseText: 'cut', stopReason: 'maxTokens' as const };
    };
    const model = createLlamaLanguageModel({ modelPath: '/m.gguf', loadRuntime: async () => engine.runtime });
    const result = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }], maxOutputTokens: 3 });
    expect(result.finishReason).toEqual({ unified: 'length', raw: 'maxTokens' });
  });

  it('names the file when the model cannot be loaded, and tries again on the next call', async () => {
    let attempts = 0;
    const engine = scriptedRuntime(() => 'x');
    const getLlama = engine.runtime.getLlama;
    engine.runtime.getLlama = async (options) => {
      const llama = await getLlama(options);
      attempts += 1;
      return attempts === 1 ? { ...llama, loadModel: async () => Promise.reject(new Error('bad magic')) } : llama;
    };
    const model = createLlamaLanguageModel({ modelPath: '/models/broken.gguf', loadRuntime: async () => engine.runtime });
    const call = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'a' }] }] };
    await expect(model.doGenerate(call)).rejects.toThrow(/Could not load the model \/models\/broken.gguf: bad magic/);
    await expect(model.doGenerate(call)).resolves.toMatchObject({ content: [{ type: 'text', text: 'x' }] });
  });
});

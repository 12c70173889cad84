// An AI SDK language model (provider spec v4) running a GGUF file on this machine's CPU through
// node-llama-cpp: a judge with no server and no key. Structured answers are enforced by a grammar
// compiled from the step's JSON Schema (grammar-schema.ts), so a judge step with an
// `outputSchema` always gets JSON of that shape. One context with one sequence per loaded model:
// calls are served one at a time (a second sequence would halve each call's speed on a small
// machine and double the memory), each on a cleared history.
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import type {
  JSONSchema7,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { CallLimiter } from '../../src/kit/call-limiter.ts';
import type { Llama, LlamaChatHistoryItem, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel, LlamaRuntime, LlamaStopReason } from './llama-api.ts';
import { defaultGrammarBounds, toGrammarSchema } from './grammar-schema.ts';
import type { GrammarBounds } from './grammar-schema.ts';
import { localModelError } from './model-errors.ts';

export type LlamaLanguageModelOptions = {
  /** The GGUF file, or a function that fetches it first (a catalog model on first use). */
  modelPath: string | (() => Promise<string>);
  /** Shown in judge evidence and spans. Default: the file's name without `.gguf`. */
  modelId?: string;
  /**
   * CPU threads of the context. Default: the machine's cores. node-llama-cpp's own default
   * oversubscribes small machines (4 threads on 2 cores ran ~30× slower here).
   */
  threads?: number;
  /** Tokens of context (prompt plus answer). Default 4,096, at most the model's training size. */
  contextSize?: number;
  /** Answer length when a call sets no `maxOutputTokens`. Default 2,048: room for the grammar's bounded JSON. */
  defaultMaxOutputTokens?: number;
  /**
   * Answer length of a free-text call (no JSON schema) that sets no `maxOutputTokens`. Default 400:
   * a judge's reason is a few sentences, and a small model otherwise writes until the limit.
   */
  defaultMaxTextTokens?: number;
  bounds?: GrammarBounds;
  loadRuntime: () => Promise<LlamaRuntime>;
  now?: () => Date;
};

export type LlamaLanguageModel = LanguageModelV4 & {
  /** Loads the runtime and the model now instead of at the first call. */
  load(): Promise<void>;
  dispose(): Promise<void>;
};

type Engine = { runtime: LlamaRuntime; llama: Llama; model: LlamaModel; context: LlamaContext; sequence: LlamaContextSequence };

const grammarCacheSize = 64;

export function createLlamaLanguageModel(options: LlamaLanguageModelOptions): LlamaLanguageModel {
  const modelId = options.modelId ?? (typeof options.modelPath === 'string' ? basename(options.modelPath).replace(/\.gguf$/i, '') : 'local');
  const now = options.now ?? (() => new Date());
  const bounds = options.bounds ?? defaultGrammarBounds;
  const serial = new CallLimiter(1);
  const grammars = new Map<string, Promise<LlamaGrammar>>();
  let engine: Promise<Engine> | undefined;

  const load = (): Promise<Engine> => {
    engine ??= (async () => {
      const modelPath = typeof options.modelPath === 'string' ? options.modelPath : await options.modelPath();
      const runtime = await options.loadRuntime();
      const llama = await runtime.getLlama({ gpu: false, build: 'never', logLevel: 'error', progressLogs: false });
      let model: LlamaModel;
      try {
        model = await llama.loadModel({ modelPath });
      } catch (error) {
        await llama.dispose();
        throw localModelError('MODEL_LOAD_FAILED', `Could not load the model ${modelPath}: ${error instanceof Error ? error.message : String(error)}. Is it a GGUF file?`, error);
      }
      const contextSize = Math.min(options.contextSize ?? 4096, model.trainContextSize);
      const context = await model.createContext({ contextSize, threads: options.threads ?? availableParallelism(), sequences: 1 });
      return { runtime, llama, model, context, sequence: context.getSequence() };
    })();
    engine.catch(() => (engine = undefined));
    return engine;
  };

  const grammarFor = (llama: Llama, format: LanguageModelV4CallOptions['responseFormat']): Promise<LlamaGrammar> | undefined => {
    if (format?.type !== 'json') return undefined;
    const key = JSON.stringify(format.schema ?? null);
    let grammar = grammars.get(key);
    if (grammar === undefined) {
      grammar = format.schema === undefined ? llama.getGrammarFor('json') : llama.createGrammarForJsonSchema(toGrammarSchema(format.schema as JSONSchema7, bounds));
      if (grammars.size >= grammarCacheSize) grammars.delete(grammars.keys().next().value!);
      grammars.set(key, grammar);
    }
    return grammar;
  };

  const doGenerate = async (call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
    if (call.tools !== undefined && call.tools.length > 0) {
      throw new UnsupportedFunctionalityError({ functionality: 'tool calling on a local model', message: 'The local model judges text only: tool calling is not supported.' });
    }
    const { systemPrompt, history, prompt } = toChat(call.prompt);
    const { runtime, llama, sequence } = await load();
    const grammar = await grammarFor(llama, call.responseFormat);
    return serial.run(async () => {
      call.abortSignal?.throwIfAborted();
      await sequence.clearHistory();
      const before = sequence.tokenMeter.getState();
      const session = new runtime.LlamaChatSession({ contextSequence: sequence, autoDisposeSequence: false, ...(systemPrompt === undefined ? {} : { systemPrompt }) });
      try {
        if (history.length > 0) session.setChatHistory([...(systemPrompt === undefined ? [] : [{ type: 'system' as const, text: systemPrompt }]), ...history]);
        const answer = await session.promptWithMeta(prompt, {
          maxTokens: call.maxOutputTokens ?? (grammar === undefined ? (options.defaultMaxTextTokens ?? 400) : (options.defaultMaxOutputTokens ?? 2048)),
          ...(grammar === undefined ? {} : { grammar }),
          ...(call.temperature === undefined ? {} : { temperature: call.temperature }),
          ...(call.topK === undefined ? {} : { topK: call.topK }),
          ...(call.topP === undefined ? {} : { topP: call.topP }),
          ...(call.seed === undefined ? {} : { seed: call.seed }),
          ...(call.stopSequences === undefined ? {} : { customStopTriggers: call.stopSequences }),
          ...(call.abortSignal === undefined ? {} : { signal: call.abortSignal, stopOnAbortSignal: false }),
        });
        const after = sequence.tokenMeter.getState();
        return {
          content: [{ type: 'text', text: answer.responseText }],
          finishReason: finishReason(answer.stopReason),
          usage: usage(after.usedInputTokens - before.usedInputTokens, after.usedOutputTokens - before.usedOutputTokens),
          response: { modelId, timestamp: now() },
          warnings: [],
        };
      } catch (error) {
        // node-llama-cpp rejects an aborted prompt with its own error; the caller's reason (a judge timeout) says more.
        if (call.abortSignal?.aborted) throw call.abortSignal.reason;
        throw error;
      } finally {
        session.dispose({ disposeSequence: false });
      }
    });
  };

  return {
    specificationVersion: 'v4',
    provider: 'local',
    modelId,
    supportedUrls: {},
    doGenerate,
    async doStream(call) {
      const result = await doGenerate(call);
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', modelId, timestamp: result.response?.timestamp ?? now() },
        { type: 'text-start', id: '0' },
        { type: 'text-delta', id: '0', delta: text },
        { type: 'text-end', id: '0' },
        { type: 'finish', usage: result.usage, finishReason: result.finishReason },
      ];
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
    async load() {
      await load();
    },
    async dispose() {
      const loaded = engine;
      engine = undefined;
      grammars.clear();
      if (loaded === undefined) return;
      const { llama, model, context } = await loaded;
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** System turns become the system prompt; the last user turn is the prompt; the turns between are history. */
export function toChat(prompt: LanguageModelV4Prompt): { systemPrompt: string | undefined; history: LlamaChatHistoryItem[]; prompt: string } {
  const system: string[] = [];
  const turns: LlamaChatHistoryItem[] = [];
  for (const message of prompt) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    if (message.role === 'tool') throw new UnsupportedFunctionalityError({ functionality: 'tool results on a local model' });
    const text = message.content
      .map((part) => {
        if (part.type === 'text') return part.text;
        if (part.type === 'reasoning') return '';
        throw new UnsupportedFunctionalityError({ functionality: `${part.type} parts on a local model`, message: `The local model takes text only, not ${part.type} parts.` });
      })
      .join('');
    turns.push(message.role === 'user' ? { type: 'user', text } : { type: 'model', response: [text] });
  }
  const last = turns.pop();
  if (last === undefined || last.type !== 'user') {
    throw new UnsupportedFunctionalityError({ functionality: 'a prompt that does not end with a user turn', message: 'The local model answers a user turn: the prompt must end with one.' });
  }
  return { systemPrompt: system.length === 0 ? undefined : system.join('\n\n'), history: turns, prompt: last.text };
}

function finishReason(stopReason: LlamaStopReason): LanguageModelV4FinishReason {
  const unified = stopReason === 'maxTokens' ? 'length' : stopReason === 'functionCalls' ? 'tool-calls' : stopReason === 'abort' ? 'other' : 'stop';
  return { unified, raw: stopReason };
}

function usage(input: number, output: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

// The part of node-llama-cpp's API the local judge uses, declared structurally: node-llama-cpp
// is installed on demand into the cache (llama-runtime.ts), never into the project, so its own
// type declarations are not there to import. These are the 3.21.1 signatures, narrowed to what
// is called; loadLlamaRuntime checks that the module it loaded has these entry points.

export type LlamaTokenMeterState = { usedInputTokens: number; usedOutputTokens: number };

export type LlamaContextSequence = {
  readonly tokenMeter: { getState(): LlamaTokenMeterState };
  clearHistory(): Promise<void>;
  dispose(): void;
};

export type LlamaContext = {
  getSequence(): LlamaContextSequence;
  dispose(): Promise<void>;
};

export type LlamaModel = {
  readonly trainContextSize: number;
  createContext(options: { contextSize?: number; threads?: number; sequences?: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
};

export type LlamaGrammar = object;

export type Llama = {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: object): Promise<LlamaGrammar>;
  getGrammarFor(type: 'json'): Promise<LlamaGrammar>;
  dispose(): Promise<void>;
};

export type LlamaChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: string[] };

export type LlamaStopReason = 'eogToken' | 'stopGenerationTrigger' | 'functionCalls' | 'maxTokens' | 'abort' | 'customStopTrigger';

export type LlamaPromptOptions = {
  grammar?: LlamaGrammar;
  maxTokens?: number;
  temperature?: number;
  topK?: number;
  topP?: number;
  seed?: number;
  signal?: AbortSignal;
  stopOnAbortSignal?: boolean;
  customStopTriggers?: string[];
};

export type LlamaChatSession = {
  setChatHistory(history: LlamaChatHistoryItem[]): void;
  promptWithMeta(prompt: string, options?: LlamaPromptOptions): Promise<{ responseText: string; stopReason: LlamaStopReason }>;
  dispose(options?: { disposeSequence?: boolean }): void;
};

export type LlamaRuntime = {
  getLlama(options: { gpu: false; build: 'never'; logLevel?: 'error' | 'warn'; progressLogs?: boolean }): Promise<Llama>;
  LlamaChatSession: new (options: { contextSequence: LlamaContextSequence; systemPrompt?: string; autoDisposeSequence?: boolean }) => LlamaChatSession;
};

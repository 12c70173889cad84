// A provider's prompt cache, simulated for the mock judge servers: each request's prompt (its
// rendered text, as a provider tokenizes it) is compared with every earlier one, and the longest
// common prefix is what a cache could serve — counted the way the provider says it counts:
//   openai     automatic, from 1,024 tokens, in steps of 128 (OpenAI's prompt caching guide);
//   blocks     a self-hosted server's prefix cache (vLLM's automatic prefix caching), whole blocks
//              of 16 tokens, no minimum;
//   anthropic  only up to a cache breakpoint the request marks (`cache_control`), from 1,024
//              tokens; a marked prefix seen before is read, a new one written (Anthropic's guide).
// Tokens are the mock's own count: 4 characters each.

export type PromptCacheRule = 'openai' | 'blocks';

export const charsPerToken = 4;

export function tokensOf(text: string): number {
  return Math.ceil(text.length / charsPerToken);
}

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index += 1;
  return index;
}

export type PromptCache = {
  /** Counts one request's prompt: its tokens and how many a cache following `rule` would serve. */
  read(prompt: string): { promptTokens: number; cachedTokens: number };
  /** Anthropic: the prompt's marked prefixes (each breakpoint's text up to it), read or written. */
  readMarked(prompt: string, breakpoints: readonly number[]): { inputTokens: number; cacheRead: number; cacheWrite: number };
};

export function createPromptCache(rule: PromptCacheRule = 'openai'): PromptCache {
  const seen: string[] = [];
  const marked = new Set<string>();
  return {
    read(prompt) {
      let longest = 0;
      for (const earlier of seen) longest = Math.max(longest, commonPrefixLength(prompt, earlier));
      seen.push(prompt);
      const promptTokens = tokensOf(prompt);
      // Only whole tokens of the shared prefix count.
      const shared = Math.floor(longest / charsPerToken);
      if (rule === 'blocks') return { promptTokens, cachedTokens: Math.floor(shared / 16) * 16 };
      return { promptTokens, cachedTokens: shared < 1024 ? 0 : 1024 + Math.floor((shared - 1024) / 128) * 128 };
    },
    readMarked(prompt, breakpoints) {
      const total = tokensOf(prompt);
      // The longest marked prefix long enough to cache decides: read if seen, else written.
      for (const end of [...breakpoints].sort((a, b) => b - a)) {
        const prefix = prompt.slice(0, end);
        const tokens = Math.floor(prefix.length / charsPerToken);
        if (tokens < 1024) continue;
        if (marked.has(prefix)) return { inputTokens: total - tokens, cacheRead: tokens, cacheWrite: 0 };
        marked.add(prefix);
        return { inputTokens: total - tokens, cacheRead: 0, cacheWrite: tokens };
      }
      return { inputTokens: total, cacheRead: 0, cacheWrite: 0 };
    },
  };
}

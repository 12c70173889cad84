// AI SDK app parts for tests: a model that answers from a script (`ai/test`'s MockLanguageModelV4),
// two tools of a support agent (one of them throws), and the script of a two-step tool loop.
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

export const usage = { inputTokens: { total: 12, noCache: 10, cacheRead: 2, cacheWrite: 0 }, outputTokens: { total: 7, text: 4, reasoning: 3 } };

/** A model answering each call with the next of `replies` (content parts of one step). */
export function scriptedModel(replies: Array<LanguageModelV4GenerateResult['content']>): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    modelId: 'support-model',
    doGenerate: async () => {
      const content = replies[Math.min(call++, replies.length - 1)]!;
      const finish = content.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop';
      return { content, finishReason: { unified: finish, raw: finish }, usage, warnings: [] };
    },
  });
}

export const tools = {
  lookupOrder: tool({ description: 'find an order', inputSchema: z.object({ orderId: z.string() }), execute: async ({ orderId }) => ({ orderId, status: 'shipped' }) }),
  refund: tool({
    description: 'refund an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async (): Promise<{ refunded: boolean }> => {
      throw new Error('refund service unavailable');
    },
  }),
};

export const toolLoop: Array<LanguageModelV4GenerateResult['content']> = [
  [
    { type: 'reasoning', text: 'The user wants order 42; look it up and refund it.' },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'lookupOrder', input: JSON.stringify({ orderId: '42' }) },
    { type: 'tool-call', toolCallId: 'call-2', toolName: 'refund', input: JSON.stringify({ orderId: '42' }) },
  ],
  [{ type: 'text', text: 'Order 42 has shipped; the refund failed, a colleague will follow up.' }],
];


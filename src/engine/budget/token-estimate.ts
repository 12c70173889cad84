// What a judge call will probably use, known before it is made: input tokens from the length of
// its instructions and prompt, output tokens from the call's `maxOutputTokens` (an upper bound
// the provider enforces) or the configured expectation. Budgets reserve this estimate and settle
// it with the real usage; dry-run replays add it up.
import type { PricingConfig } from './budget-schema.ts';

export type JudgeCallEstimate = { inputTokens: number; outputTokens: number };

export function estimateJudgeCall(call: { instructions: string; prompt: string; maxOutputTokens?: number }, estimate: PricingConfig['estimate']): JudgeCallEstimate {
  return {
    inputTokens: Math.ceil((call.instructions.length + call.prompt.length) / estimate.charsPerToken),
    outputTokens: call.maxOutputTokens ?? estimate.outputTokensPerCall,
  };
}

// Judge prompts laid out for the providers' prompt caches (docs/spend-and-replay.md, prompts laid out for
// caches). A provider reuses the longest prefix of a request it saw recently — OpenAI by itself
// from 1,024 tokens at a discount, Anthropic at the cache breakpoints a request marks, a self-hosted
// server (vLLM, llama.cpp) block by block — so what is the same on every run of a scorer version
// (the task, its steps, the rubric, the examples) goes first, byte for byte, and the run's material
// after it; a short fixed closing may follow the material (cheap to leave uncached, and the judge
// reads its task again after long material). A `createPrompt` may return this instead of a string:
// the judge call sends the fixed part and the rest as two parts of the user turn, the first one
// marked as an Anthropic cache breakpoint; records and budgets see the text whole, the parts joined.

const marker = Symbol.for('scorestream.LaidOutPrompt');

export type LaidOutPrompt = {
  readonly [marker]: true;
  /** The same on every run: task, steps, rubric, examples. */
  readonly fixed: string;
  /** The run's material: what differs from run to run. */
  readonly material: string;
  /** A short fixed reminder after the material, or ''. */
  readonly closing: string;
};

/** A prompt is either plain text (Mastra's shape) or laid out for caches. */
export type JudgePrompt = string | LaidOutPrompt;

/** The two parts a laid-out prompt is sent as: the cacheable prefix, then the rest. They join to its text. */
export type PromptParts = { prefix: string; rest: string };

/**
 * `fixed` first, then `material` (one string, or blocks joined by blank lines), then `closing`.
 * Nothing of the run may go into `fixed`, or no two runs share the prefix.
 */
export function layoutPrompt(parts: { fixed: string; material: string | readonly string[]; closing?: string }): LaidOutPrompt {
  const material = typeof parts.material === 'string' ? parts.material : parts.material.join('\n\n');
  return { [marker]: true, fixed: parts.fixed, material, closing: parts.closing ?? '' };
}

export function isLaidOutPrompt(value: unknown): value is LaidOutPrompt {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

/** The prompt's parts as sent: the fixed part, then a blank line, the material and the closing. */
export function promptParts(prompt: LaidOutPrompt): PromptParts {
  const closing = prompt.closing === '' ? '' : `\n\n${prompt.closing}`;
  return { prefix: prompt.fixed, rest: `\n\n${prompt.material}${closing}` };
}

/** The prompt's whole text, as records, spans and budgets see it. */
export function promptText(prompt: JudgePrompt): string {
  if (typeof prompt === 'string') return prompt;
  const { prefix, rest } = promptParts(prompt);
  return prefix + rest;
}

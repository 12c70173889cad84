// Reading the scorer run output (docs/scorers.md, scorer utils): the assistant's answer, its
// reasoning, and every response message's text. Accepts the agent shape (message arrays), a single
// assistant message or `{ text }` / `{ content }` object, and bare strings.
import { findMessageText, getMessageRole, getMessageText, isRecord } from './message-text.ts';

/**
 * The assistant's answer. A string output as is. For an array, the text of the **last** assistant
 * message that has text: a trailing tool-only assistant message is skipped (Mastra's docs say
 * "first"; its code, and this, take the last). For one object whose role is absent or
 * 'assistant': its `text`, then a string `content`, then its message text.
 */
export function getAssistantMessageFromRunOutput(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    for (let index = output.length - 1; index >= 0; index--) {
      const message: unknown = output[index];
      if (getMessageRole(message) !== 'assistant') continue;
      const text = findMessageText(message);
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (!isRecord(output)) return undefined;
  if (output.role !== undefined && getMessageRole(output) !== 'assistant') return undefined;
  if (typeof output.text === 'string') return output.text;
  if (typeof output.content === 'string') return output.content;
  return findMessageText(output);
}

function reasoningOfPart(part: Record<string, unknown>): string {
  // A `details` array is authoritative even when empty: `details: []` yields nothing, even if
  // `part.reasoning` is set (as Mastra does).
  if (Array.isArray(part.details)) {
    return part.details
      .filter((detail: unknown) => isRecord(detail) && detail.type === 'text' && typeof detail.text === 'string')
      .map((detail: Record<string, unknown>) => detail.text as string)
      .join('');
  }
  return typeof part.reasoning === 'string' ? part.reasoning : '';
}

/**
 * The reasoning of the **first** assistant message: its `content.reasoning` if non-empty; else
 * its reasoning parts (the text details of each, or `reasoning` when a part has no `details`
 * array), non-empty pieces joined with '\n'. `undefined` when there is none.
 */
export function getReasoningFromRunOutput(output: unknown): string | undefined {
  if (!Array.isArray(output)) return undefined;
  const message: unknown = output.find((entry: unknown) => getMessageRole(entry) === 'assistant');
  if (!isRecord(message) || !isRecord(message.content)) return undefined;
  const content = message.content;
  if (typeof content.reasoning === 'string' && content.reasoning !== '') return content.reasoning;
  if (!Array.isArray(content.parts)) return undefined;
  const pieces = content.parts
    .filter((part: unknown): part is Record<string, unknown> => isRecord(part) && part.type === 'reasoning')
    .map(reasoningOfPart)
    .filter((piece) => piece !== '');
  return pieces.length > 0 ? pieces.join('\n') : undefined;
}

/** The message text of every assistant message, in order ('' for one without text). */
export function extractAgentResponseMessages(output: unknown): string[] {
  if (!Array.isArray(output)) return [];
  return output
    .filter((message: unknown) => getMessageRole(message) === 'assistant')
    .map((message: unknown) => getMessageText(message));
}

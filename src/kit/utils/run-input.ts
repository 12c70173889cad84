// Reading the scorer run input (docs/scorers.md, scorer utils): the user's message, the system
// prompts, every input message's text, the remembered conversation. Accepts the agent shape,
// CoreMessage arrays (`{ messages }`), workflow-style inputs (`{ prompt }`, `{ text }`, ...) and
// bare strings.
import { findFirstWithRole, findMessageText, getMessageRole, getMessageText, isRecord } from './message-text.ts';
import type { ScorerRunInputForAgent } from './message-types.ts';

/** True when `input` has the four fields of the agent scorer input. */
export function isScorerRunInputForAgent(input: unknown): input is ScorerRunInputForAgent {
  return (
    isRecord(input) &&
    Array.isArray(input.inputMessages) &&
    Array.isArray(input.rememberedMessages) &&
    Array.isArray(input.systemMessages) &&
    isRecord(input.taggedSystemMessages)
  );
}

function textOfFirstWithRole(messages: unknown, role: string): string | undefined {
  const message = findFirstWithRole(messages, role);
  return message === undefined ? undefined : findMessageText(message);
}

/**
 * The user's message: a string input as is; else the text of the *first* user entry of
 * `inputMessages` (its last text part), then of `messages`; then `prompt`, `text`, and the text of
 * `content`, `input`, `user`. A first user message without text does not fall through to a later
 * user message, only to the next source.
 */
export function getUserMessageFromRunInput(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!isRecord(input)) return undefined;
  return (
    textOfFirstWithRole(input.inputMessages, 'user') ??
    textOfFirstWithRole(input.messages, 'user') ??
    (typeof input.prompt === 'string' ? input.prompt : undefined) ??
    (typeof input.text === 'string' ? input.text : undefined) ??
    findMessageText(input.content) ??
    findMessageText(input.input) ??
    findMessageText(input.user)
  );
}

function systemMessageContent(message: unknown): string {
  if (!isRecord(message)) return '';
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part: unknown) => isRecord(part) && part.type === 'text')
    .map((part: Record<string, unknown>) => (typeof part.text === 'string' ? part.text : ''))
    .join(' ');
}

function systemEntriesOf(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  const texts: string[] = [];
  for (const message of messages) {
    if (getMessageRole(message) !== 'system') continue;
    const text = findMessageText(message);
    if (text) texts.push(text);
  }
  return texts;
}

/**
 * Every system prompt of the input, in this order: `systemMessages` (a string content as is, a
 * parts array as its text parts joined with ' '), then system-role entries of `inputMessages` and
 * `messages`, then every tagged system message in key order. Empty ones are dropped.
 */
export function getSystemMessagesFromRunInput(input: unknown): string[] {
  if (!isRecord(input)) return [];
  const texts: string[] = [];
  if (Array.isArray(input.systemMessages)) {
    for (const message of input.systemMessages) {
      const text = systemMessageContent(message);
      if (text) texts.push(text);
    }
  }
  texts.push(...systemEntriesOf(input.inputMessages), ...systemEntriesOf(input.messages));
  if (isRecord(input.taggedSystemMessages)) {
    for (const messages of Object.values(input.taggedSystemMessages)) {
      if (!Array.isArray(messages)) continue;
      for (const message of messages) {
        const text = findMessageText(message);
        if (text) texts.push(text);
      }
    }
  }
  return texts;
}

/** All system prompts joined with a blank line. */
export function getCombinedSystemPrompt(input: unknown): string {
  return getSystemMessagesFromRunInput(input).join('\n\n');
}

/** The message text of every `inputMessages` entry, whatever its role ('' for one without text). */
export function extractInputMessages(input: unknown): string[] {
  if (!isRecord(input) || !Array.isArray(input.inputMessages)) return [];
  return input.inputMessages.map((message: unknown) => getMessageText(message));
}

export type ConversationHistoryOptions = {
  /** How many of the most recent remembered messages to render (default 10). */
  maxMessages?: number;
};

/**
 * The remembered conversation as `role: text` lines, over the last `maxMessages` remembered
 * messages, oldest first. Messages without text (tool-only turns) give no line. `undefined` for
 * a non-agent input, for `maxMessages` <= 0 (or NaN), and when no line remains.
 */
export function getConversationHistoryFromRunInput(
  input: unknown,
  options: ConversationHistoryOptions = {},
): string | undefined {
  if (!isScorerRunInputForAgent(input)) return undefined;
  const count = Math.floor(options.maxMessages ?? 10);
  if (!(count > 0)) return undefined;
  const lines: string[] = [];
  for (const message of input.rememberedMessages.slice(-count)) {
    const text = getMessageText(message);
    if (text) lines.push(`${getMessageRole(message) ?? 'unknown'}: ${text}`);
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

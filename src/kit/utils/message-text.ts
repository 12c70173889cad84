// How the scorer utils read text and roles out of a message (docs/scorers.md, scorer utils). Two
// text rules exist in Mastra and both are kept: `getMessageText` (the "message text", '' when there
// is none) and `findMessageText` (the lookup used by the user/assistant/system helpers: undefined
// when there is none, and it also accepts a `body`). Everything here takes `unknown` and never
// throws.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The text of the last `{ type: 'text', text: string }` entry, like the AI SDK shows a message. */
export function lastTextPart(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  for (let index = parts.length - 1; index >= 0; index--) {
    const part: unknown = parts[index];
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
  }
  return undefined;
}

/**
 * Mastra's "message text": a string `content` as is; a `content` array's last text part; else a
 * non-empty `content.content`, a non-empty `content.text`, the last text part of `content.parts`;
 * else ''. Note the legacy flattened `content.content` wins over the parts.
 */
export function getMessageText(message: unknown): string {
  if (!isRecord(message)) return '';
  const content = message.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return lastTextPart(content) ?? '';
  if (!isRecord(content)) return '';
  return nonEmptyString(content.content) ?? nonEmptyString(content.text) ?? lastTextPart(content.parts) ?? '';
}

// Deep enough for message -> content -> content; the bound only guards against cycles.
const maxLookupDepth = 4;

/**
 * The lookup rule of the user/assistant/system helpers: the same precedence as `getMessageText`
 * (also for CoreMessage shapes such as `{ role, content: 'text' | parts[] }`), plus `body`, and
 * `undefined` instead of '' when nothing non-empty is found.
 */
export function findMessageText(value: unknown): string | undefined {
  return findText(value, 0);
}

function findText(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return nonEmptyString(value);
  if (Array.isArray(value)) return nonEmptyString(lastTextPart(value));
  if (!isRecord(value) || depth >= maxLookupDepth) return undefined;
  return (
    findText(value.content, depth + 1) ??
    nonEmptyString(value.text) ??
    nonEmptyString(lastTextPart(value.parts)) ??
    nonEmptyString(value.body)
  );
}

/**
 * The role a message counts under. A `role: 'signal'` message counts under its semantic role:
 * `content.metadata.signal.tagName`, else `content.metadata.signal.type`, else the message's own
 * `type`; a signal without any of them stays 'signal'.
 */
export function getMessageRole(message: unknown): string | undefined {
  if (!isRecord(message)) return undefined;
  const role = message.role;
  if (role !== 'signal') return typeof role === 'string' ? role : undefined;
  const content = message.content;
  const metadata = isRecord(content) ? content.metadata : undefined;
  const signal = isRecord(metadata) ? metadata.signal : undefined;
  const fromSignal = isRecord(signal) ? (nonEmptyString(signal.tagName) ?? nonEmptyString(signal.type)) : undefined;
  return fromSignal ?? nonEmptyString(message.type) ?? 'signal';
}

/** The first entry of `messages` that counts under `role`, or undefined. */
export function findFirstWithRole(messages: unknown, role: string): unknown {
  if (!Array.isArray(messages)) return undefined;
  return messages.find((message) => getMessageRole(message) === role);
}

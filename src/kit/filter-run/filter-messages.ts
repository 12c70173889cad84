// The per-message rule of filterRun (docs/scorers.md, filterRun): which messages survive
// `partTypes` and `toolNames`. Both are prefix lists; a message must pass every filter that is set.
import { isRecord } from '../utils/message-text.ts';

export type MessageFilter = {
  partTypes?: readonly string[];
  toolNames?: readonly string[];
};

function startsWithAny(value: unknown, patterns: readonly string[]): boolean {
  return typeof value === 'string' && patterns.some((pattern) => value.startsWith(pattern));
}

function isToolInvocationPart(part: unknown): part is Record<string, unknown> {
  return isRecord(part) && part.type === 'tool-invocation';
}

function toolNameOf(part: Record<string, unknown>): unknown {
  return isRecord(part.toolInvocation) ? part.toolInvocation.toolName : undefined;
}

/**
 * Whether one message is kept. Messages without a parts array (e.g. string content) are always
 * kept. A message without tool parts is judged by `partTypes` alone (`toolNames` never drops it);
 * so with `partTypes` set, a message with empty parts is dropped. A message with tool parts needs
 * a matching tool name (when `toolNames` is set) and a matching part type among *all* its parts
 * (when `partTypes` is set). An empty list counts as set and matches nothing, as in Mastra.
 */
export function keepsMessage(message: unknown, filter: MessageFilter): boolean {
  const content = isRecord(message) ? message.content : undefined;
  const parts = isRecord(content) ? content.parts : undefined;
  if (!Array.isArray(parts)) return true;

  const { partTypes, toolNames } = filter;
  const partTypeMatches = () =>
    partTypes === undefined || parts.some((part: unknown) => isRecord(part) && startsWithAny(part.type, partTypes));

  const toolParts = parts.filter(isToolInvocationPart);
  if (toolParts.length === 0) return partTypeMatches();
  if (toolNames !== undefined && !toolParts.some((part) => startsWithAny(toolNameOf(part), toolNames))) return false;
  return partTypeMatches();
}

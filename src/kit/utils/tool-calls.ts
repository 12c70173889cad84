// Which tools the agent called (docs/scorers.md, scorer utils). A message may hold its tool calls in
// `content.parts` (tool-invocation parts), in the legacy `content.toolInvocations` mirror, or in
// both with differences; the two are merged per message so no call is lost or counted twice.
import { isRecord } from './message-text.ts';

export type ToolCallInfo = {
  toolName: string;
  /** The invocation's id, or `${messageIndex}-${invocationIndex}` when it has none. */
  toolCallId: string;
  messageIndex: number;
  /** Index in the message's merged invocation list, counting entries that were not counted. */
  invocationIndex: number;
};

export type ExtractedToolCalls = { tools: string[]; toolCallInfos: ToolCallInfo[] };

// 'partial-call' is a call still streaming its arguments; approvals and denials are not calls.
const countedStates = new Set(['call', 'result', 'output-error']);

function toolCallIdOf(invocation: unknown): string | undefined {
  return isRecord(invocation) && typeof invocation.toolCallId === 'string' && invocation.toolCallId !== ''
    ? invocation.toolCallId
    : undefined;
}

/**
 * The invocations of one message: the tool parts in order, with each legacy-only invocation placed
 * before the next invocation both lists share (its anchor) and the rest appended. On a shared
 * `toolCallId` the part wins.
 */
export function mergeToolInvocations(content: unknown): unknown[] {
  if (!isRecord(content)) return [];
  const fromParts = Array.isArray(content.parts)
    ? content.parts
        .filter((part: unknown) => isRecord(part) && part.type === 'tool-invocation')
        .map((part: Record<string, unknown>) => part.toolInvocation)
    : [];
  const legacy: unknown[] = Array.isArray(content.toolInvocations) ? content.toolInvocations : [];
  if (legacy.length === 0) return fromParts;

  const partIndexById = new Map<string, number>();
  fromParts.forEach((invocation, index) => {
    const id = toolCallIdOf(invocation);
    if (id !== undefined && !partIndexById.has(id)) partIndexById.set(id, index);
  });

  const insertedBefore = new Map<number, unknown[]>();
  let pending: unknown[] = [];
  for (const invocation of legacy) {
    const id = toolCallIdOf(invocation);
    const anchor = id === undefined ? undefined : partIndexById.get(id);
    if (anchor === undefined) {
      pending.push(invocation);
      continue;
    }
    if (pending.length > 0) {
      insertedBefore.set(anchor, [...(insertedBefore.get(anchor) ?? []), ...pending]);
      pending = [];
    }
  }

  const merged: unknown[] = [];
  fromParts.forEach((invocation, index) => {
    merged.push(...(insertedBefore.get(index) ?? []), invocation);
  });
  merged.push(...pending);
  return merged;
}

/**
 * Every counted tool call of the output: invocations whose state is 'call', 'result' or
 * 'output-error' and that have a tool name, in message order.
 */
export function extractToolCalls(output: unknown): ExtractedToolCalls {
  const tools: string[] = [];
  const toolCallInfos: ToolCallInfo[] = [];
  if (!Array.isArray(output)) return { tools, toolCallInfos };

  output.forEach((message: unknown, messageIndex) => {
    if (!isRecord(message)) return;
    mergeToolInvocations(message.content).forEach((invocation, invocationIndex) => {
      if (!isRecord(invocation)) return;
      const { toolName, state } = invocation;
      if (typeof toolName !== 'string' || toolName === '' || typeof state !== 'string' || !countedStates.has(state)) {
        return;
      }
      tools.push(toolName);
      toolCallInfos.push({
        toolName,
        toolCallId: toolCallIdOf(invocation) ?? `${messageIndex}-${invocationIndex}`,
        messageIndex,
        invocationIndex,
      });
    });
  });
  return { tools, toolCallInfos };
}

// The agent's counted tool calls with their full invocation (state, result, error), in order.
// `extractToolCalls` says which calls count; the invocation behind each is looked up in the
// message's merged tool list, where its `invocationIndex` points.
import { extractToolCalls, mergeToolInvocations } from '../../utils/tool-calls.ts';

export type ToolCallRecord = {
  toolName: string;
  toolCallId: string;
  invocation: Record<string, unknown>;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function listToolCalls(output: unknown): ToolCallRecord[] {
  const { toolCallInfos } = extractToolCalls(output);
  if (toolCallInfos.length === 0 || !Array.isArray(output)) return [];
  // Several calls usually share a message: merge each message's invocations once.
  const invocationsByMessage = new Map<number, unknown[]>();
  const calls: ToolCallRecord[] = [];
  for (const info of toolCallInfos) {
    let invocations = invocationsByMessage.get(info.messageIndex);
    if (!invocations) {
      const message: unknown = output[info.messageIndex];
      invocations = mergeToolInvocations(isRecord(message) ? message.content : undefined);
      invocationsByMessage.set(info.messageIndex, invocations);
    }
    const invocation = invocations[info.invocationIndex];
    if (isRecord(invocation)) calls.push({ toolName: info.toolName, toolCallId: info.toolCallId, invocation });
  }
  return calls;
}

/** A call failed when the tool threw (state 'output-error') or reported failure (`isError`). */
export function isFailedToolCall(call: ToolCallRecord): boolean {
  return call.invocation.state === 'output-error' || call.invocation.isError === true;
}

/** A call that returned a usable result: state 'result' and not flagged as an error. */
export function isSuccessfulToolResult(call: ToolCallRecord): boolean {
  return call.invocation.state === 'result' && call.invocation.isError !== true;
}

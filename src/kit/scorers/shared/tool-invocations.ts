// The agent's counted tool calls with their full invocation (state, result, error), in order.
// `extractToolCalls` says which calls count; the invocation behind each is looked up in the
// message's merged tool list, where its `invocationIndex` points.
import { extractToolCalls, mergeToolInvocations } from '../../utils/tool-calls.ts';

/** What a scorer of tool calls says of a run that made none. */
export const NO_TOOL_CALLS_REASON = 'The agent called no tools.';

export type ToolCallRecord = {
  toolName: string;
  toolCallId: string;
  invocation: Record<string, unknown>;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

// A run's output is read by every tool scorer bound to it (the trajectory scorers are six): the
// calls are listed once per output array. A scorer's own code may still change the output before
// another reads it (a prepareRun editing messages in place), so the list is kept with the output's
// shape — its messages, their part and legacy tool lists and those lists' lengths — and listed
// again when that changed. The records point at the invocation objects themselves, so an
// invocation changed in place is seen through them.
const listedCalls = new WeakMap<object, { shape: unknown[]; calls: readonly ToolCallRecord[] }>();

function shapeOf(output: unknown): unknown[] {
  if (!Array.isArray(output)) return [];
  const shape: unknown[] = [output.length];
  for (const message of output) {
    const content = isRecord(message) ? message.content : undefined;
    const parts = isRecord(content) ? content.parts : undefined;
    const legacy = isRecord(content) ? content.toolInvocations : undefined;
    shape.push(message, content, parts, Array.isArray(parts) ? parts.length : -1, legacy, Array.isArray(legacy) ? legacy.length : -1);
  }
  return shape;
}

const sameShape = (first: readonly unknown[], second: readonly unknown[]) => first.length === second.length && first.every((value, index) => value === second[index]);

export function listToolCalls(output: unknown): readonly ToolCallRecord[] {
  if (typeof output !== 'object' || output === null) return [];
  const shape = shapeOf(output);
  const listed = listedCalls.get(output);
  if (listed !== undefined && sameShape(listed.shape, shape)) return listed.calls;
  const calls = Object.freeze(listCalls(output));
  listedCalls.set(output, { shape, calls });
  return calls;
}

function listCalls(output: unknown): ToolCallRecord[] {
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

/**
 * A call's arguments as the tool receives them. Producers often carry the model's raw JSON text
 * (OTLP spans, some frameworks' messages): a JSON string is parsed. Absent or an empty string is
 * `{}`, as the AI SDK reads them for a tool without parameters. A string that is not JSON is
 * `notJson`: the tool could not have parsed it either.
 */
export function toolArgumentsOf(args: unknown): { args: unknown } | { notJson: string } {
  if (args === undefined || args === null) return { args: {} };
  if (typeof args !== 'string') return { args };
  if (args.trim() === '') return { args: {} };
  try {
    return { args: JSON.parse(args) as unknown };
  } catch {
    return { notJson: args };
  }
}

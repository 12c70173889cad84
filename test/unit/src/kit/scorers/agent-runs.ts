// Realistic agent runs for the built-in scorer tests, in Mastra's message shape: a user turn,
// then assistant messages whose parts hold step starts, tool invocations and text.
import type { DbMessage, MessagePart, ToolInvocation } from '../../../../../src/kit/utils/message-types.ts';
import { createAgentTestRun, createTestMessage, createToolInvocation } from '../../../../../src/kit/testing/agent-test-run.ts';
import type { AgentTestRun } from '../../../../../src/kit/testing/agent-test-run.ts';

export function userMessage(text: string, id = 'user-1'): DbMessage {
  return createTestMessage({ role: 'user', content: text, id });
}

/** An assistant message with the given tool invocations (as parts) followed by its text, if any. */
export function assistantMessage(text: string, tools: ToolInvocation[] = [], id = 'assistant-1'): DbMessage {
  const parts: MessagePart[] = [
    { type: 'step-start' },
    ...tools.map((toolInvocation) => ({ type: 'tool-invocation' as const, toolInvocation })),
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
  ];
  return createTestMessage({ role: 'assistant', content: text, id, parts });
}

export function toolCall(
  toolName: string,
  options: { id?: string; args?: unknown; result?: unknown; state?: ToolInvocation['state']; errorText?: string; isError?: boolean; step?: number } = {},
): ToolInvocation {
  const invocation = createToolInvocation({
    toolCallId: options.id ?? `call-${toolName}`,
    toolName,
    args: options.args ?? {},
    result: options.result ?? { ok: true },
    state: options.state ?? 'result',
  });
  return {
    ...invocation,
    ...(options.errorText === undefined ? {} : { errorText: options.errorText }),
    ...(options.isError === undefined ? {} : { isError: options.isError }),
    ...(options.step === undefined ? {} : { step: options.step }),
  };
}

/** One agent turn: the user's question and the assistant's response messages. */
export function agentTurn(question: string | undefined, output: DbMessage[], extra: { groundTruth?: unknown } = {}): AgentTestRun & { groundTruth?: unknown } {
  const run = createAgentTestRun({
    inputMessages: question === undefined ? [] : [userMessage(question)],
    output,
    runId: 'run-1',
  });
  return extra.groundTruth === undefined ? run : { ...run, groundTruth: extra.groundTruth };
}

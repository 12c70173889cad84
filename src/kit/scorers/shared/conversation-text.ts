// The conversation of a thread run as the thread judges read it: numbered turns, each with what
// the user said, what the agent answered and which tools failed. Bounded, so one long thread does
// not make an unbounded prompt: each message is cut to `maxMessageChars`, and when the whole is
// longer than `maxChars`, turns are left out from the middle (the opening and the latest turns say
// most about a conversation's goal and outcome) with a marker that says how many.
import type { ThreadTurnRun } from '../../scorer/thread-run.ts';
import { getMessageRole, getMessageText } from '../../utils/message-text.ts';
import { isFailedToolCall, listToolCalls } from './tool-invocations.ts';

export type ConversationTextOptions = {
  /** Default 2,000. */
  maxMessageChars?: number;
  /** Default 40,000. */
  maxChars?: number;
};

/** One turn's user messages and answer, as the judges see them. */
export type ConversationTurn = { turn: number; runId: string; user: string[]; assistant: string[]; failedTools: string[] };

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} …[cut]`;
}

function textsWithRole(messages: unknown, role: string, max: number): string[] {
  if (!Array.isArray(messages)) return [];
  return messages.filter((message) => getMessageRole(message) === role).map((message) => getMessageText(message).trim()).filter((text) => text !== '').map((text) => cut(text, max));
}

export function conversationTurns(turns: readonly ThreadTurnRun[], options: ConversationTextOptions = {}): ConversationTurn[] {
  const max = options.maxMessageChars ?? 2_000;
  return turns.map((turn, index) => ({
    turn: index + 1,
    runId: turn.runId,
    user: textsWithRole(turn.input.inputMessages, 'user', max),
    assistant: textsWithRole(turn.output, 'assistant', max),
    failedTools: listToolCalls(turn.output).filter(isFailedToolCall).map((call) => call.toolName),
  }));
}

function turnText(turn: ConversationTurn): string {
  const lines = [`Turn ${turn.turn}`, ...turn.user.map((text) => `user: ${text}`), ...turn.assistant.map((text) => `assistant: ${text}`)];
  if (turn.failedTools.length > 0) lines.push(`(tools that failed in this turn: ${turn.failedTools.join(', ')})`);
  return lines.join('\n');
}

/** The conversation as text: turns separated by blank lines, the middle left out when too long. */
export function conversationText(turns: readonly ConversationTurn[], options: ConversationTextOptions = {}): string {
  const maxChars = options.maxChars ?? 40_000;
  const texts = turns.map(turnText);
  const total = texts.reduce((sum, text) => sum + text.length + 2, 0);
  if (total <= maxChars || texts.length <= 2) return texts.join('\n\n');
  // Keep the first turn, then as many of the latest turns as fit.
  const kept: string[] = [];
  let used = texts[0]!.length + 2;
  for (let index = texts.length - 1; index > 0 && used + texts[index]!.length + 2 <= maxChars; index -= 1) {
    kept.unshift(texts[index]!);
    used += texts[index]!.length + 2;
  }
  const omitted = texts.length - 1 - kept.length;
  return [texts[0]!, `[… ${omitted} turn${omitted === 1 ? '' : 's'} left out …]`, ...kept].join('\n\n');
}

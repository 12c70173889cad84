// The agent's tool calls as the trajectory judges read them (task completion, tool selection):
// numbered, in call order, each with its arguments and its result or error. Bounded, so one run
// with a huge tool result or hundreds of calls does not make an unbounded prompt: each field is
// cut to `maxCallFieldChars` and at most `maxCallsForJudge` calls are listed, every cut marked so
// the judge knows material is missing. Arguments and results are one line of JSON: a newline, an
// ANSI escape or a right-to-left mark in a tool's output cannot break the listing's layout.
import { isFailedToolCall, listToolCalls, toolArgumentsOf } from './tool-invocations.ts';
import type { ToolCallRecord } from './tool-invocations.ts';
import { printableWithin } from './reason-text.ts';

/** How many calls a judge prompt lists; the first ones, the rest counted in a note. */
export const maxCallsForJudge = 30;
/** How much of one call's arguments, result or error a judge prompt shows. */
export const maxCallFieldChars = 500;
/** How much of the user's question or the agent's answer a judge prompt shows. */
export const maxRunTextChars = 4_000;
/** How long a tool name may be in a judge prompt. */
const maxToolNameChars = 100;

/** One call as a judge sees it; `call` is its 1-based number in the listing. */
export type JudgedToolCall = {
  call: number;
  toolName: string;
  toolCallId: string;
  arguments: string;
  /** 'pending': the call never returned (no result, no error). */
  outcome: 'result' | 'error' | 'pending';
  /** The result or the error, absent for a pending call. */
  output?: string;
};

export type JudgedToolCalls = { calls: JudgedToolCall[]; totalCalls: number };

/** What the prompts append to a cut text; the judges' instructions explain it. */
export function cutForJudge(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // Do not leave half of a surrogate pair at the end.
  const end = /[\uD800-\uDBFF]/.test(text[maxChars - 1]!) ? maxChars - 1 : maxChars;
  return `${text.slice(0, end)} …[cut: ${text.length - end} more characters]`;
}

// JSON.stringify escapes control characters, but not format characters (right-to-left marks,
// zero-width joiners) nor the line and paragraph separators; escaping them keeps the line one line.
function escapeFormatCharacters(json: string): string {
  return json.replace(/[\p{Cf}\u2028\u2029]/gu, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value as one line of JSON, cut to `maxCallFieldChars`. */
export function oneLineJson(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    // Cyclic or BigInt-holding values cannot be serialised; their string form still helps.
    json = JSON.stringify(String(value));
  }
  return cutForJudge(escapeFormatCharacters(json), maxCallFieldChars);
}

function argumentsText(args: unknown): string {
  const parsed = toolArgumentsOf(args);
  return 'notJson' in parsed ? `${oneLineJson(parsed.notJson)} (not valid JSON)` : oneLineJson(parsed.args);
}

function judgedCall(record: ToolCallRecord, index: number): JudgedToolCall {
  const { args, result, errorText, state } = record.invocation;
  const base = { call: index + 1, toolName: record.toolName, toolCallId: record.toolCallId, arguments: argumentsText(args) };
  if (isFailedToolCall(record)) {
    const error = typeof errorText === 'string' && errorText !== '' ? errorText : result;
    return { ...base, outcome: 'error', output: oneLineJson(error) };
  }
  if (state === 'result') return { ...base, outcome: 'result', output: oneLineJson(result) };
  return { ...base, outcome: 'pending' };
}

/** The run's first `maxCallsForJudge` tool calls, ready for a judge prompt, and how many there were in all. */
export function judgedToolCalls(output: unknown): JudgedToolCalls {
  const records = listToolCalls(output);
  return { calls: records.slice(0, maxCallsForJudge).map(judgedCall), totalCalls: records.length };
}

/** A tool name on one line, bounded: what a prompt may show of a name the run carried. */
export function toolNameForJudge(name: string): string {
  return printableWithin(name, maxToolNameChars);
}

function callText(call: JudgedToolCall): string {
  const lines = [`${call.call}. ${toolNameForJudge(call.toolName)}`, `   arguments: ${call.arguments}`];
  if (call.outcome === 'pending') lines.push('   (no result: the call never returned)');
  else lines.push(`   ${call.outcome}: ${call.output}`);
  return lines.join('\n');
}

/** The listing: numbered calls, then a note when calls were left out. */
export function toolCallsText({ calls, totalCalls }: JudgedToolCalls): string {
  if (calls.length === 0) return '(The agent called no tools.)';
  const listed = calls.map(callText);
  const omitted = totalCalls - calls.length;
  if (omitted > 0) listed.push(`[… ${omitted} later call${omitted === 1 ? '' : 's'} left out: only the first ${calls.length} are listed …]`);
  return listed.join('\n');
}

/** The shared paragraph of the trajectory judges' prompts that says how to read the listing. */
export const toolCallsReadingNote = `How to read the material: each tool call is numbered in the order the agent made it and shows its arguments and then its result or its error, each as one line of JSON. A call marked "no result" never returned. Text that ends in "…[cut: N more characters]" was shortened for this review, and a note says when calls were left out; do not hold what you cannot see against the agent.`;

// The evidence the faithfulness and hallucination judges check an answer against: the
// context given in the scorer options, or else what the agent's tools returned in this turn.
import { isSuccessfulToolResult, listToolCalls } from './tool-invocations.ts';

// A tool may return megabytes (a whole web page, a table dump); the judge needs the gist and
// a bounded prompt, so each item is cut to this many characters.
export const maxContextItemLength = 8_000;

export type JudgeContext = { items: string[]; source: 'options' | 'tool-results' };

function limit(text: string): string {
  return text.length <= maxContextItemLength ? text : `${text.slice(0, maxContextItemLength)} …[truncated]`;
}

function describeResult(result: unknown): string {
  if (typeof result === 'string') return result;
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    // Cyclic or BigInt-holding results cannot be serialised; their string form still helps.
    return String(result);
  }
}

/** Successful tool results of the run as `toolName: result` lines, in call order. */
export function toolResultContext(output: unknown): string[] {
  return listToolCalls(output)
    .filter(isSuccessfulToolResult)
    .map((call) => limit(`${call.toolName}: ${describeResult(call.invocation.result)}`));
}

/** The configured context when given (even if empty), else the run's tool results. */
export function getJudgeContext(configured: readonly string[] | undefined, output: unknown): JudgeContext {
  if (configured !== undefined) {
    return { items: configured.filter((item) => item.trim() !== '').map(limit), source: 'options' };
  }
  return { items: toolResultContext(output), source: 'tool-results' };
}

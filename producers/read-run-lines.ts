// Reads agent runs from a JSON Lines file, one run per line, streaming (files may be large).
// Every line is checked on its own: a line that is not JSON or breaks the contract is reported
// with its line number and problems, and the valid lines still go through.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Problem } from '../src/kit/contracts/problems.ts';
import { parseAgentRunEvent } from '../src/kit/contracts/parse.ts';

export type RunLine = { line: number; run: unknown } | { line: number; problems: Problem[] };

/** Checks one line; blank lines give undefined. */
export function checkRunLine(text: string, line: number): RunLine | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, problems: [{ path: '', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const parsed = parseAgentRunEvent(value);
  return parsed.success ? { line, run: value } : { line, problems: parsed.problems };
}

export async function* readRunLines(path: string): AsyncGenerator<RunLine> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    const checked = checkRunLine(text, line);
    if (checked !== undefined) yield checked;
  }
}

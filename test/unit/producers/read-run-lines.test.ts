import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRunLine, readRunLines } from '../../../producers/read-run-lines.ts';
import { wireRunEvent } from '../src/kit/contracts/fixtures.ts';

describe('checkRunLine', () => {
  it('skips blank lines', () => {
    expect(checkRunLine('   ', 3)).toBeUndefined();
  });

  it('returns the parsed JSON of a valid run', () => {
    expect(checkRunLine(JSON.stringify(wireRunEvent()), 1)).toEqual({ line: 1, run: wireRunEvent() });
  });

  it('reports malformed JSON and contract problems with the line number', () => {
    expect(checkRunLine('{"runId":', 7)).toEqual({ line: 7, problems: [{ path: '', message: expect.stringContaining('not valid JSON') }] });
    expect(checkRunLine(JSON.stringify({ ...wireRunEvent(), runId: '' }), 8)).toEqual({ line: 8, problems: [{ path: 'runId', message: expect.any(String) }] });
  });
});

describe('readRunLines', () => {
  it('streams every line of a file with its number, CRLF included', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scorestream-runs-'));
    const path = join(directory, 'runs.jsonl');
    const valid = JSON.stringify(wireRunEvent());
    await writeFile(path, `${valid}\r\n\nnot json\n${valid}`);
    const lines = [];
    for await (const entry of readRunLines(path)) lines.push(entry);
    expect(lines.map((entry) => [entry.line, 'run' in entry])).toEqual([[1, true], [3, false], [4, true]]);
  });
});

// `scorestream otlp inspect --file`: the three file forms it reads (OTLP/JSON lines as the
// Collector's file exporter writes them, one pretty-printed OTLP/JSON request, one protobuf
// request) and its usage errors.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run, spansOfFile } from '../../../cli/commands/otlp.ts';
import { FIXTURE_DIRECTORY } from '../../helpers/framework-fixtures.ts';
import { encodeSpans, runWeatherAgent, spanRecorder } from '../../helpers/otlp-traces.ts';

let directory: string;
let printed: string[];
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'otlp-inspect-'));
  printed = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(directory, { recursive: true, force: true });
});

describe('scorestream otlp inspect --file', () => {
  it('reads OTLP/JSON lines and prints each trace with its run', async () => {
    expect(await run(['inspect', '--file', join(FIXTURE_DIRECTORY, 'strands-python.jsonl')])).toBe(0);
    const text = printed.join('\n');
    expect(text).toContain("rule agent_span  span 'invoke_agent Strands Agents'");
    expect(text).toContain('question      "What is the weather in Paris?"   (events of \'invoke_agent Strands Agents\')');
  });

  it('reads one pretty-printed OTLP/JSON request, and a protobuf request', async () => {
    const [line] = (await readFile(join(FIXTURE_DIRECTORY, 'mastra-js.jsonl'), 'utf8')).split('\n');
    const pretty = join(directory, 'request.json');
    await writeFile(pretty, JSON.stringify(JSON.parse(line!), null, 2));
    expect(spansOfFile(await readFile(pretty), pretty, [])).toHaveLength(10);

    const recorder = spanRecorder();
    await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer });
    const proto = join(directory, 'request.pb');
    await writeFile(proto, encodeSpans(recorder.spans(), 'otlp_proto'));
    await recorder.shutdown();
    expect(await run(['inspect', '--file', proto, '--json'])).toBe(0);
    const [trace] = printed.map((entry) => JSON.parse(entry) as { runs: Array<{ rule: string; event: { entity: { id: string } } }> });
    expect(trace!.runs).toMatchObject([{ rule: 'agent_span', event: { entity: { id: 'weather-agent' } } }]);
  });

  it('reports what it cannot read, and refuses bad options with the usage (exit 2)', async () => {
    const broken = join(directory, 'broken.jsonl');
    await writeFile(broken, '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}\n{not json\n');
    const problems: string[] = [];
    expect(spansOfFile(await readFile(broken), broken, problems)).toEqual([]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(`${broken} line 1: invalid_otlp`);
    expect(await run(['inspect', '--file', broken])).toBe(1);
    expect(await run(['inspect', '--file', broken, '--nested-agents', 'innermost'])).toBe(2);
    expect(await run(['inspect', '--encoding', 'avro'])).toBe(2);
    expect(await run(['explain'])).toBe(2);
  });
});

// `node local/agents/capture.ts [--current] [id ...]`: captures the OTLP fixtures of the real
// agent frameworks (frameworks.ts) into test/fixtures/otlp/. For each framework: install it
// (cached, framework-env.ts), run its tool-calling agent against the scripted model server, with
// its OpenTelemetry exporting OTLP/HTTP to a direct receiver that records exactly what arrived,
// and write those requests as OTLP/JSON lines to <id>.jsonl — and the logs requests, for the
// frameworks that put content in log-based events, to <id>.logs.jsonl — and what was installed to
// frameworks.json. `--current` installs the newest releases instead of the pins, so the fixtures
// (and the unit tests that read them) follow the frameworks as they change.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { FRAMEWORK_AGENTS, frameworkAgent, unpinned } from './frameworks.ts';
import type { FrameworkAgent } from './frameworks.ts';
import { startOtlpReceiver } from './otlp-receiver.ts';
import { runFrameworkAgent } from './run-framework-agent.ts';
import { startScriptedModelServer } from './scripted-model-server.ts';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'otlp');
const MANIFEST = join(FIXTURES, 'frameworks.json');

/** `logRequests` and `logRecords` only when the framework sent logs (<id>.logs.jsonl). */
export type CapturedFramework = { id: string; title: string; conventions: string; packages: string[]; capturedAt: string; requests: number; spans: number; logRequests?: number; logRecords?: number };

/** The installed version of each package the framework names, from pip freeze / the npm list. */
function installedVersions(framework: FrameworkAgent, installed: string): string[] {
  const lines = installed.split('\n').map((line) => line.trim());
  return unpinned(framework.packages).map((name) => {
    const bare = name.replace(/\[.*\]$/, '');
    const normalised = bare.toLowerCase().replace(/[-_.]+/g, '-');
    const line = lines.find((candidate) => (framework.language === 'python' ? candidate.toLowerCase().replace(/[-_.]+/g, '-').startsWith(`${normalised}==`) : candidate.startsWith(`${bare}@`)));
    return line ?? `${bare} (version unknown)`;
  });
}

async function waitForQuiet(count: () => number, quietMs = 750, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < deadline) {
    const now = count();
    if (now === last && now > 0) return;
    last = now;
    await sleep(quietMs);
  }
}

export async function captureFramework(framework: FrameworkAgent, options: { current?: boolean; log?: (line: string) => void } = {}): Promise<CapturedFramework> {
  const model = await startScriptedModelServer();
  const receiver = await startOtlpReceiver();
  try {
    const result = await runFrameworkAgent(framework, { modelBaseURL: model.baseURL, tracesUrl: receiver.tracesUrl }, { ...(options.current === undefined ? {} : { current: options.current }), onInstall: (message) => options.log?.(message) });
    await waitForQuiet(() => receiver.spanCount() + receiver.logRecordCount());
    if (receiver.spanCount() === 0) throw new Error(`the ${framework.title} agent ran (it said: ${result.stdout.trim().slice(0, 200)}) but exported no span`);
    const lines = (requests: ReadonlyArray<Record<string, unknown>>) => requests.map((request) => JSON.stringify(request)).join('\n') + '\n';
    await writeFile(join(FIXTURES, `${framework.id}.jsonl`), lines(receiver.requests));
    const logs = join(FIXTURES, `${framework.id}.logs.jsonl`);
    if (receiver.logRequests.length > 0) await writeFile(logs, lines(receiver.logRequests));
    else await rm(logs, { force: true });
    return {
      id: framework.id,
      title: framework.title,
      conventions: framework.conventions,
      packages: installedVersions(framework, result.installed),
      capturedAt: new Date().toISOString(),
      requests: receiver.requests.length,
      spans: receiver.spanCount(),
      ...(receiver.logRequests.length > 0 ? { logRequests: receiver.logRequests.length, logRecords: receiver.logRecordCount() } : {}),
    };
  } finally {
    await receiver.close();
    await model.close();
  }
}

/** The framework's entry in frameworks.json, read afresh just before (so captures running side by side keep each other's). */
async function recordInManifest(captured: CapturedFramework) {
  const manifest = JSON.parse(await readFile(MANIFEST, 'utf8').catch(() => '[]')) as CapturedFramework[];
  const index = manifest.findIndex((entry) => entry.id === captured.id);
  if (index === -1) manifest.push(captured);
  else manifest[index] = captured;
  manifest.sort((a, b) => FRAMEWORK_AGENTS.findIndex((framework) => framework.id === a.id) - FRAMEWORK_AGENTS.findIndex((framework) => framework.id === b.id));
  await writeFile(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

async function main() {
  const { values, positionals } = parseArgs({ options: { current: { type: 'boolean', default: false } }, allowPositionals: true });
  const frameworks = positionals.length === 0 ? FRAMEWORK_AGENTS : positionals.map(frameworkAgent);
  let failed = 0;
  for (const framework of frameworks) {
    process.stderr.write(`capturing ${framework.id} …\n`);
    try {
      const captured = await captureFramework(framework, { current: values.current, log: (line) => process.stderr.write(`  ${line}\n`) });
      await recordInManifest(captured);
      const logs = captured.logRequests === undefined ? '' : `, ${captured.logRecords} log records in ${captured.logRequests} requests`;
      process.stderr.write(`  ${captured.spans} spans in ${captured.requests} requests${logs} (${captured.packages.join(', ')})\n`);
    } catch (error) {
      failed += 1;
      process.stderr.write(`  failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  if (failed > 0) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

// The package as a user gets it: `npm pack` (which builds dist/), the tarball installed into a new
// project offline from npm's cache (test/helpers/consumer-project.ts), then
//   - a TypeScript app (module nodenext) type-checks against the entries and runs a scorer inside
//     its own span: the scorer's spans are children of the app's span (one @opentelemetry/api);
//   - plain-JS ESM imports and CommonJS require() (Node's require(esm)) load every entry;
//   - the installed `scorestream` command scores sample runs on the test broker with a config in
//     the project's own folder, and never runs npm.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TraceFlags } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleRuns } from '../../../producers/sample/index.ts';
import { installConsumer, packRepository, repositoryRoot, writeConsumerProject } from '../../helpers/consumer-project.ts';
import { readMessages, testBrokers, uniqueGroupId, uniqueName, useTopic } from '../../helpers/kafka.ts';

let workspace: string;
let project: string;
let tarball: string;

const entries = ['scorestream', 'scorestream/producer', 'scorestream/testing', 'scorestream/ai-sdk'];
/** One runtime export per entry, to see that each loaded for real. */
const probes: Record<string, string> = {
  scorestream: 'createScorer',
  'scorestream/producer': 'createRunPublisher',
  'scorestream/testing': 'mockJudge',
  'scorestream/ai-sdk': 'publishAiSdkRun',
};

function node(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8', env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'scorestream-package-'));
  project = join(workspace, 'app');
  mkdirSync(project);
  tarball = packRepository(workspace);
  writeConsumerProject(project, tarball, ['@opentelemetry/sdk-trace', '@opentelemetry/context-async-hooks', '@types/node']);
  installConsumer(project);
}, 300_000);

afterAll(() => {
  if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
});

describe('the packed package, installed into a new project', () => {
  it('holds the compiled entries, the command, the shipped flags, the licence and the changelog, and no sources, tests or benchmarks', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    for (const file of ['package/LICENSE', 'package/CHANGELOG.md', 'package/dist/src/index.js', 'package/dist/src/index.d.ts', 'package/dist/src/index.js.map', 'package/dist/producers/ai-sdk/index.js', 'package/bin/scorestream.js', 'package/scripts/node-flags']) {
      expect(files).toContain(file);
    }
    expect(files.filter((file) => /^package\/(src|test|bench|local|cli|producers|consumers|service|otel|examples)\//.test(file) || file.endsWith('.test.js'))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
  });

  it('shares the app\'s @opentelemetry/api, ai and zod: no private copies under scorestream/', () => {
    for (const peer of ['@opentelemetry/api', 'ai', 'zod']) {
      expect(existsSync(join(project, 'node_modules', peer, 'package.json'))).toBe(true);
      expect(existsSync(join(project, 'node_modules', 'scorestream', 'node_modules', peer))).toBe(false);
    }
  });

  it('type-checks a TypeScript app (module nodenext) and runs a scorer inside the app\'s own span', () => {
    copyFileSync(join(repositoryRoot, 'test/fixtures/consumer/scorer-in-app-span.ts'), join(project, 'app.ts'));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2023', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], allowImportingTsExtensions: true }, files: ['app.ts'] }),
    );
    node([join(repositoryRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);

    const report = JSON.parse(node(['app.ts']).trim().split('\n').at(-1)!) as {
      score: number;
      reason: string;
      app: { traceId: string; spanId: string };
      others: Array<{ name: string; traceId: string; parentSpanId?: string }>;
      eventAgent: string;
    };
    expect(report).toMatchObject({ score: 1, reason: 'said please', eventAgent: 'support' });
    expect(report.others.map((span) => span.name).sort()).toEqual(['generateReason', 'generateScore', 'preprocess']);
    for (const span of report.others) expect(span).toMatchObject({ traceId: report.app.traceId, parentSpanId: report.app.spanId });
  });

  it('loads every entry from plain-JS ESM and, through require(esm), from CommonJS', () => {
    const imports = entries.map((entry, index) => `import * as e${index} from '${entry}';`).join('\n');
    writeFileSync(join(project, 'entries.mjs'), `${imports}\nconsole.log(JSON.stringify([${entries.map((entry, index) => `typeof e${index}.${probes[entry]}`).join(', ')}]));\n`);
    expect(JSON.parse(node(['entries.mjs']))).toEqual(entries.map(() => 'function'));

    writeFileSync(join(project, 'entries.cjs'), `console.log(JSON.stringify([${entries.map((entry) => `typeof require('${entry}').${probes[entry]}`).join(', ')}]));\n`);
    expect(JSON.parse(node(['entries.cjs']).trim().split('\n').at(-1)!)).toEqual(entries.map(() => 'function'));
  });

  it('the installed command scores sample runs with a config from the project folder, without running npm', async () => {
    const [runs, results] = await Promise.all([useTopic({ prefix: 'pkg-runs', partitions: 2 }), useTopic({ prefix: 'pkg-scores' })]);
    writeFileSync(
      join(project, 'scorestream.config.ts'),
      `import { createCompletenessScorer, defineConfig } from 'scorestream';
export default defineConfig({
  kafka: { brokers: ['overridden:9092'] },
  groupId: 'overridden',
  topics: { runs: 'overridden', results: 'overridden', deadLetter: 'overridden' },
  scorers: [{ scorer: createCompletenessScorer() }],
});
`,
    );
    // An `npm` first on PATH that leaves a mark: the command must never call it.
    const trap = join(workspace, 'npm-trap');
    mkdirSync(trap, { recursive: true });
    const marker = join(workspace, 'npm-was-run');
    writeFileSync(join(trap, 'npm'), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
    chmodSync(join(trap, 'npm'), 0o755);
    const env = {
      ...process.env,
      PATH: `${trap}:${process.env.PATH ?? ''}`,
      KAFKA_BROKERS: testBrokers().join(','),
      SCORESTREAM_GROUP_ID: uniqueGroupId('pkg'),
      SCORESTREAM_TOPIC_RUNS: runs,
      SCORESTREAM_TOPIC_RESULTS: results,
      SCORESTREAM_TOPIC_DEAD_LETTER: uniqueName('pkg-dlq'),
      SCORESTREAM_LOG_LEVEL: 'warn',
    };
    const command = join(project, 'node_modules/.bin/scorestream');

    expect(execFileSync(command, ['--help'], { cwd: project, env, encoding: 'utf8' })).toContain('usage: scorestream <command>');
    const service = spawn(command, ['start', '--config', './scorestream.config.ts'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    service.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    service.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
    try {
      execFileSync(command, ['produce', '--sample', '--count', '20', '--seed', 'package', '--topic', runs], { cwd: project, env, encoding: 'utf8' });
      // Sample traffic declines about one trace in ten (not sampled); with traceSampling 'ignore'
      // (the default) those runs are scored all the same.
      const samples = generateSampleRuns(20, { seed: 'package' });
      expect(samples.some((sample) => sample.spanContext.traceFlags !== TraceFlags.SAMPLED)).toBe(true);
      const scorable = samples;
      const records = await readMessages(results, { count: scorable.length, timeoutMs: 90_000 });
      const parsed = records.map((record) => JSON.parse(record.value!.toString()) as { runId: string; scorerId: string; status: string });
      expect(parsed.map((record) => record.runId).sort()).toEqual(scorable.map((sample) => sample.event.runId).sort());
      expect(parsed.map((record) => record.scorerId)).toEqual(Array(scorable.length).fill('completeness'));
      expect(parsed.every((record) => record.status === 'scored' || record.status === 'not_scorable')).toBe(true);
    } finally {
      service.kill('SIGTERM');
    }
    expect(await exited, output.join('')).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('`npx scorestream` runs the installed command', () => {
    expect(execFileSync('npx', ['--offline', 'scorestream', '--help'], { cwd: project, encoding: 'utf8' })).toContain('usage: scorestream <command>');
  });
});

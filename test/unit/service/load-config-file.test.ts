// Config files live in the user's repository. These tests write them to a temporary folder, far
// from this checkout, and load them in a fresh Node process (the resolve hook is Node's own, which
// vitest's module runner would bypass), the way `scorestream start --config` does.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageNameOf } from '../../../service/config-imports.ts';

const repo = (path: string) => new URL(`../../../${path}`, import.meta.url).href;

/** Loads the config as the CLI does, validates it, runs its first scorer once; prints what came out (or the error). */
const loader = `
import { loadConfigFile } from '${repo('service/load-config-file.ts')}';
import { resolveConfig } from '${repo('src/engine/config/resolve-config.ts')}';
try {
  const config = resolveConfig(await loadConfigFile(process.argv[1]));
  const [binding] = config.scorers;
  const result = await binding.scorer.run({ runId: 'run-1', input: { inputMessages: [] }, output: [] });
  console.log(JSON.stringify({ groupId: config.groupId, scorerId: binding.scorerId, score: result.score, reason: result.reason }));
} catch (error) {
  console.log(JSON.stringify({ error: error.message }));
}
`;

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'scorestream-user-config-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function load(configSource: string, fileName = 'scorestream.config.ts'): Record<string, unknown> {
  const file = join(folder, fileName);
  writeFileSync(file, configSource);
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', loader, file], { cwd: folder, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

const configUsing = (zodImport: string, groupId: string) => `
import { createScorer, defineConfig } from 'scorestream';
${zodImport}
const length = createScorer({ id: 'answer-length', description: 'long enough?' })
  .preprocess(({ run }) => ({ parsed: z.object({ runId: z.string() }).parse(run) }))
  .generateScore(({ results }) => (results.preprocessStepResult.parsed.runId === 'run-1' ? 1 : 0))
  .generateReason(() => 'checked with zod');
export default defineConfig({
  kafka: { brokers: ['127.0.0.1:9092'] },
  groupId: ${groupId},
  topics: { runs: 'runs', results: 'scores', deadLetter: 'dlq' },
  scorers: [{ scorer: length }],
});
`;

// Each case loads a config in a fresh Node process; a loaded machine takes seconds per start.
describe('loading a config file that lives outside this checkout', { timeout: 60_000 }, () => {
  it("resolves 'scorestream' to this installation and 'zod' to ours when the config's folder has none", () => {
    const result = load(configUsing("import { z } from 'zod';", "'user-group'"));
    expect(result).toEqual({ groupId: 'user-group', scorerId: 'answer-length', score: 1, reason: 'checked with zod' });
  });

  it("prefers the user's own copy of one of our dependencies when their folder has it", () => {
    const zod = join(folder, 'node_modules', 'zod');
    mkdirSync(zod, { recursive: true });
    writeFileSync(join(zod, 'package.json'), JSON.stringify({ name: 'zod', type: 'module', exports: './index.js' }));
    writeFileSync(join(zod, 'index.js'), "export const marker = 'the user\\'s zod';\n");
    const result = load(`
import { createScorer, defineConfig } from 'scorestream';
import { marker } from 'zod';
export default defineConfig({
  kafka: { brokers: ['127.0.0.1:9092'] },
  groupId: marker,
  topics: { runs: 'runs', results: 'scores', deadLetter: 'dlq' },
  scorers: [{ scorer: createScorer({ id: 'fixed', description: 'always 1' }).generateScore(() => 1) }],
});
`);
    expect(result).toMatchObject({ groupId: "the user's zod", scorerId: 'fixed', score: 1 });
  });

  it('leaves every other package to Node, so a missing one is reported as missing', () => {
    const result = load(`import leftPad from 'left-pad';\nexport default { leftPad };\n`);
    expect(result.error).toContain("the file could not be loaded: Cannot find package 'left-pad'");
  });

  it('rejects a path Scorestream does not export, naming it and the config that imported it', () => {
    const result = load(`import { nothing } from 'scorestream/internal';\nexport default { nothing };\n`);
    expect(result.error).toContain(`cannot resolve 'scorestream/internal' imported from file://${join(folder, 'scorestream.config.ts')} with this Scorestream installation`);
    expect(result.error).toContain("'./internal'");
  });

  it('resolves the same for a CommonJS config that require()s them', () => {
    const result = load(
      `const { createScorer, defineConfig } = require('scorestream');
const { z } = require('zod');
module.exports = defineConfig({
  kafka: { brokers: ['127.0.0.1:9092'] },
  groupId: z.string().parse('commonjs-group'),
  topics: { runs: 'runs', results: 'scores', deadLetter: 'dlq' },
  scorers: [{ scorer: createScorer({ id: 'fixed', description: 'always 1' }).generateScore(() => 1) }],
});
`,
      'scorestream.config.js',
    );
    expect(result).toMatchObject({ groupId: 'commonjs-group', scorerId: 'fixed', score: 1 });
  });
});

describe('packageNameOf', () => {
  it('takes the package name from a bare specifier, scoped or not, and nothing from paths and URLs', () => {
    expect(packageNameOf('scorestream')).toBe('scorestream');
    expect(packageNameOf('scorestream/producer')).toBe('scorestream');
    expect(packageNameOf('@ai-sdk/provider')).toBe('@ai-sdk/provider');
    expect(packageNameOf('@ai-sdk/provider/sub/path')).toBe('@ai-sdk/provider');
    expect(packageNameOf('./local.ts')).toBeUndefined();
    expect(packageNameOf('/abs/file.ts')).toBeUndefined();
    expect(packageNameOf('#internal')).toBeUndefined();
    expect(packageNameOf('node:fs')).toBeUndefined();
    expect(packageNameOf('file:///x.ts')).toBeUndefined();
  });
});

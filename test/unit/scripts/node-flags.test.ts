// The service's Node flags live in scripts/node-flags (read by bin/scorestream and the pipeline
// benchmark); the Dockerfile cannot read files at run time, so it repeats them: keep them in step.
// Both put them in NODE_OPTIONS, where a user's own NODE_OPTIONS override them. bin/scorestream
// also turns Node's compile cache on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const path = (relative: string) => fileURLToPath(new URL(`../../../${relative}`, import.meta.url));
const read = (relative: string) => readFileSync(path(relative), 'utf8');
const shippedFlags = read('scripts/node-flags').trim().split(/\s+/);

/**
 * Runs bin/scorestream with a module imported before the CLI that reports what V8 was given:
 * NODE_OPTIONS as the process saw it, and the largest size the young generation reached under
 * enough allocation to grow it to its maximum (two semi-spaces). The largest, not the last: V8
 * shrinks the young generation again when the allocation rate it measures falls, as it does for a
 * process descheduled on a loaded machine (a fresh-clone CI run saw 4 MB at the end for a maximum
 * of 8). It exits before the CLI runs.
 */
type Probe = { nodeOptions: string; newSpaceMb: number; compileCacheDirectory: string | undefined };

function probeScorestream(userNodeOptions: string | undefined, environment: Record<string, string> = {}): Probe {
  const probe = [
    "import v8 from 'node:v8';",
    "import { getCompileCacheDir } from 'node:module';",
    "const newSpaceSize = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;",
    'let keep = [];',
    'let largest = 0;',
    'for (let i = 0; i < 4e6; i += 1) { keep.push({ i }); if (keep.length > 3e5) keep = []; if (i % 1e5 === 0) largest = Math.max(largest, newSpaceSize()); }',
    'largest = Math.max(largest, newSpaceSize());',
    'console.log(JSON.stringify({ nodeOptions: process.env.NODE_OPTIONS, newSpaceMb: largest / 2 ** 20, compileCacheDirectory: getCompileCacheDir() }));',
    'process.exit(0);',
  ].join('\n');
  const importProbe = `--import=data:text/javascript,${encodeURIComponent(probe)}`;
  const nodeOptions = [userNodeOptions, importProbe].filter((entry) => entry !== undefined).join(' ');
  const { NODE_COMPILE_CACHE: _inherited, ...inherited } = process.env;
  const output = execFileSync(path('bin/scorestream'), ['--help'], { env: { ...inherited, NODE_OPTIONS: nodeOptions, ...environment }, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1)!) as Probe;
}

// Each case starts Node (some through bash); a loaded machine takes seconds per start.
describe("bin/scorestream's Node settings", { timeout: 60_000 }, () => {
  it('are the same in scripts/node-flags and the Dockerfile (in NODE_OPTIONS)', () => {
    expect(shippedFlags.length).toBeGreaterThan(0);
    const nodeOptionsLine = read('Dockerfile').split('\n').find((line) => line.startsWith('ENV NODE_OPTIONS='));
    expect(nodeOptionsLine).toBe(`ENV NODE_OPTIONS="${shippedFlags.join(' ')}"`);
  });

  it('bin/scorestream runs the service with them', () => {
    const seen = probeScorestream(undefined);
    expect(seen.nodeOptions.startsWith(shippedFlags.join(' '))).toBe(true);
    // --max-semi-space-size=16: two 16 MB semi-spaces. V8 sometimes reports one more page than the
    // semi-spaces (9 MB for 4 MB ones seen in a fresh-clone CI run), so the bound is what separates
    // the shipped flag from the user's 4 (8 MB, next test) and from Node's own sizing.
    expect(seen.newSpaceMb).toBeGreaterThanOrEqual(32);
    expect(seen.newSpaceMb).toBeLessThan(40);
  });

  it("bin/scorestream lets the user's NODE_OPTIONS override them", () => {
    const seen = probeScorestream('--max-semi-space-size=4');
    expect(seen.nodeOptions.startsWith(`${shippedFlags.join(' ')} --max-semi-space-size=4`)).toBe(true);
    expect(seen.newSpaceMb).toBeGreaterThanOrEqual(8);
    expect(seen.newSpaceMb).toBeLessThan(16);
  });

  it('turns on Node\'s compile cache under the user cache directory, unless NODE_COMPILE_CACHE says where', () => {
    const cacheHome = mkdtempSync(join(tmpdir(), 'scorestream-cache-'));
    const seen = probeScorestream(undefined, { XDG_CACHE_HOME: cacheHome });
    expect(seen.compileCacheDirectory?.startsWith(join(cacheHome, 'scorestream', 'node-compile-cache'))).toBe(true);
    expect(readdirSync(join(cacheHome, 'scorestream', 'node-compile-cache')).length).toBeGreaterThan(0); // written on exit

    const chosen = mkdtempSync(join(tmpdir(), 'scorestream-compile-cache-'));
    expect(probeScorestream(undefined, { XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: chosen }).compileCacheDirectory?.startsWith(chosen)).toBe(true);
  });
});

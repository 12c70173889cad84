// bin/scorestream.js, the installed package's command, in a checkout that was never built: it says
// what to run instead and exits 1 (it never builds or installs anything itself).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('without dist/, bin/scorestream.js names the missing build and the command to use', () => {
  const folder = mkdtempSync(join(tmpdir(), 'scorestream-bin-'));
  try {
    mkdirSync(join(folder, 'bin'));
    copyFileSync(fileURLToPath(new URL('../../../bin/scorestream.js', import.meta.url)), join(folder, 'bin', 'scorestream.js'));
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
    const result = spawnSync(process.execPath, [join(folder, 'bin', 'scorestream.js'), '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${join(folder, 'dist', 'cli', 'main.js')} is missing`);
    expect(result.stderr).toContain('Run ./bin/scorestream, or build the package first (npm run build)');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

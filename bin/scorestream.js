#!/usr/bin/env node
// The `scorestream` command of the installed package (package.json "bin"; `npx scorestream ...`).
// It runs the compiled CLI in dist/ and never installs anything: npm already did. In a clone of
// the repository, bin/scorestream (bash) is the command instead: it runs the TypeScript sources
// without a build.
//
// The service's Node settings (scripts/node-flags: a V8 young generation sized for the runs in flight, docs/benchmarks.md)
// must be given when V8 starts, so the command re-executes itself once with them first in
// NODE_OPTIONS, where a user's own NODE_OPTIONS come after them and win (as bin/scorestream does).
// process.execve replaces this process (same pid, signals and exit code reach the CLI directly);
// where it does not exist (Windows), the CLI runs with Node's defaults.
import { existsSync, readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const APPLIED = 'SCORESTREAM_NODE_FLAGS_APPLIED';
const main = new URL('../dist/cli/main.js', import.meta.url);

if (!existsSync(main)) {
  process.stderr.write(`scorestream: ${fileURLToPath(main)} is missing: this is a source checkout. Run ./bin/scorestream, or build the package first (npm run build)\n`);
  process.exit(1);
}

if (process.env[APPLIED] !== '1' && typeof process.execve === 'function') {
  const shipped = readFileSync(new URL('../scripts/node-flags', import.meta.url), 'utf8').trim();
  const quiet = '--disable-warning=ExperimentalWarning --disable-warning=TimeoutNegativeWarning';
  const nodeOptions = [shipped, quiet, process.env.NODE_OPTIONS].filter(Boolean).join(' ');
  process.execve(process.execPath, [process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    ...process.env,
    NODE_OPTIONS: nodeOptions,
    [APPLIED]: '1',
  });
}

// Node's compile cache: from the second start on, modules load without recompiling.
enableCompileCache(process.env.NODE_COMPILE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'scorestream', 'node-compile-cache'));
await import(main.href);

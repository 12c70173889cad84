// node-llama-cpp, installed on demand: the first local judge (or `models fetch`, or CI) installs
// node-llama-cpp 3.21.1 with only the CPU build for this platform into the cache — about 80 MB,
// where a plain `npm install node-llama-cpp` brings every build (CUDA, Vulkan, ARM: ~730 MB) —
// and imports it from there. Users who never run a local judge download nothing.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withDirectoryLock } from '../kafka/directory-lock.ts';
import { scorestreamCacheDirectory } from '../kafka/paths.ts';
import { lastLines, runCommand } from '../kafka/run-command.ts';
import type { LlamaRuntime } from './llama-api.ts';
import { localModelError } from './model-errors.ts';

/** Pinned: newer releases' lock files do not install on every machine we run on. */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';

const completeMarker = '.complete';

/** The prebuilt CPU binding package for a platform, as node-llama-cpp names them. */
export function prebuiltBindingPackage(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  if (platform === 'linux' && (arch === 'x64' || arch === 'arm64')) return `@node-llama-cpp/linux-${arch}`;
  if (platform === 'darwin' && arch === 'arm64') return '@node-llama-cpp/mac-arm64-metal';
  if (platform === 'darwin' && arch === 'x64') return '@node-llama-cpp/mac-x64';
  if (platform === 'win32' && (arch === 'x64' || arch === 'arm64')) return `@node-llama-cpp/win-${arch}`;
  throw localModelError('MODEL_PREREQUISITE_MISSING', `node-llama-cpp has no prebuilt binary for ${platform}-${arch}; use a judge on an OpenAI-compatible server instead (SCORESTREAM_JUDGE_BASE_URL).`);
}

export function llamaRuntimeDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  return join(scorestreamCacheDirectory(environment), `node-llama-cpp-${NODE_LLAMA_CPP_VERSION}`);
}

/** Installs node-llama-cpp into the cache once; returns its folder. */
export async function installLlamaRuntime(environment: NodeJS.ProcessEnv = process.env, onLine?: (line: string) => void): Promise<string> {
  const directory = llamaRuntimeDirectory(environment);
  if (existsSync(join(directory, completeMarker))) return directory;
  await mkdir(directory, { recursive: true });
  return withDirectoryLock(join(directory, '.lock'), async () => {
    if (existsSync(join(directory, completeMarker))) return directory;
    const binding = prebuiltBindingPackage();
    onLine?.(`installing node-llama-cpp ${NODE_LLAMA_CPP_VERSION} with its CPU build only (${binding}, about 80 MB) into ${directory}`);
    await rm(join(directory, 'node_modules'), { recursive: true, force: true });
    await writeFile(
      join(directory, 'package.json'),
      JSON.stringify({ name: 'scorestream-local-judge-runtime', private: true, type: 'module', dependencies: { 'node-llama-cpp': NODE_LLAMA_CPP_VERSION, [binding]: NODE_LLAMA_CPP_VERSION } }, null, 2),
    );
    // --omit=optional skips the other platforms' and GPU builds; --ignore-scripts skips the
    // postinstall that would try to download or compile llama.cpp when a prebuilt binary fits.
    const result = await runCommand('npm', ['install', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: directory,
      env: { ...environment, NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true' },
      timeoutMs: 15 * 60_000,
    });
    if (result.code !== 0) {
      throw localModelError(
        'MODEL_RUNTIME_INSTALL_FAILED',
        `npm could not install node-llama-cpp ${NODE_LLAMA_CPP_VERSION} into ${directory} (exit ${result.code ?? 'timeout'}${result.missing ? ', npm not found' : ''}):\n${lastLines(result.stdout + '\n' + result.stderr, 10)}\n` +
          'Check that the npm registry is reachable, then try again.',
      );
    }
    await writeFile(join(directory, completeMarker), `${NODE_LLAMA_CPP_VERSION}\n`);
    return directory;
  });
}

let loaded: Promise<LlamaRuntime> | undefined;

/** Installs (first time) and imports node-llama-cpp; one module instance per process. */
export function loadLlamaRuntime(environment: NodeJS.ProcessEnv = process.env, onLine?: (line: string) => void): Promise<LlamaRuntime> {
  loaded ??= (async () => {
    const directory = await installLlamaRuntime(environment, onLine);
    const entry = pathToFileURL(join(directory, 'node_modules', 'node-llama-cpp', 'dist', 'index.js')).href;
    const module = (await import(entry)) as Partial<LlamaRuntime>;
    if (typeof module.getLlama !== 'function' || typeof module.LlamaChatSession !== 'function') {
      throw localModelError('MODEL_RUNTIME_INSTALL_FAILED', `${entry} does not export getLlama and LlamaChatSession; delete ${directory} and try again.`);
    }
    return module as LlamaRuntime;
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

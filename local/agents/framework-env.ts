// Installs a framework agent's packages (frameworks.ts) once, outside the clone, like the Kafka jars
// and the Collector: a Python venv from PyPI or an npm folder from the npm registry under
// `${XDG_CACHE_HOME:-~/.cache}/scorestream/agent-frameworks/<id>-<hash of the packages>/`. A folder
// is ready once its `.ready` file (what was installed, as pip freeze / npm ls print it) exists;
// concurrent callers take turns (a directory lock), and a failed install leaves no `.ready`.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDirectoryLock } from '../kafka/directory-lock.ts';
import { scorestreamCacheDirectory } from '../kafka/paths.ts';
import { lastLines, runCommand } from '../kafka/run-command.ts';
import type { FrameworkAgent } from './frameworks.ts';
import { unpinned } from './frameworks.ts';

type Environment = Record<string, string | undefined>;

export const APPS_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), 'apps');

export class FrameworkInstallError extends Error {
  override readonly name = 'FrameworkInstallError';
}

export type FrameworkEnv = {
  directory: string;
  /** The program and arguments that run the framework's app. */
  command: string;
  args: string[];
  /** What was installed (pip freeze, or the npm packages with their versions). */
  installed: string;
};

export type EnsureFrameworkOptions = {
  /** Install the newest versions instead of the pins (a re-capture against current releases). */
  current?: boolean;
  environment?: Environment;
  onInstall?: (message: string) => void;
  /** Bound on one install (default 15 minutes: a cold pip install of a framework on two cores). */
  timeoutMs?: number;
};

export function frameworkEnvDirectory(framework: FrameworkAgent, options: Pick<EnsureFrameworkOptions, 'current' | 'environment'> = {}): string {
  const packages = options.current === true ? [...unpinned(framework.packages), `current-${new Date().toISOString().slice(0, 10)}`] : [...framework.packages];
  const hash = createHash('sha256').update(`${framework.language}\n${packages.join('\n')}`).digest('hex').slice(0, 10);
  return join(scorestreamCacheDirectory(options.environment ?? process.env), 'agent-frameworks', `${framework.id}-${hash}`);
}

/** The framework's ready environment, installing it first when the cache has none. */
export async function ensureFrameworkEnv(framework: FrameworkAgent, options: EnsureFrameworkOptions = {}): Promise<FrameworkEnv> {
  const directory = frameworkEnvDirectory(framework, options);
  const ready = join(directory, '.ready');
  const packages = options.current === true ? unpinned(framework.packages) : [...framework.packages];
  if (!existsSync(ready)) {
    await mkdir(directory, { recursive: true });
    await withDirectoryLock(
      join(directory, '.install-lock'),
      async () => {
        if (existsSync(ready)) return;
        options.onInstall?.(`installing ${framework.title} (${packages.join(' ')}) once into ${directory}`);
        const installed = framework.language === 'python' ? await installPython(directory, packages, options) : await installNode(directory, packages, options);
        await writeFile(ready, installed);
      },
      { timeoutMs: options.timeoutMs ?? 15 * 60_000 },
    );
  }
  const installed = await readFile(ready, 'utf8');
  if (framework.language === 'python') return { directory, command: join(directory, 'venv', 'bin', 'python'), args: [join(APPS_DIRECTORY, framework.app)], installed };
  // Node resolves packages from the script's own folder: the apps are copied beside node_modules.
  const appDirectory = join(directory, 'app');
  await mkdir(appDirectory, { recursive: true });
  for (const file of await readdir(APPS_DIRECTORY)) if (file.endsWith('.mjs')) await copyFile(join(APPS_DIRECTORY, file), join(appDirectory, file));
  return { directory, command: process.execPath, args: [join(appDirectory, framework.app)], installed };
}

async function run(command: string, args: string[], what: string, options: EnsureFrameworkOptions & { cwd?: string }) {
  const result = await runCommand(command, args, { timeoutMs: options.timeoutMs ?? 15 * 60_000, env: { ...process.env, ...options.environment }, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  if (result.missing) throw new FrameworkInstallError(`${command} is needed to ${what}: install it and try again`);
  if (result.code !== 0) {
    throw new FrameworkInstallError(`${what} ${result.timedOut ? 'timed out' : `failed (exit ${result.code})`}; check that the package registry is reachable:\n${lastLines(result.stderr || result.stdout, 15)}`);
  }
  return result.stdout;
}

async function installPython(directory: string, packages: string[], options: EnsureFrameworkOptions): Promise<string> {
  const venv = join(directory, 'venv');
  await rm(venv, { recursive: true, force: true });
  const python = options.environment?.SCORESTREAM_PYTHON ?? process.env.SCORESTREAM_PYTHON ?? 'python3';
  await run(python, ['-m', 'venv', venv], 'creating a Python venv (python3 -m venv; Debian: apt-get install python3-venv)', options);
  const pip = join(venv, 'bin', 'pip');
  await run(pip, ['install', '--disable-pip-version-check', '--quiet', ...packages], `pip install ${packages.join(' ')}`, options);
  return run(pip, ['freeze', '--disable-pip-version-check'], 'pip freeze', options);
}

async function installNode(directory: string, packages: string[], options: EnsureFrameworkOptions): Promise<string> {
  await rm(join(directory, 'node_modules'), { recursive: true, force: true });
  await writeFile(join(directory, 'package.json'), `${JSON.stringify({ private: true, type: 'module' }, null, 2)}\n`);
  const npm = join(dirname(process.execPath), 'npm');
  await run(existsSync(npm) ? npm : 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', ...packages], `npm install ${packages.join(' ')}`, { ...options, cwd: directory });
  const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return `${Object.entries(manifest.dependencies ?? {}).map(([name, version]) => `${name}@${version}`).join('\n')}\n`;
}

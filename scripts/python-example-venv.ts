// The Python producer example's virtual environment (examples/python/), made once per
// requirements file and Python version in ${XDG_CACHE_HOME:-~/.cache}/scorestream/python-example/
// and reused after: its test runs the example with it, and .ci/run prepares it before the tests
// (`node scripts/python-example-venv.ts` prints the environment's python). Needs python3 with the
// venv module (Debian: python3-venv); pip fetches confluent-kafka from PyPI.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { scorestreamCacheDirectory } from '../local/kafka/paths.ts';

const run = promisify(execFile);
export const pythonExampleDirectory = fileURLToPath(new URL('../examples/python/', import.meta.url));

/** The python3 to build the environment with: SCORESTREAM_PYTHON, else python3 on the PATH. */
const basePython = () => process.env.SCORESTREAM_PYTHON ?? 'python3';

/** Resolves to the environment's python executable, creating the environment when it is missing. */
export async function pythonExampleVenv(onLine: (line: string) => void = () => undefined): Promise<string> {
  const requirements = await readFile(join(pythonExampleDirectory, 'requirements.txt'), 'utf8');
  const { stdout: version } = await run(basePython(), ['-c', 'import sys; print(sys.version)']).catch((error: unknown) => {
    throw new Error(`the Python example needs python3 (set SCORESTREAM_PYTHON to use another): ${(error as Error).message}`, { cause: error });
  });
  const key = createHash('sha256').update(requirements).update(version).digest('hex').slice(0, 12);
  const directory = join(scorestreamCacheDirectory(), 'python-example', `venv-${key}`);
  const python = join(directory, 'bin', 'python');
  if (existsSync(join(directory, '.ready'))) return python;

  // Built beside its final place and renamed into it, so a run that stops half-way (or two at once)
  // never leaves a half-installed environment behind the name.
  const building = `${directory}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(join(directory, '..'), { recursive: true });
  onLine(`creating ${directory} (python ${version.trim().split(' ')[0]}, ${requirements.trim().split('\n').join(', ')})`);
  try {
    await run(basePython(), ['-m', 'venv', building]).catch((error: unknown) => {
      throw new Error(`python3 -m venv failed (on Debian: apt-get install python3-venv): ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`, { cause: error });
    });
    await run(join(building, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', join(pythonExampleDirectory, 'requirements.txt')], { timeout: 300_000 }).catch((error: unknown) => {
      throw new Error(`pip could not install examples/python/requirements.txt: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`, { cause: error });
    });
    await writeFile(join(building, '.ready'), `${new Date().toISOString()}\n`);
    if (existsSync(join(directory, '.ready'))) await rm(building, { recursive: true, force: true });
    else {
      await rm(directory, { recursive: true, force: true });
      await rename(building, directory);
    }
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
  return python;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(await pythonExampleVenv((line) => console.error(`python-example: ${line}`)));
  } catch (error) {
    console.error(`python-example: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

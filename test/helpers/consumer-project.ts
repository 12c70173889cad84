// A new project that installs the packed Scorestream tarball, as a user's app would — offline,
// from the npm cache that `npm ci` of this repository filled. `npm ci` downloads only the tarballs
// its lock names (no registry metadata), so an `npm install` that resolves version ranges cannot
// run offline on a fresh machine. The consumer therefore gets a lock of its own: the tarball, and
// for every package it needs the very entry (version, resolved URL, integrity, place in the tree)
// of this repository's package-lock.json — the closure of Scorestream's dependencies and peers
// plus the packages the app itself names. `npm ci --offline` then installs it from the cache.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

type LockEntry = {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  optional?: boolean;
  peer?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
};
type Lock = { packages: Record<string, LockEntry> };
type Manifest = {
  name: string;
  version: string;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  license?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** Where Node would find `name` from the package installed at `from` (a lock path such as `node_modules/a/node_modules/b`). */
function locate(packages: Lock['packages'], from: string, name: string): string | undefined {
  let folder = from;
  for (;;) {
    const candidate = `${folder === '' ? '' : `${folder}/`}node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (folder === '') return undefined;
    const cut = folder.lastIndexOf('/node_modules/');
    folder = cut === -1 ? '' : folder.slice(0, cut);
  }
}

/**
 * The lock entries (by their path in this repository's lock) that `names`, installed at the top
 * level, need: each name and, transitively, its dependencies, optional dependencies present in
 * the lock, and non-optional peers.
 */
export function lockClosure(lock: Lock, names: readonly string[]): Map<string, LockEntry> {
  const found = new Map<string, LockEntry>();
  const visit = (from: string, name: string, required: boolean): void => {
    const path = locate(lock.packages, from, name);
    if (path === undefined) {
      if (required) throw new Error(`${name} (needed by ${from || 'the consumer'}) is not in package-lock.json`);
      return;
    }
    if (found.has(path)) return;
    const entry = lock.packages[path]!;
    found.set(path, entry);
    for (const dependency of Object.keys(entry.dependencies ?? {})) visit(path, dependency, true);
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) visit(path, dependency, false);
    for (const peer of Object.keys(entry.peerDependencies ?? {})) visit(path, peer, entry.peerDependenciesMeta?.[peer]?.optional !== true);
  };
  for (const name of names) visit('', name, true);
  return found;
}

/** `npm pack` of this repository into `destination` (runs `prepack`, i.e. the build). Returns the tarball's path. */
export function packRepository(destination: string): string {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: repositoryRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // The build's own output (prepack) comes first; the JSON report starts at the first line that opens an array.
  const [report] = JSON.parse(output.slice(output.search(/^\[/m))) as Array<{ filename: string }>;
  return join(destination, basename(report!.filename));
}

/**
 * Writes package.json and package-lock.json of a consumer project in `folder` that depends on the
 * tarball (copied next to them) and on `extra` packages of this repository's lock, at the lock's versions.
 */
export function writeConsumerProject(folder: string, tarball: string, extra: readonly string[]): void {
  const lock = JSON.parse(readFileSync(join(repositoryRoot, 'package-lock.json'), 'utf8')) as Lock;
  const bytes = readFileSync(tarball);
  const local = `file:${basename(tarball)}`;
  writeFileSync(join(folder, basename(tarball)), bytes);
  const manifest = JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Manifest;
  const needed = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), ...extra];
  const closure = lockClosure(lock, needed);
  const versionOf = (name: string): string => lock.packages[`node_modules/${name}`]!.version!;
  const direct = Object.fromEntries([...Object.keys(manifest.peerDependencies ?? {}), ...extra].map((name) => [name, versionOf(name)]));
  const dependencies = { [manifest.name]: local, ...direct };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'scorestream-consumer', private: true, type: 'module', dependencies }, null, 2)}\n`);
  const packages: Record<string, LockEntry> = {
    '': { name: 'scorestream-consumer', dependencies },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: local,
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      license: manifest.license,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const [path, entry] of closure) {
    const { dev: _dev, peer: _peer, ...kept } = entry;
    packages[path] = kept;
  }
  writeFileSync(join(folder, 'package-lock.json'), `${JSON.stringify({ name: 'scorestream-consumer', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

/** `npm ci --offline` in the consumer: every package from the cache, nothing from a registry. */
export function installConsumer(folder: string): void {
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

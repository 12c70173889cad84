// Which file answers a request path: the page's own assets in dashboard/public/, and uPlot's two
// files from node_modules. Anything else — `..`, encoded `..`, absolute paths, NUL bytes, dot
// files, other node_modules files — resolves to nothing, so the server cannot be made to read
// outside its assets.
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export type AssetRoots = { publicDir: string; uplotDir: string };

export function defaultAssetRoots(): AssetRoots {
  return {
    publicDir: fileURLToPath(new URL('./public/', import.meta.url)),
    uplotDir: dirname(createRequire(import.meta.url).resolve('uplot')),
  };
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

const vendor: Record<string, string> = { '/vendor/uPlot.esm.js': 'uPlot.esm.js', '/vendor/uPlot.min.css': 'uPlot.min.css' };

export type Asset = { file: string; contentType: string };

/** The file for `pathname` (the URL's path, still percent-encoded), or undefined when there is none it may serve. */
export function resolveAsset(pathname: string, roots: AssetRoots): Asset | undefined {
  if (pathname === '/' || pathname === '/index.html') return asset(join(roots.publicDir, 'index.html'));
  const vendored = vendor[pathname];
  if (vendored !== undefined) return asset(join(roots.uplotDir, vendored));
  if (!pathname.startsWith('/assets/')) return undefined;
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice('/assets/'.length));
  } catch {
    return undefined;
  }
  if (relative === '' || relative.includes('\u0000') || relative.includes('\\') || relative.split('/').some((part) => part === '' || part.startsWith('.'))) return undefined;
  const root = resolve(roots.publicDir);
  const file = resolve(root, relative);
  if (!file.startsWith(root + sep)) return undefined;
  const contentType = contentTypes[extname(file)];
  return contentType === undefined ? undefined : { file, contentType };
}

function asset(file: string): Asset | undefined {
  const contentType = contentTypes[extname(file)];
  return contentType === undefined ? undefined : { file, contentType };
}

import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAssetRoots, resolveAsset } from '../../../dashboard/static-assets.ts';

const root = mkdtempSync(join(tmpdir(), 'dashboard-assets-'));
mkdirSync(join(root, 'public'));
mkdirSync(join(root, 'uplot'));
writeFileSync(join(root, 'secret.js'), 'outside');
const roots = { publicDir: join(root, 'public'), uplotDir: join(root, 'uplot') };

describe('resolveAsset', () => {
  it('serves the page, its assets and uPlot', () => {
    expect(resolveAsset('/', roots)).toEqual({ file: join(root, 'public', 'index.html'), contentType: 'text/html; charset=utf-8' });
    expect(resolveAsset('/assets/app.js', roots)!.file).toBe(join(root, 'public', 'app.js'));
    expect(resolveAsset('/assets/sub/x.css', roots)!.file).toBe(join(root, 'public', 'sub', 'x.css'));
    expect(resolveAsset('/vendor/uPlot.esm.js', roots)!.file).toBe(join(root, 'uplot', 'uPlot.esm.js'));
  });

  it.each([
    '/assets/../secret.js',
    '/assets/%2e%2e/secret.js',
    '/assets/%2E%2E%2Fsecret.js',
    '/assets/..%5csecret.js',
    '/assets/%2fetc%2fpasswd',
    '/assets//etc/passwd',
    '/assets/app.js%00.css',
    '/assets/.hidden.js',
    '/assets/%E0%A4%A',
    '/assets/',
    '/assets/notes.txt',
    '/vendor/package.json',
    '/vendor/../../package.json',
    '/node_modules/uplot/package.json',
    '/etc/passwd',
  ])('refuses %s', (path) => {
    expect(resolveAsset(path, roots)).toBeUndefined();
  });

  it("finds the real page and uPlot's files", async () => {
    const { existsSync } = await import('node:fs');
    const real = defaultAssetRoots();
    for (const path of ['/', '/assets/app.js', '/vendor/uPlot.esm.js', '/vendor/uPlot.min.css']) expect(existsSync(resolveAsset(path, real)!.file)).toBe(true);
  });
});

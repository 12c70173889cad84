// A real browser for the dashboard tests: Debian's chromium driven by playwright-core, headless,
// with a fresh profile per launch and nothing that reaches the network on its own. .ci/run
// installs chromium; elsewhere set SCORESTREAM_CHROMIUM to a Chromium or Chrome binary.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';

export function chromiumPath(): string {
  const path = process.env.SCORESTREAM_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(`the dashboard's browser tests need Chromium at ${path}: install it (apt-get install -y chromium, as .ci/run does) or set SCORESTREAM_CHROMIUM to a Chromium or Chrome binary`);
  }
  return path;
}

export type TestBrowser = { context: BrowserContext; close(): Promise<void> };

export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'scorestream-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 1000 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

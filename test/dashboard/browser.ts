/**
 * Headless Chromium for the dashboard tests: Debian's `chromium` (or OVERCAST_CHROMIUM) driven by
 * playwright-core, one browser per test file in a fresh profile, with the flags that keep it off
 * the network (this machine's closed network refuses its background connections). When no
 * Chromium is installed the tests say so and skip. A failed test leaves a screenshot of the page
 * in test-results/dashboard/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = process.env.OVERCAST_CHROMIUM ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const SKIP_REASON = `Chromium not found at ${CHROMIUM}: the dashboard's browser tests are skipped (apt-get install chromium, or set OVERCAST_CHROMIUM)`;

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Errors the page threw or logged (a test asserts there are none). */
  pageErrors: string[];
  close(): Promise<void>;
}

export async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'overcast-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, viewport: { width: 1400, height: 1000 } });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  return {
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of the page under test-results/dashboard/ (called when a test fails). */
export async function screenshot(page: Page | undefined, name: string): Promise<string | undefined> {
  if (!page || page.isClosed()) return undefined;
  const dir = join(process.cwd(), 'test-results', 'dashboard');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name.replace(/[^\w.-]+/g, '_').slice(0, 120)}.png`);
  await page.screenshot({ path, fullPage: true }).catch(() => undefined);
  return path;
}

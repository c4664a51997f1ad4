/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { repoRoot } from './reference.js';
import { PATIENCE_MS } from './wait-for.js';

/** Where the browser tests leave their screenshots (git-ignored). */
export const TEST_OUTPUT = join(repoRoot, 'test-output', 'live-view');

/** Debian's Chromium, which the set-up installs (scripts/setup-system.sh); a clear error when it is missing. */
export function chromiumPath(): string {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => p !== undefined)) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  throw new Error('Chromium is not installed: run the project set-up, `bash scripts/setup.sh` (installs the Debian package chromium), or set CHROMIUM_PATH');
}

/** Headless Chromium (no sandbox as root, where the sandbox cannot start), given the suite's patience to start. */
export function launchChromium(): Promise<Browser> {
  const root = process.getuid?.() === 0;
  return puppeteer.launch({ executablePath: chromiumPath(), headless: true, timeout: PATIENCE_MS, args: [...(root ? ['--no-sandbox'] : []), '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** A chart of the page as the test sees it: its series labels and, per series, the last value drawn and the largest. */
export interface ChartReading {
  readonly labels: string[];
  readonly last: (number | null)[];
  readonly peak: (number | null)[];
  readonly points: number;
}

/** Reads every uPlot chart of the live page (the page exposes them as `window.vbstreamLive.charts`). */
export function readCharts(page: Page): Promise<Record<string, ChartReading>> {
  return page.evaluate(() => {
    const live = (window as unknown as { vbstreamLive: { charts: Map<string, { series: { label?: string }[]; data: (number | null)[][] }> } }).vbstreamLive;
    const out: Record<string, { labels: string[]; last: (number | null)[]; peak: (number | null)[]; points: number }> = {};
    for (const [id, chart] of live.charts) {
      out[id] = {
        labels: chart.series.slice(1).map((s) => String(s.label)),
        last: chart.data.slice(1).map((values) => values[values.length - 1] ?? null),
        peak: chart.data.slice(1).map((values) => values.reduce<number | null>((top, v) => (v !== null && (top === null || v > top) ? v : top), null)),
        points: chart.data[0].length,
      };
    }
    return out;
  });
}

/**
 * Opens `url` in a new page, recording what must never happen on the live page: console errors,
 * uncaught exceptions, Content-Security-Policy violations and dialogs (an injected `alert`). The
 * page's navigations and `waitForFunction`s wait up to the suite's patience.
 */
export async function openLivePage(browser: Browser, url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  page.setDefaultTimeout(PATIENCE_MS);
  await page.setViewport({ width: 1400, height: 1000 });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems };
}

/** Saves a full-page screenshot as TEST_OUTPUT/`name`.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(TEST_OUTPUT, { recursive: true });
  const path = join(TEST_OUTPUT, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

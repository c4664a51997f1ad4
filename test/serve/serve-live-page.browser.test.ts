/// <reference lib="dom" />
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotDirectory } from '../../connectors/file/snapshot-directory.js';
import { getFamily } from '../../src/registry.js';
import { killIfRunning } from '../helpers/kill-if-running.js';
import { launchChromium, openLivePage, readCharts, screenshot } from '../helpers/live-page.js';
import { repoRoot } from '../helpers/reference.js';
import { logisticData } from '../helpers/synthetic-data.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * The scoring panel of the live page in Chromium (Debian's, headless, as the other browser test),
 * on `vbstream serve` as built into dist/, spawned as a user runs it, under a stream of requests.
 */
let browser: Browser | undefined;
let serve: ChildProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'vbstream-serve-live-'));

beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'dist/monitoring/live/uPlot.iife.min.js'))) throw new Error('dist/monitoring/live is missing its assets: run `npm run build` first');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await killIfRunning(serve);
  rmSync(dir, { recursive: true, force: true });
});

describe('the live page of vbstream serve in Chromium', () => {
  it('draws requests/s by status, p50/p99 latency and the histogram of predicted probabilities, with the served version; the learner\'s sections stay hidden', async () => {
    const data = logisticData(500, 3, 7);
    const model = getFamily('adf-logit').create(3);
    model.update({ x: data.x, y: data.y, n: data.n, d: 3 });
    await new SnapshotDirectory(join(dir, 'snaps')).save({ snapshot: model.snapshot(), recordsSeen: model.recordsSeen, positions: { data: 500 }, createdAt: new Date().toISOString(), reason: 'records' });
    serve = spawn(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), 'serve', '--snapshot-dir', join(dir, 'snaps'), '--family', 'adf-logit', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    serve.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    serve.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const url = await waitFor(() => /"type":"listening","url":"([^"]+)"/.exec(output)?.[1], () => `vbstream serve to listen (output: ${output})`);

    // Requests go on until the test ends: rows spread over the probabilities, and every tenth a bad body.
    let load = true;
    let sent = 0;
    const client = async (): Promise<void> => {
      while (load) {
        const i = sent++;
        const body = i % 10 === 9 ? { x: [1, 2] } : { x: [1, Math.sin(i) * 3, Math.cos(i * 0.7) * 3] };
        await fetch(`${url}predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.arrayBuffer());
      }
    };
    const clients = Array.from({ length: 4 }, client);
    try {
      const { page, problems } = await openLivePage(browser!, url);
      await page.waitForFunction(() => {
        const live = (window as unknown as { vbstreamLive?: { charts: Map<string, { data: (number | null)[][] }> } }).vbstreamLive;
        const ok = live?.charts.get('serve-requests')?.data[1] ?? [];
        const p99 = live?.charts.get('serve-latency')?.data[2] ?? [];
        return ok.some((rate) => rate !== null && rate > 0) && p99.some((ms) => ms !== null && ms > 0) && live!.charts.has('serve-probability');
      });
      const charts = await readCharts(page);
      expect(charts['serve-requests'].labels).toEqual(['200', '400', 'total']);
      expect(charts['serve-requests'].peak[0]).toBeGreaterThan(0);
      expect(charts['serve-latency'].labels).toEqual(['p50', 'p99']);
      expect(charts['serve-probability'].labels).toEqual(['rows']);
      expect(charts['serve-probability'].points).toBe(10);
      const rows = await page.evaluate(() => {
        const chart = (window as unknown as { vbstreamLive: { charts: Map<string, { data: (number | null)[][] }> } }).vbstreamLive.charts.get('serve-probability')!;
        return chart.data[1].filter((c) => c !== null && c > 0).length;
      });
      expect(rows).toBeGreaterThan(2); // the rows spread over several bins
      expect(charts.throughput).toBeUndefined();
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toContain('Scoring');
      expect(text).toMatch(/posterior served\s+rows predicted\s+file:1\s/);
      expect(await page.evaluate(() => ['flow', 'learning', 'posterior', 'durability'].map((id) => document.getElementById(id)!.hidden))).toEqual([true, true, true, true]);
      await screenshot(page, 'vbstream-serve');
      expect(problems).toEqual([]);
    } finally {
      load = false;
      await Promise.all(clients);
    }
  });
});

/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveView } from '../../monitoring/live-view.js';
import { MetricsServer } from '../../monitoring/metrics-server.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { launchChromium, openLivePage, readCharts, screenshot } from '../helpers/live-page.js';
import { killIfRunning } from '../helpers/kill-if-running.js';
import { repoRoot } from '../helpers/reference.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * The live page in a real browser: Debian's Chromium (installed by the set-up; missing, the test
 * fails and says so) driven headless by puppeteer-core, on the page as built into dist/ (uPlot
 * bundled, no network). Screenshots go to test-output/live-view/.
 */
let browser: Browser | undefined;
let run: ChildProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'vbstream-live-page-'));

beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'dist/monitoring/live/uPlot.iife.min.js'))) throw new Error('dist/monitoring/live is missing its assets: run `npm run build` first');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await killIfRunning(run);
  rmSync(dir, { recursive: true, force: true });
});

describe('the live page in Chromium', () => {
  it('follows `vbstream run` on the embedded default: throughput, learning curves, reliability with bin counts, coefficient bands and snapshots, all moving', async () => {
    run = spawn(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), 'run', '--metrics-port', '0', '--rate', '4000'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    run.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const url = await new Promise<string>((resolve, reject) => {
      run?.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /live view: (http:\/\/127\.0\.0\.1:\d+\/)\)/.exec(output);
        if (match) resolve(match[1]);
      });
      run?.once('exit', (code) => reject(new Error(`vbstream run exited (${code}) before serving the page: ${output}`)));
    });

    const { page, problems } = await openLivePage(browser!, url);
    // Every panel drawn, and a positive throughput among the frames: a model's first frame shows 0 (no
    // frame before it to count from), and on a loaded machine a frame can pass with nothing learned.
    await page.waitForFunction(() => {
      const live = (window as unknown as { vbstreamLive?: { charts: Map<string, { data: (number | null)[][] }>; frames(): number } }).vbstreamLive;
      const rates = live?.charts.get('throughput')?.data[1] ?? [];
      return live !== undefined && live.frames() >= 6 && live.charts.has('coefficients adf-logit') && live.charts.has('reliability adf-logit') && rates.some((rate) => rate !== null && rate > 0);
    });
    const first = await readCharts(page);
    expect(first.throughput.labels).toEqual(['adf-logit']);
    expect(first['log-loss'].labels).toEqual(['adf-logit']);
    expect(first.brier.labels).toEqual(['adf-logit']);
    expect(first.snapshots.labels).toEqual(['adf-logit']);
    expect(first['reliability adf-logit'].labels).toEqual(['perfect calibration', 'observed (≥ 30 records)', 'observed (< 30 records)', 'records']);
    expect(first['reliability adf-logit'].points).toBe(10);
    const coefficients = first['coefficients adf-logit'].labels;
    expect(coefficients).toHaveLength(30);
    expect(coefficients).toContain('bias');
    expect(coefficients).toContain('bias +2σ');
    expect(coefficients).toContain('bias −2σ');
    expect(first['log-loss'].last[0]).toBeGreaterThan(0);
    expect(first['log-loss'].last[0]).toBeLessThan(1);
    expect(first.throughput.peak[0]).toBeGreaterThan(0);
    const pageText = await page.evaluate(() => document.body.innerText);
    expect(pageText).toContain('vbstream · default');
    expect(pageText).toMatch(/mean over the last 1,000 records/);
    expect(pageText).toMatch(/records[\s\d,]+observed rate/);

    // The page keeps following the run: once it has drawn another 4,000 records in the reliability
    // histogram (4 windows of the prequential mean), every curve has moved.
    const histogramRecords = () => page.evaluate(() => {
      const counts = (window as unknown as { vbstreamLive: { charts: Map<string, { data: (number | null)[][] }> } }).vbstreamLive.charts.get('reliability adf-logit')?.data[4] ?? [];
      return counts.reduce<number>((sum, n) => sum + (n ?? 0), 0);
    });
    const drawn = await histogramRecords();
    await waitFor(async () => (await histogramRecords()) >= drawn + 4000, `the page to draw 4,000 more records than ${drawn} in the reliability histogram`);
    const second = await readCharts(page);
    expect(second.throughput.points).toBeGreaterThan(first.throughput.points);
    expect(second['log-loss'].last[0]).not.toBe(first['log-loss'].last[0]);
    const recordsIn = (reading: typeof first) => reading['reliability adf-logit'].last[3];
    expect(second['reliability adf-logit'].last).not.toEqual(first['reliability adf-logit'].last);
    expect(recordsIn(second)).not.toBeNull();
    expect(await page.evaluate(() => document.querySelectorAll('canvas').length)).toBeGreaterThanOrEqual(7);
    await screenshot(page, 'vbstream-run');
    expect(problems).toEqual([]);
  });

  it('shows hostile model, feature, reason, topic and arm names as text (with the bandit panels): no dialog, no element, no CSP violation', async () => {
    const hostile = `<img src=x onerror=alert(1)><script>alert("x")</script>`;
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const recorder = metrics.model(hostile, '0');
    const choices = [0, 0];
    let reward = 0;
    const bandit = { armChoices: () => choices, cumulativeReward: () => reward, armNames: () => ['control', hostile] };
    const live = new LiveView({ metrics, title: hostile, everyMs: 100, bandit, assetDir: pathToFileURL(join(repoRoot, 'dist/monitoring/live/')) });
    live.setFeatureNames([hostile]);
    const server = new MetricsServer({ metrics, readiness: new Readiness(), port: 0, live });
    const port = await server.listen();
    live.start();
    const feed = setInterval(() => {
      recorder.recordLearned(50, 0.001);
      for (let i = 0; i < 50; i++) recorder.recordPrediction(Math.random(), i % 2);
      recorder.setCoefficients({ index: [0], mean: [Math.random()], sd: [0.1] });
      metrics.recordDeadLetter(hostile);
      metrics.setConsumerLag(hostile, 0, Math.round(Math.random() * 100));
      choices[0] += 1;
      choices[1] += 3;
      reward += 2;
    }, 100);
    try {
      const { page, problems } = await openLivePage(browser!, `http://127.0.0.1:${port}/`);
      await page.waitForFunction(() => (window as unknown as { vbstreamLive: { frames(): number } }).vbstreamLive.frames() >= 5);
      await page.waitForFunction(() => document.querySelectorAll('#partitions table').length > 0);
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toContain(hostile);
      expect(await page.evaluate(() => document.querySelectorAll('img, iframe').length)).toBe(0);
      expect(await page.evaluate(() => [...document.scripts].map((s) => s.getAttribute('src')))).toEqual(['live/uPlot.iife.min.js', 'live/live.js']);
      const charts = await readCharts(page);
      expect(charts.throughput.labels).toEqual([`${hostile} / p0`]);
      expect(charts[`coefficients ${hostile} / p0`].labels[0]).toBe(hostile);
      expect(charts['arm-shares'].labels).toEqual(['control', hostile]);
      expect(charts['arm-shares'].last[1]).toBeCloseTo(0.75, 2);
      expect(charts.reward.last[0]).toBeGreaterThan(0);
      await screenshot(page, 'hostile-names');
      expect(problems).toEqual([]);
    } finally {
      clearInterval(feed);
      await server.close();
    }
  });
});

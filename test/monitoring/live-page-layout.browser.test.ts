/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';
import { LiveView } from '../../monitoring/live-view.js';
import { MetricsServer } from '../../monitoring/metrics-server.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { launchChromium, openLivePage, screenshot } from '../helpers/live-page.js';
import { repoRoot } from '../helpers/reference.js';

/**
 * The live page's layout in Chromium (Debian's, headless), measured on the page: every axis label
 * inside its axis (text widths measured with the axis' own font against the space uPlot gives the
 * axis), time labels on one line and apart, one colour per feature while the coefficients' ranks
 * change, a legend, a 4-partition page of bounded height, and a bandit learner's page without empty
 * panels. The pages are fed in this process through the same `LiveView` the services use, with
 * figures chosen to break a naive layout (lags in the tens of thousands, ranks swapping every frame).
 */
let browser: Browser | undefined;

beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'dist/monitoring/live/uPlot.iife.min.js'))) throw new Error('dist/monitoring/live is missing its assets: run `npm run build` first');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

const assetDir = pathToFileURL(join(repoRoot, 'dist/monitoring/live/'));
const PARTITIONS = 4;
const D = 6;

/** A live page over `metrics` (frames every 100 ms) fed by `feed` every 100 ms; `use` gets the open page. */
async function withPage(metrics: PipelineMetrics, live: LiveView, feed: () => void, use: (page: Page, problems: string[]) => Promise<void>): Promise<void> {
  const server = new MetricsServer({ metrics, readiness: new Readiness(), port: 0, live });
  const port = await server.listen();
  live.start();
  const timer = setInterval(feed, 100);
  try {
    const { page, problems } = await openLivePage(browser!, `http://127.0.0.1:${port}/`);
    await use(page, problems);
  } finally {
    clearInterval(timer);
    live.close();
    await server.close();
  }
}

/** A learner of 4 partitions with lags in the tens of thousands and coefficient ranks that change every tick. */
function partitionedLearner(): { metrics: PipelineMetrics; live: LiveView; feed: () => void } {
  const metrics = new PipelineMetrics({ defaultMetrics: false });
  const recorders = Array.from({ length: PARTITIONS }, (_, p) => metrics.model('vb-logit-online', String(p)));
  const live = new LiveView({ metrics, title: 'layout', everyMs: 100, assetDir });
  let tick = 0;
  const feed = (): void => {
    tick++;
    recorders.forEach((recorder, p) => {
      recorder.recordLearned(1000 + 100 * p, 0.01);
      for (let i = 0; i < 40; i++) recorder.recordPrediction((i % 10) / 10 + 0.05, i % 3 === 0 ? 1 : 0);
      // the order by |mean| rotates: feature (tick + j) mod D has the j-th largest mean
      const index = Array.from({ length: D }, (_, j) => (tick + j) % D);
      recorder.setCoefficients({ index, mean: index.map((_, j) => 3 - j * 0.5), sd: index.map(() => 0.1) });
      if (tick % 10 === 0) recorder.recordSnapshot(1000);
      metrics.setConsumerLag('clicks', p, 12_345 + 10_000 * p + 37 * tick);
    });
  };
  return { metrics, live, feed };
}

interface AxisReading { readonly chart: string; readonly side: number; readonly labels: string[]; readonly splits: number[]; readonly widest: number; readonly room: number; readonly boxes: [number, number][]; readonly width: number }

/** Every shown axis of every chart: its labels, the widest label (css px, measured with the axis font), the room uPlot gives labels on a y axis and, on an x axis, the labels' horizontal extents in the chart (css px from its left edge) and the chart's width. */
function readAxes(page: Page): Promise<AxisReading[]> {
  return page.evaluate(() => {
    type Axis = { _show: boolean; side: number; _values: (string | null)[] | null; _splits: number[]; _size: number; font: [string, number]; gap: number; ticks: { show: boolean; size: number }; scale: string };
    type Plot = { axes: Axis[]; bbox: { left: number }; width: number; valToPos(value: number, scale: string): number };
    const charts = (window as unknown as { vbstreamLive: { charts: Map<string, Plot> } }).vbstreamLive.charts;
    const context = document.createElement('canvas').getContext('2d')!;
    const ratio = window.devicePixelRatio;
    const out: AxisReading[] = [];
    for (const [chart, plot] of charts) {
      for (const axis of plot.axes) {
        if (!axis._show || axis._values === null) continue;
        context.font = axis.font[0];
        const labels = axis._values.map((v) => (v === null ? '' : String(v)));
        const widths = labels.map((label) => Math.max(0, ...label.split('\n').map((line) => context.measureText(line).width / ratio)));
        const boxes = labels.map((_, i): [number, number] => {
          const centre = plot.bbox.left / ratio + plot.valToPos(axis._splits[i], axis.scale);
          return [centre - widths[i] / 2, centre + widths[i] / 2];
        });
        out.push({ chart, side: axis.side, labels, splits: axis._splits, widest: Math.max(0, ...widths), room: axis._size - (axis.ticks.show ? axis.ticks.size : 0) - axis.gap, boxes, width: plot.width });
      }
    }
    return out;
  });
}

describe('the live page layout in Chromium', () => {
  it('keeps every axis label inside its axis: y labels of five and more digits (consumer lag in the tens of thousands) fit, time labels stay on one line and apart', async () => {
    const { metrics, live, feed } = partitionedLearner();
    await withPage(metrics, live, feed, async (page, problems) => {
      await page.waitForFunction(() => {
        const state = (window as unknown as { vbstreamLive: { charts: Map<string, unknown>; frames(): number } }).vbstreamLive;
        return state.frames() >= 40 && state.charts.has('lag');
      });
      const axes = await readAxes(page);
      const lag = axes.find((axis) => axis.chart === 'lag' && axis.side === 3);
      expect(lag?.labels.length).toBeGreaterThan(1);
      for (const axis of axes.filter((a) => a.side === 1 || a.side === 3)) {
        expect(axis.widest, `${axis.chart} axis on side ${axis.side}: labels ${JSON.stringify(axis.labels)} need ${axis.widest.toFixed(1)} px, the axis has ${axis.room} px`).toBeLessThanOrEqual(axis.room);
        const shown = axis.labels.filter((label) => label !== '');
        expect(new Set(shown).size, `${axis.chart} axis on side ${axis.side}: labels ${JSON.stringify(shown)} repeat`).toBe(shown.length);
        // each label reads as its tick's value (12.5k is 12,500, never 13k)
        axis.labels.forEach((label, i) => {
          if (label === '') return;
          const [, number, unit] = /^(-?[\d.]+)([kMG]?)$/.exec(label) ?? [];
          const value = Number(number) * ({ '': 1, k: 1e3, M: 1e6, G: 1e9 } as Record<string, number>)[unit ?? ''];
          expect(Math.abs(value - axis.splits[i]), `${axis.chart} axis on side ${axis.side}: label ${label} for the tick at ${axis.splits[i]}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(axis.splits[i])));
        });
      }
      for (const axis of axes.filter((a) => a.side === 2)) {
        const shown = axis.boxes.filter((_, i) => axis.labels[i] !== '');
        for (let i = 1; i < shown.length; i++) expect(shown[i][0], `${axis.chart}: x labels ${JSON.stringify(axis.labels)} overlap`).toBeGreaterThan(shown[i - 1][1]);
        for (const [left, right] of shown) {
          expect(left, `${axis.chart}: x labels ${JSON.stringify(axis.labels)} inside the chart`).toBeGreaterThanOrEqual(0);
          expect(right, `${axis.chart}: x labels ${JSON.stringify(axis.labels)} inside the chart (${axis.width} px wide)`).toBeLessThanOrEqual(axis.width);
        }
        if (axis.chart === 'throughput') expect(axis.labels.every((label) => !label.includes('\n')), `time labels ${JSON.stringify(axis.labels)} on one line`).toBe(true);
      }
      await screenshot(page, 'layout-axes');
      expect(problems).toEqual([]);
    });
  });

  it('gives each feature one colour across frames while the coefficients change rank, with a legend; a 4-partition page stays compact', async () => {
    const { metrics, live, feed } = partitionedLearner();
    live.setFeatureNames(Array.from({ length: D }, (_, j) => `f${j}`));
    await withPage(metrics, live, feed, async (page, problems) => {
      const key = 'vb-logit-online / p0';
      const coloursSeen = new Map<string, Set<string>>();
      // read the coefficient chart over many frames: the ranks rotate every tick
      for (let reading = 0; reading < 8; reading++) {
        await page.waitForFunction((id: string, after: number) => {
          const state = (window as unknown as { vbstreamLive: { charts: Map<string, unknown>; frames(): number } }).vbstreamLive;
          return state.charts.has(id) && state.frames() > after;
        }, {}, `coefficients ${key}`, 10 + 3 * reading);
        const strokes = await page.evaluate((id: string) => {
          type Series = { label?: string; stroke: string | ((u: unknown, i: number) => string) };
          const plot = (window as unknown as { vbstreamLive: { charts: Map<string, { series: Series[] }> } }).vbstreamLive.charts.get(id)!;
          return plot.series.slice(1).map((s, i) => [String(s.label), typeof s.stroke === 'function' ? s.stroke(plot, i + 1) : s.stroke]);
        }, `coefficients ${key}`);
        for (const [label, stroke] of strokes) {
          if (!/^f\d$/.test(label)) continue;
          if (!coloursSeen.has(label)) coloursSeen.set(label, new Set());
          coloursSeen.get(label)!.add(stroke);
        }
      }
      expect([...coloursSeen.keys()].sort()).toEqual(Array.from({ length: D }, (_, j) => `f${j}`));
      for (const [label, colours] of coloursSeen) expect([...colours], `colours of ${label}`).toHaveLength(1);
      expect(new Set([...coloursSeen.values()].map((c) => [...c][0])).size, 'distinct features, distinct colours').toBe(D);

      // the legend: every feature of the chart, with a swatch of its line's colour
      const legend = await page.evaluate((id: string) => {
        const panel = [...document.querySelectorAll('.panel')].find((p) => (p as HTMLElement).dataset.id === id);
        return [...(panel?.querySelectorAll('.legend-item') ?? [])].map((item) => [item.querySelector('.name')?.textContent ?? '', getComputedStyle(item.querySelector('.swatch')!).backgroundColor]);
      }, `coefficients ${key}`);
      expect(legend.map(([name]) => name).sort()).toEqual([...coloursSeen.keys()].sort());
      const rgb = (colour: string) => page.evaluate((c: string) => {
        const probe = document.createElement('span');
        probe.style.color = c;
        document.body.append(probe);
        const value = getComputedStyle(probe).color;
        probe.remove();
        return value;
      }, colour);
      for (const [name, swatch] of legend) expect(swatch, `swatch of ${name}`).toBe(await rgb([...coloursSeen.get(name)!][0]));

      // compact: all four partitions on one page of bounded height at 1400 px wide
      await page.waitForFunction((n: number) => document.querySelectorAll('#partitions .panel').length >= n || document.querySelectorAll('#partitions tbody tr').length >= n, {}, PARTITIONS);
      const { height, width, viewport } = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth, viewport: window.innerWidth }));
      await screenshot(page, 'layout-4-partitions');
      expect(height).toBeLessThanOrEqual(2600);
      expect(width, 'nothing wider than the window').toBeLessThanOrEqual(viewport);
      const overflowing = await page.evaluate(() => {
        const charts = (window as unknown as { vbstreamLive: { charts: Map<string, { root: HTMLElement }> } }).vbstreamLive.charts;
        return [...charts].filter(([, plot]) => plot.root.offsetParent !== null).flatMap(([id, plot]) => {
          const panel = plot.root.closest('.panel')!.getBoundingClientRect();
          const chart = plot.root.getBoundingClientRect();
          return chart.left >= panel.left && chart.right <= panel.right ? [] : [`${id}: chart ${chart.left}–${chart.right}, panel ${panel.left}–${panel.right}`];
        });
      });
      expect(overflowing, 'every chart inside its panel').toEqual([]);

      // the header's selector shows another partition's reliability diagram and coefficients instead
      const other = 'vb-logit-online / p2';
      await page.select('#model-select', other);
      await page.waitForFunction((id: string) => (window as unknown as { vbstreamLive: { charts: Map<string, unknown> } }).vbstreamLive.charts.has(id), {}, `coefficients ${other}`);
      const shown = await page.evaluate(() => [...document.querySelectorAll('#learning .panel, #posterior .panel')].filter((panel) => (panel as HTMLElement).offsetParent !== null).map((panel) => (panel as HTMLElement).dataset.id));
      expect(shown).toContain(`reliability ${other}`);
      expect(shown).toContain(`coefficients ${other}`);
      expect(shown).not.toContain(`coefficients ${key}`);
      expect(problems).toEqual([]);
    });
  });

  it('a bandit learner\'s page shows its bandit panels and no empty pipeline panel without a note', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false, pipeline: 'bandit' });
    const bandit = new BanditMetrics(metrics.registry, 'learner');
    const live = new LiveView({ metrics, title: 'bandit', everyMs: 100, bandit, assetDir });
    let n = 0;
    const feed = (): void => {
      for (let i = 0; i < 10; i++) {
        n++;
        bandit.recordDecision(0.5, n % 3);
        bandit.recordReward(0.1, n % 2);
      }
    };
    await withPage(metrics, live, feed, async (page, problems) => {
      await page.waitForFunction(() => {
        const state = (window as unknown as { vbstreamLive: { charts: Map<string, unknown>; frames(): number } }).vbstreamLive;
        return state.frames() >= 5 && state.charts.has('arm-shares');
      });
      const panels = await page.evaluate(() => {
        type Plot = { data: (number | null)[][] };
        const charts = (window as unknown as { vbstreamLive: { charts: Map<string, Plot> } }).vbstreamLive.charts;
        return [...document.querySelectorAll('.panel')].filter((panel) => (panel as HTMLElement).offsetParent !== null).map((panel) => {
          const id = (panel as HTMLElement).dataset.id ?? '';
          const data = charts.get(id)?.data.slice(1) ?? [];
          return { id, hasData: data.some((values) => values.some((v) => v !== null && v !== undefined)), text: (panel as HTMLElement).innerText };
        });
      });
      expect(panels.map((p) => p.id)).toEqual(expect.arrayContaining(['arm-shares', 'reward']));
      for (const panel of panels) expect(panel.hasData || /no data/i.test(panel.text), `panel ${panel.id} is empty without a note: ${panel.text}`).toBe(true);
      await screenshot(page, 'layout-bandit-learner');
      expect(problems).toEqual([]);
    });
  });
});

/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { LiveFrame } from '../../monitoring/live-frame.js';
import { launchChromium, openLivePage, readCharts, screenshot } from '../helpers/live-page.js';
import { killIfRunning } from '../helpers/kill-if-running.js';
import { repoRoot } from '../helpers/reference.js';
import { createTopic, produceValues, recordJson, ServiceProcess, suiteBroker, syntheticData, unique, waitFor } from './helpers.js';

/**
 * The live page of `vbstream run` on a Kafka topic of 4 partitions (real broker), in headless
 * Chromium: a panel per partition, throughput and consumer lag per partition, dead letters by
 * reason — all moving while records keep arriving. Screenshot: test-output/live-view/kafka-4-partitions.png.
 */
const D = 4;
const PARTITIONS = 4;
let browser: Browser | undefined;
let run: ChildProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'vbstream-live-kafka-'));

afterAll(async () => {
  await browser?.close();
  await killIfRunning(run);
  rmSync(dir, { recursive: true, force: true });
});

describe('the live page of a Kafka run in Chromium (real broker)', () => {
  const { port, admin } = suiteBroker();

  it('shows a panel per partition, per-partition throughput and lag, and dead letters by reason, moving as records arrive', async () => {
    const topic = unique('live');
    await createTopic(admin, topic, PARTITIONS);
    const data = syntheticData(40_000, D, 11, true);
    const values = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, k) => recordJson(data, from + k));
    await produceValues(port, topic, [...values(0, 8000), 'not json', '{"x":[1],"y":1}'], PARTITIONS);

    const config = join(dir, 'pipeline.json');
    writeFileSync(config, JSON.stringify({
      source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], topic, groupId: unique('live-group'), dim: D },
      model: { family: 'vb-logit-online' },
      minibatch: { size: 100 },
      snapshots: { everyRecords: 2000 },
      metrics: { port: 0 },
    }));
    run = spawn(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), 'run', '--config', config], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
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

    browser = await launchChromium();
    const { page, problems } = await openLivePage(browser, url);
    const keys = Array.from({ length: PARTITIONS }, (_, p) => `vb-logit-online / p${p}`);
    await page.waitForFunction((expected: string[]) => {
      const live = (window as unknown as { vbstreamLive?: { charts: Map<string, unknown> } }).vbstreamLive;
      return live !== undefined && expected.every((key) => live.charts.has(`partition ${key}`)) && live.charts.has('lag') && live.charts.has('dead-letters');
    }, {}, keys).catch(async (error: unknown) => {
      await screenshot(page, 'kafka-4-partitions-timeout');
      throw new Error(`the page did not show every panel (charts: ${Object.keys(await readCharts(page)).join(', ')}; problems: ${problems.join('; ')}); vbstream run said: ${output}`, { cause: error });
    });
    const first = await readCharts(page);
    expect(first.throughput.labels).toEqual([...keys, 'total']);
    expect(first.lag.labels).toEqual([...Array.from({ length: PARTITIONS }, (_, p) => `${topic} / p${p}`), 'total']);
    expect(first['log-loss'].labels).toEqual(keys);
    for (const key of keys) expect(first[`partition ${key}`].labels).toEqual(['records/s', 'lag']);
    expect(first['dead-letters'].labels.length).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate(() => document.querySelectorAll('#partitions .panel').length)).toBe(PARTITIONS);

    // More records arrive while the page watches: the learned counts and the curves move. The page
    // is read once it shows every record learned (each partition's 10,000, well past a snapshot).
    const recordsShown = () => page.evaluate(() => [...document.querySelectorAll('#partitions .panel tbody td:first-child')].map((cell) => Number(cell.textContent?.replace(/,/g, ''))));
    const before = await recordsShown();
    for (let from = 8000; from < 40_000; from += 8000) await produceValues(port, topic, values(from, from + 8000), PARTITIONS);
    await page.waitForFunction((total: number) => {
      const cells = [...document.querySelectorAll('#partitions .panel tbody td:first-child')].map((cell) => Number(cell.textContent?.replace(/,/g, '')));
      return cells.reduce((sum, n) => sum + n, 0) === total;
    }, {}, data.n);
    const second = await readCharts(page);
    expect(second.throughput.points).toBeGreaterThan(first.throughput.points);
    expect(second.snapshots.last.some((n) => (n ?? 0) > 0)).toBe(true);
    const after = await recordsShown();
    expect(after.every((n, i) => n > before[i])).toBe(true);
    await screenshot(page, 'kafka-4-partitions');
    expect(problems).toEqual([]);
  });

  it('the learner service (learner-main --metrics-port) serves the same page and stream, per partition', async () => {
    const topic = unique('live-service');
    await createTopic(admin, topic, 2);
    const data = syntheticData(4000, D, 12, true);
    await produceValues(port, topic, Array.from({ length: data.n }, (_, i) => recordJson(data, i)), 2);
    const service = new ServiceProcess(['--topic', topic, '--group', unique('live-service-group'), '--family', 'vb-logit-online', '--dim', String(D), '--metrics-port', '0']);
    try {
      await waitFor(() => /live view: (\S+)\)/.test(service.stderr), 'the live view URL on stderr');
      const base = /live view: (\S+)\)/.exec(service.stderr)![1];
      expect((await fetch(base)).status).toBe(200);
      const latestFrame = async (): Promise<LiveFrame | undefined> => {
        const controller = new AbortController();
        const response = await fetch(`${base}events`, { signal: controller.signal });
        const { value } = await response.body!.getReader().read();
        controller.abort();
        const history = JSON.parse(/^data: (.*)$/m.exec(new TextDecoder().decode(value))![1]) as { frames: LiveFrame[] };
        return history.frames[history.frames.length - 1];
      };
      let last: LiveFrame | undefined;
      await waitFor(async () => {
        last = await latestFrame();
        return Object.values(last?.models ?? {}).reduce((n, m) => n + m.records, 0) === 4000;
      }, 'all 4,000 records in a frame').catch((error: unknown) => {
        throw new Error(`last frame: ${JSON.stringify(last)}; events: ${JSON.stringify(service.events.slice(-5))}; stderr: ${service.stderr}`, { cause: error });
      });
      if (last === undefined) throw new Error('no frame');
      expect(Object.keys(last.models).sort()).toEqual(['vb-logit-online / p0', 'vb-logit-online / p1']);
      expect(last.models['vb-logit-online / p0'].records + last.models['vb-logit-online / p1'].records).toBe(4000);
      expect(last.models['vb-logit-online / p0'].logLoss).toBeGreaterThan(0);
      expect(last.models['vb-logit-online / p0'].coefficients?.names).toEqual(expect.arrayContaining(['x0', 'x1', 'x2', 'x3']));
    } finally {
      expect((await service.stop()).code).toBe(0);
    }
  });
});

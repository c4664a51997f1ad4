import { afterEach, describe, expect, it } from 'vitest';
import { LiveView } from '../../monitoring/live-view.js';
import { MetricsServer } from '../../monitoring/metrics-server.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { BoundedRing } from '../../monitoring/bounded-ring.js';
import { PipelineMonitor } from '../../cli/pipeline-monitor.js';
import type { LiveFrame } from '../../monitoring/live-frame.js';

/** Names an attacker could put in a record field, a model name, a topic or a feature name. */
const HOSTILE = {
  model: '<script>alert("model")</script>',
  partition: `"'><img src=x onerror=alert(1)>`,
  reason: '<b onmouseover="alert(2)">reason</b>',
  feature: `</script><script>alert('feature')</script>`,
  topic: '<iframe src="javascript:alert(3)">',
};
const MARKUP = /<\s*(script|img|b|iframe)|<\//i;

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function hostileMetrics(): PipelineMetrics {
  const metrics = new PipelineMetrics({ defaultMetrics: false });
  const recorder = metrics.model(HOSTILE.model, HOSTILE.partition);
  recorder.recordLearned(100, 0.01);
  for (let i = 0; i < 100; i++) recorder.recordPrediction(i / 100, i % 3 === 0 ? 1 : 0);
  recorder.setCoefficients({ index: [1, 0], mean: [2, -1], sd: [0.1, 0.2] });
  recorder.recordSnapshot(1234, 0);
  metrics.recordDeadLetter(HOSTILE.reason, 3);
  metrics.setConsumerLag(HOSTILE.topic, HOSTILE.partition, 42);
  return metrics;
}

async function serve(live: LiveView, metrics: PipelineMetrics): Promise<string> {
  server = new MetricsServer({ metrics, readiness: new Readiness(), port: 0, live });
  return `http://127.0.0.1:${await server.listen()}`;
}

/** Reads the event stream until `events` events arrived; returns the raw text and the parsed events. */
async function readEvents(url: string, events: number): Promise<{ raw: string; parsed: { event: string; data: unknown }[]; headers: Headers }> {
  const controller = new AbortController();
  const response = await fetch(`${url}/events`, { signal: controller.signal });
  const reader = response.body!.getReader();
  let raw = '';
  const decoder = new TextDecoder();
  while (raw.split('\n\n').length - 1 < events) {
    const { value, done } = await reader.read();
    if (done) break;
    raw += decoder.decode(value, { stream: true });
  }
  controller.abort();
  const parsed = raw.split('\n\n').filter((block) => block.includes('data: ')).map((block) => ({
    event: /^event: (.*)$/m.exec(block)![1],
    data: JSON.parse(/^data: (.*)$/m.exec(block)![1]),
  }));
  return { raw, parsed, headers: response.headers };
}

describe('LiveView', () => {
  it('never lets hostile names reach the page as markup: the HTML is static, the JSON in the event stream escapes < > &, and parses back to the exact names', async () => {
    const metrics = hostileMetrics();
    const live = new LiveView({ metrics, title: HOSTILE.model, everyMs: 20 });
    live.setFeatureNames(['bias', HOSTILE.feature]);
    const url = await serve(live, metrics);
    await live.sample();
    live.start();

    const page = await fetch(`${url}/`);
    const html = await page.text();
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    for (const name of Object.values(HOSTILE)) expect(html).not.toContain(name);
    expect(html.match(/<script/g)).toHaveLength(2);

    const { raw, parsed, headers } = await readEvents(url, 3);
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(raw).not.toMatch(MARKUP);
    for (const name of Object.values(HOSTILE)) expect(raw).not.toContain(name);
    expect(raw).toContain('\\u003cscript\\u003e');

    const history = parsed[0].data as { title: string; frames: LiveFrame[] };
    expect(parsed[0].event).toBe('history');
    expect(history.title).toBe(HOSTILE.model);
    const frame = (parsed[parsed.length - 1].data as LiveFrame);
    const key = `${HOSTILE.model} / p${HOSTILE.partition}`;
    expect(Object.keys(frame.models)).toEqual([key]);
    expect(frame.models[key].model).toBe(HOSTILE.model);
    expect(frame.models[key].coefficients).toEqual({ names: [HOSTILE.feature, 'bias'], index: [1, 0], mean: [2, -1], sd: [0.1, 0.2] });
    expect(frame.deadLetters).toEqual({ [HOSTILE.reason]: 3 });
    expect(frame.lag).toEqual({ [`${HOSTILE.topic} / p${HOSTILE.partition}`]: 42 });
  });

  it('serves every response with a default-src self Content-Security-Policy and nosniff, answers only GET/HEAD of its own files, and refuses streams past the cap', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const live = new LiveView({ metrics, maxStreams: 1 });
    const url = await serve(live, metrics);
    for (const path of ['/', '/live/live.js', '/live/live.css']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await fetch(`${url}/live/live.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${url}/`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${url}/live/%2e%2e/metrics-server.ts`)).status).toBe(404);
    expect((await fetch(`${url}/live/index.html`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`)).status).toBe(200);

    const controller = new AbortController();
    const first = await fetch(`${url}/events`, { signal: controller.signal });
    expect(first.status).toBe(200);
    const second = await fetch(`${url}/events`);
    expect(second.status).toBe(503);
    controller.abort();
  });

  it('keeps a bounded history and derives the throughput from the learned counts between frames', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    let now = 10_000;
    const live = new LiveView({ metrics, history: 3, now: () => now });
    const recorder = metrics.model('m');
    for (let i = 1; i <= 5; i++) {
      recorder.recordLearned(500, 0.001);
      await live.sample();
      now += 500;
    }
    const frames = live.history();
    expect(frames.map((f) => f.t)).toEqual([11_000, 11_500, 12_000]);
    expect(frames.map((f) => f.models.m.records)).toEqual([1500, 2000, 2500]);
    expect(frames.map((f) => f.models.m.throughput)).toEqual([1000, 1000, 1000]);
  });

  it('turns the calibration histogram into per-bin records and positives', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const recorder = metrics.model('m');
    recorder.recordPrediction(0.05, 0);
    recorder.recordPrediction(0.05, 1);
    recorder.recordPrediction(0.95, 1);
    const frame = await new LiveView({ metrics }).sample();
    expect(frame.models.m.calibration).toEqual({
      upper: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
      count: [2, 0, 0, 0, 0, 0, 0, 0, 0, 1],
      positives: [1, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    });
  });

  it('adds the arms and the cumulative reward of a bandit source', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const frame = await new LiveView({ metrics, bandit: { armChoices: () => [3, 1], cumulativeReward: () => 2.5, armNames: () => ['a', '<b>'] } }).sample();
    expect(frame.bandit).toEqual({ decisions: undefined, arms: { names: ['a', '<b>'], choices: [3, 1] }, cumulativeReward: 2.5 });
  });
});

describe('the live page of vbstream run', () => {
  it('follows metrics.host: served on that interface only, beside /metrics', async () => {
    const monitor = await PipelineMonitor.start({ port: 0, host: '127.0.0.2', pipeline: 'p' }, 'vb-logit');
    try {
      expect(monitor.pageUrl).toBe(`http://127.0.0.2:${monitor.port}/`);
      expect(monitor.url).toBe(`http://127.0.0.2:${monitor.port}/metrics`);
      expect((await fetch(monitor.pageUrl)).status).toBe(200);
      await expect(fetch(`http://127.0.0.1:${monitor.port}/`)).rejects.toThrow();
    } finally {
      await monitor.close();
    }
  });
});

describe('BoundedRing', () => {
  it('keeps the last capacity items, oldest first', () => {
    const ring = new BoundedRing<number>(3);
    expect(ring.toArray()).toEqual([]);
    for (let i = 1; i <= 7; i++) ring.push(i);
    expect(ring.toArray()).toEqual([5, 6, 7]);
    expect(ring.size).toBe(3);
    expect(() => new BoundedRing(0)).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { LiveView } from '../../monitoring/live-view.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { getFamily } from '../../src/registry.js';
import { ServeMetrics } from '../../serve/serve-metrics.js';

describe('the live frame of a scoring service', () => {
  it('carries POST /predict requests/s by status and p50/p99 latency between frames, rows predicted, the served version and the histogram of predicted probabilities', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const serve = new ServeMetrics(metrics.registry);
    let now = 10_000;
    const live = new LiveView({ metrics, now: () => now });
    expect((await live.sample()).serve).toEqual({ requestsPerSecond: {}, predictions: 0, version: undefined, probability: { upper: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1], count: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] } });

    serve.recordSwap({ model: getFamily('adf-logit').create(2), version: '0:<b>12</b>', createdAt: now, origin: 'memory' });
    // 100 answers in 2 s: 98 of them 200 (half at 0.3 ms, half at 3 ms), 2 refused 400; another route is not counted.
    for (let i = 0; i < 98; i++) serve.recordRequest('/predict', 200, i < 49 ? 0.0003 : 0.003);
    serve.recordRequest('/predict', 400, 0.0002);
    serve.recordRequest('/predict', 400, 0.0002);
    serve.recordRequest('/healthz', 200, 0.0001);
    serve.recordPredictions([{ mean: 0.05 }, { mean: 0.55 }, { mean: 0.95 }], true);
    now += 2_000;
    const frame = (await live.sample()).serve!;
    expect(frame.requestsPerSecond).toEqual({ 200: 49, 400: 1 });
    expect(frame.predictions).toBe(3);
    expect(frame.version).toBe('0:<b>12</b>');
    expect(frame.probability).toEqual({ upper: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1], count: [1, 0, 0, 0, 0, 1, 0, 0, 0, 1] });
    // buckets 0.5 ms: 51 requests, 5 ms: 49 more; the median falls in the first bucket, the 99th percentile in (2.5, 5] ms
    expect(frame.latencyMs!.p50).toBeCloseTo(0.5 * (50 / 51), 10);
    expect(frame.latencyMs!.p99).toBeCloseTo(2.5 + 2.5 * ((99 - 51) / 49), 10);

    now += 500;
    const idle = (await live.sample()).serve!;
    expect(idle.requestsPerSecond).toEqual({ 200: 0, 400: 0 });
    expect(idle.latencyMs).toBeUndefined();
  });

  it('is absent from a registry without a scoring service', async () => {
    expect((await new LiveView({ metrics: new PipelineMetrics({ defaultMetrics: false }) }).sample()).serve).toBeUndefined();
  });
});

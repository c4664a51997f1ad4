import fc from 'fast-check';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ServeMetrics } from '../../serve/serve-metrics.js';
import { parsePrometheusText, type Sample } from '../helpers/prometheus-text.js';

/** The sample's value, 0 when there is none (a series never recorded). */
const valueOf = (samples: readonly Sample[], name: string, labels: Record<string, string>): number => samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ?? 0;

describe('ServeMetrics', () => {
  it('exports every request recorded once, by route and status, with its duration, however routes interleave and scrapes fall', async () => {
    const routes = ['/predict', '/healthz', 'other', '/metrics'];
    const statuses = [200, 202, 400, 404, 408, 413, 500, 503];
    const step = fc.oneof(
      { arbitrary: fc.record({ route: fc.constantFrom(...routes), status: fc.constantFrom(...statuses), seconds: fc.double({ min: 0, max: 2, noNaN: true }) }), weight: 9 },
      { arbitrary: fc.constant('scrape' as const), weight: 1 },
    );
    await fc.assert(fc.asyncProperty(fc.array(step, { maxLength: 300 }), async (steps) => {
      const registry = new Registry();
      const metrics = new ServeMetrics(registry);
      const counts = new Map<string, number>();
      const sums = new Map<string, number>();
      for (const s of steps) {
        if (s === 'scrape') {
          await registry.metrics();
          continue;
        }
        // the edge hands a route as a new string per request
        metrics.recordRequest(`${s.route} `.trimEnd(), s.status, s.seconds);
        counts.set(`${s.route} ${s.status}`, (counts.get(`${s.route} ${s.status}`) ?? 0) + 1);
        sums.set(s.route, (sums.get(s.route) ?? 0) + s.seconds);
      }
      const samples = parsePrometheusText(await registry.metrics());
      for (const route of routes) {
        for (const status of statuses) expect(valueOf(samples, 'vbstream_serve_http_requests_total', { route, status: String(status) })).toBe(counts.get(`${route} ${status}`) ?? 0);
        expect(valueOf(samples, 'vbstream_serve_http_request_duration_seconds_sum', { route })).toBeCloseTo(sums.get(route) ?? 0, 9);
      }
    }), { numRuns: 40 });
  });
});

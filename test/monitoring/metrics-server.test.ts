import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsServer } from '../../monitoring/metrics-server.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function call(port: number, path: string, method = 'GET'): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('MetricsServer', () => {
  it('serves /metrics, /healthz and /readyz on 127.0.0.1 (port 0 picks a free port)', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const readiness = new Readiness(['model-restored', 'source-consuming']);
    server = new MetricsServer({ metrics, readiness, port: 0 });
    const port = await server.listen();
    expect(port).toBeGreaterThan(0);
    metrics.model('vb-logit-online').recordLearned(3, 1e-4);

    const scraped = await call(port, '/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(scraped.body).toMatch(/^vbstream_records_total\{model="vb-logit-online",partition="",status="learned",reason="",pipeline="default"\} 3$/m);

    expect(await call(port, '/healthz')).toMatchObject({ status: 200, body: 'ok\n' });
    expect(await call(port, '/readyz')).toMatchObject({ status: 503, body: 'not ready: model-restored, source-consuming\n' });
    readiness.set('model-restored');
    expect(await call(port, '/readyz')).toMatchObject({ status: 503, body: 'not ready: source-consuming\n' });
    readiness.set('source-consuming');
    expect(await call(port, '/readyz')).toMatchObject({ status: 200, body: 'ready\n' });
    readiness.set('source-consuming', false);
    expect((await call(port, '/readyz')).status).toBe(503);

    expect((await call(port, '/nope')).status).toBe(404);
    expect((await call(port, '/metrics', 'POST')).status).toBe(405);
    expect(await call(port, '/healthz', 'HEAD')).toMatchObject({ status: 200, body: '' });
  });

  it('listens on the loopback interface only by default and refuses a taken port', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    server = new MetricsServer({ metrics, readiness: new Readiness(), port: 0 });
    const port = await server.listen();
    await expect(call(port, '/readyz')).resolves.toMatchObject({ status: 200 });
    const external = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal);
    expect(external, 'this test needs a non-loopback IPv4 interface to check that the server is not reachable on it').toBeDefined();
    await expect(new Promise((resolve, reject) => {
      const req = request({ host: external?.address, port, path: '/healthz' }, resolve);
      req.on('error', reject);
      req.end();
    })).rejects.toThrow(/ECONNREFUSED/);
    const clash = new MetricsServer({ metrics, readiness: new Readiness(), port });
    await expect(clash.listen()).rejects.toThrow(/EADDRINUSE/);
  });

  it('refuses an undeclared readiness condition', () => {
    expect(() => new Readiness(['model-restored']).set('typo')).toThrow(/unknown readiness condition "typo"; declared: model-restored/);
  });
});

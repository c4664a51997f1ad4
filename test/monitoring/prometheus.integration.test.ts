import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/reference.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * The real Prometheus (Debian package `prometheus`) scraping `vbstream run` — the embedded default
 * pipeline (adf-logit in a worker thread), paced at 5,000 records/s so that it outlives the
 * scrapes — on 127.0.0.1.
 */

function findExecutable(name: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin']) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      continue;
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

let prometheusUrl = '';
let stream: ChildProcess | undefined;
let prometheus: ChildProcess | undefined;
let prometheusLog = '';
let dir = '';

/** Instant query: one value per series, keyed by the series' labels. */
async function query(expr: string): Promise<{ labels: Record<string, string>; value: number }[]> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await response.json()) as { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  if (body.status !== 'success') throw new Error(`query ${expr} failed: ${body.error}`);
  return body.data.result.map((r) => ({ labels: r.metric, value: Number(r.value[1]) }));
}

async function single(expr: string): Promise<number> {
  const result = await query(expr);
  if (result.length !== 1) throw new Error(`expected one series for ${expr}, got ${result.length}`);
  return result[0].value;
}

describe('a real Prometheus scraping vbstream run', () => {
  beforeAll(async () => {
    const binary = findExecutable('prometheus');
    if (binary === undefined) throw new Error('Prometheus is not installed: run the project set-up, `bash scripts/setup.sh` (installs the Debian package prometheus)');
    dir = mkdtempSync(join(tmpdir(), 'vbstream-prometheus-'));

    stream = spawn(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), 'run', '--metrics-port', '0', '--rate', '5000'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    const streamPort = await new Promise<number>((resolve, reject) => {
      let out = '';
      stream?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /metrics: http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      stream?.once('exit', (code) => reject(new Error(`vbstream run exited early (${code})`)));
    });

    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    writeFileSync(join(dir, 'prometheus.yml'), [
      'global:', '  scrape_interval: 1s', '  evaluation_interval: 1s', 'rule_files:', `  - ${join(repoRoot, 'monitoring/alerts.yml')}`, 'scrape_configs:', '  - job_name: vbstream',
      '    static_configs:', `      - targets: ['127.0.0.1:${streamPort}']`, '',
    ].join('\n'));
    prometheus = spawn(binary, [`--config.file=${join(dir, 'prometheus.yml')}`, `--web.listen-address=127.0.0.1:${port}`, `--storage.tsdb.path=${join(dir, 'data')}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
    prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
    await waitFor(async () => (await fetch(`${prometheusUrl}/-/ready`)).ok, () => `Prometheus to be ready (its log: ${prometheusLog})`);
    await waitFor(async () => {
      const body = (await (await fetch(`${prometheusUrl}/api/v1/targets`)).json()) as { data: { activeTargets: { health: string }[] } };
      return body.data.activeTargets.some((t) => t.health === 'up');
    }, 'the vbstream target to be up');
  });

  afterAll(async () => {
    await stop(prometheus);
    await stop(stream);
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('finds the expected series with sensible values', async () => {
    expect(await single('up{job="vbstream"}')).toBe(1);
    const learned = 'vbstream_records_total{job="vbstream",status="learned",model="adf-logit",pipeline="default"}';
    const first = await waitFor(async () => {
      const v = await single(learned);
      return v > 0 && v;
    }, 'learned records');
    const later = await waitFor(async () => {
      const v = await single(learned);
      return v > first && v;
    }, 'the learned count to grow');
    expect(later).toBeGreaterThan(first);
    await waitFor(async () => (await query('vbstream_snapshots_total >= 1')).length === 1, 'a snapshot (the default takes one every 10 s)');
    await waitFor(async () => (await query('rate(vbstream_records_total{status="learned"}[5s]) > 0')).length === 1, 'a rate over two scrapes');

    const logLoss = await single('vbstream_prequential_log_loss');
    expect(logLoss).toBeGreaterThan(0);
    expect(logLoss).toBeLessThan(1);
    const brier = await single('vbstream_prequential_brier_score');
    expect(brier).toBeGreaterThan(0);
    expect(brier).toBeLessThan(0.25);
    const rate = await single('rate(vbstream_records_total{status="learned"}[5s])');
    expect(rate).toBeGreaterThan(500);
    expect(rate).toBeLessThan(20_000);
    const medianLatency = await single('histogram_quantile(0.5, sum by (le) (rate(vbstream_update_duration_seconds_bucket[5s])))');
    expect(medianLatency).toBeGreaterThan(0);
    expect(medianLatency).toBeLessThan(0.05);
    const meanBatch = await single('sum(vbstream_minibatch_size_sum) / sum(vbstream_minibatch_size_count)');
    expect(meanBatch).toBeGreaterThan(1);
    expect(meanBatch).toBeLessThanOrEqual(256);
    expect(await single('rate(vbstream_worker_busy_seconds_total[5s])')).toBeGreaterThan(0);
    const meanPredicted = await single('sum(vbstream_calibration_predicted_probability_sum) / sum(vbstream_calibration_predicted_probability_count)');
    const observed = await single('sum(vbstream_calibration_predicted_probability_count{outcome="1"}) / sum(vbstream_calibration_predicted_probability_count)');
    expect(Math.abs(meanPredicted - observed)).toBeLessThan(0.1);
    expect(await single('vbstream_posterior_effective_data_size')).toBeGreaterThan(1000);
    expect(await single('vbstream_posterior_mean_norm')).toBeGreaterThan(0);
    expect(await single('vbstream_posterior_log_det_covariance')).toBeLessThan(0);
    expect(await single('vbstream_posterior_trace_covariance')).toBeGreaterThan(0);
    expect(await single('vbstream_posterior_condition_number')).toBeGreaterThanOrEqual(1);
    expect(await single('vbstream_snapshot_size_bytes')).toBeGreaterThan(10 * 10 * 8);
    const age = await single('vbstream_snapshot_age_seconds');
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(30);
    const loopLag = await single('vbstream_nodejs_eventloop_lag_seconds');
    expect(loopLag).toBeGreaterThanOrEqual(0);
    expect(loopLag).toBeLessThan(1);
    expect(await single('vbstream_process_resident_memory_bytes')).toBeGreaterThan(1e6);
  });

  it('loads the shipped alerting rules and evaluates every one of them on the live series; none fires on a healthy run (and the readiness series it watches are there)', async () => {
    type Rule = { name: string; health: string; state: string; lastError?: string };
    const rules = await waitFor(async () => {
      const body = (await (await fetch(`${prometheusUrl}/api/v1/rules?type=alert`)).json()) as { data: { groups: { rules: Rule[] }[] } };
      const all = body.data.groups.flatMap((g) => g.rules);
      return all.length > 0 && all.every((r) => r.health === 'ok') ? all : undefined;
    }, 'every rule evaluated');
    expect(rules.length).toBe(11);
    expect(rules.filter((r) => r.state !== 'inactive').map((r) => r.name)).toEqual([]);
    expect((await query('vbstream_ready')).map((s) => [s.labels.condition, s.value]).sort()).toEqual([['model-restored', 1], ['source-consuming', 1]]);
  });

  it('the committed monitoring/prometheus.yml is a valid configuration (promtool)', () => {
    const promtool = findExecutable('promtool');
    expect(promtool, 'promtool comes with the Debian package prometheus: run `bash scripts/setup.sh`').toBeDefined();
    const result = spawnSync(promtool as string, ['check', 'config', join(repoRoot, 'monitoring/prometheus.yml')], { encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS');
  });

  it('Prometheus logged no errors', () => {
    expect(prometheusLog).not.toMatch(/level=error/);
  });
});

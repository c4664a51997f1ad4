import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killIfRunning } from '../helpers/kill-if-running.js';
import { repoRoot } from '../helpers/reference.js';
import { parsePrometheusText, type Sample, sampleValue } from '../helpers/prometheus-text.js';
import { rawRequest } from '../helpers/raw-http.js';
import { waitFor } from '../helpers/wait-for.js';

const cli = join(repoRoot, 'dist', 'cli', 'vbstream.js');
const work = mkdtempSync(join(tmpdir(), 'vbstream-run-metrics-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(async () => {
  await killIfRunning(child);
  child = undefined;
});

/** Spawns `vbstream run` and resolves with the port of the metrics URL, which must be the first stdout line. */
function start(args: string[], cwd: string): Promise<{ port: number; output: () => string; closed: Promise<number | null> }> {
  const spawned = spawn(process.execPath, [cli, 'run', ...args], { cwd });
  child = spawned;
  let stdout = '';
  let stderr = '';
  spawned.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const closed = new Promise<number | null>((resolve) => spawned.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    spawned.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const first = /^metrics: http:\/\/127\.0\.0\.1:(\d+)\/metrics.*\n/.exec(stdout);
      if (first) resolve({ port: Number(first[1]), output: () => stdout + stderr, closed });
      else if (stdout.includes('\n')) reject(new Error(`first line is not the metrics URL: ${stdout}`));
    });
    void closed.then((code) => reject(new Error(`vbstream run exited (${code}) before serving metrics: ${stdout}${stderr}`)));
  });
}

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: await response.text() };
}

/** Scrapes until `ready(samples)` holds. */
function scrapeUntil(port: number, ready: (samples: Sample[]) => boolean, what: string): Promise<Sample[]> {
  return waitFor(async () => {
    const samples = parsePrometheusText((await get(port, '/metrics')).body);
    return ready(samples) && samples;
  }, what);
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined =>
  samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) ? sampleValue(samples, name, labels) : undefined;

const model = { model: 'adf-logit', partition: '' };

describe('vbstream run serves metrics and health', () => {
  it('a worker-run pipeline (the embedded default): the worker\'s deltas reach /metrics, /healthz and /readyz answer, SIGINT closes the endpoint', async () => {
    const run = await start(['--metrics-port', '0', '--rate', '20000'], mkdtempSync(join(work, 'worker-')));
    // 5,000 records: the prequential window (the last 1,000) is past the prior's coin flips.
    const samples = await scrapeUntil(run.port, (s) => (value(s, 'vbstream_records_total', { ...model, status: 'learned' }) ?? 0) >= 5000, '5,000 learned records from the worker');
    expect(run.output()).toMatch(/in a worker thread/);
    expect(value(samples, 'vbstream_update_duration_seconds_count', model)).toBeGreaterThan(0);
    const batches = value(samples, 'vbstream_minibatch_size_count', model)!;
    expect(value(samples, 'vbstream_minibatch_size_sum', model)! / batches).toBeLessThanOrEqual(256);
    expect(value(samples, 'vbstream_worker_busy_seconds_total')).toBeGreaterThan(0);
    expect(value(samples, 'vbstream_prequential_log_loss', model)).toBeGreaterThan(0);
    expect(value(samples, 'vbstream_prequential_brier_score', model)).toBeLessThan(0.25);
    expect(value(samples, 'vbstream_calibration_predicted_probability_count', { ...model, outcome: '1' })).toBeGreaterThan(0);
    expect(value(samples, 'vbstream_posterior_condition_number', model)).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'vbstream_posterior_effective_data_size', model)).toBeGreaterThan(0);
    expect(value(samples, 'vbstream_worker_queue_depth')).toBeGreaterThanOrEqual(0);
    expect(value(samples, 'vbstream_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(samples.every((s) => s.labels.pipeline === 'default')).toBe(true);
    expect(await get(run.port, '/healthz')).toEqual({ status: 200, body: 'ok\n' });
    expect(await get(run.port, '/readyz')).toEqual({ status: 200, body: 'ready\n' });

    child!.kill('SIGINT');
    expect(await run.closed).toBe(0);
    await expect(fetch(`http://127.0.0.1:${run.port}/healthz`)).rejects.toThrow();
  });

  it('an in-process pipeline on stdin: rejections and dead letters by reason, the objective, snapshots, the pipeline label and the allowed hosts', async () => {
    const dir = mkdtempSync(join(work, 'stdin-'));
    writeFileSync(join(dir, 'pipeline.json'), JSON.stringify({
      source: { type: 'stdin', format: 'csv' },
      schema: { features: ['x1', 'x2'], label: 'y' },
      model: { family: 'vb-logit', options: { maxIter: 50 } },
      minibatch: { size: 25, maxWaitMs: 10 },
      worker: false,
      snapshots: { dir: 'snaps', everyRecords: 50 },
      sinks: { badRecords: { type: 'jsonl', path: 'bad.jsonl' } },
      metrics: { port: 0, pipeline: 'stdin-test', allowedHosts: ['vbstream.internal'] },
    }));
    const run = await start(['--config', join(dir, 'pipeline.json')], dir);
    const rows = Array.from({ length: 100 }, (_, i) => `${(i % 7) / 3 - 1},${(i % 5) / 2 - 1},${i % 3 === 0 ? 1 : 0}`);
    rows.splice(10, 0, '1,oops,1');
    rows.splice(20, 0, '1,2,5');
    child!.stdin.write(`x1,x2,y\n${rows.join('\n')}\n`);
    const vbLogit = { model: 'vb-logit', partition: '' };
    const samples = await scrapeUntil(run.port, (s) => value(s, 'vbstream_records_total', { ...vbLogit, status: 'learned' }) === 100 && (value(s, 'vbstream_snapshots_total', vbLogit) ?? 0) >= 2, '100 learned records and two snapshots');
    expect(value(samples, 'vbstream_records_total', { ...vbLogit, status: 'rejected', reason: 'input' })).toBe(2);
    expect(value(samples, 'vbstream_dead_letters_total', { reason: 'input' })).toBe(2);
    expect(value(samples, 'vbstream_objective', vbLogit)).toBeLessThan(0);
    expect(value(samples, 'vbstream_snapshot_size_bytes', vbLogit)).toBeGreaterThan(2 * 2 * 8);
    expect(value(samples, 'vbstream_snapshot_age_seconds', vbLogit)).toBeGreaterThanOrEqual(0);
    expect(value(samples, 'vbstream_worker_busy_seconds_total')).toBe(0);
    expect(samples.every((s) => s.labels.pipeline === 'stdin-test')).toBe(true);
    expect((await get(run.port, '/readyz')).status).toBe(200);
    const asHost = async (host: string) => (await rawRequest(run.port, `GET /readyz HTTP/1.1\r\nHost: ${host}\r\n\r\n`)).status;
    expect([await asHost('vbstream.internal:80'), await asHost('localhost'), await asHost('attacker.example')], 'metrics.allowedHosts beside the defaults; other names refused').toEqual([200, 200, 421]);

    child!.stdin.end();
    expect(await run.closed).toBe(0);
    expect(run.output()).toMatch(/done: 100 records .* 2 bad/);
  });

  it('refuses a metrics port in use, --rate on a file source, and contradictory flags; --no-metrics serves nothing', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const busy = (blocker.address() as { port: number }).port;
    const config = join(work, 'small.json');
    writeFileSync(config, JSON.stringify({ source: { type: 'synthetic', records: 50 }, model: { family: 'vb-logit-online' }, worker: false, snapshots: { dir: 'small-snaps' } }));
    try {
      const inUse = spawnSync(process.execPath, [cli, 'run', '--config', config, '--metrics-port', String(busy)], { cwd: work, encoding: 'utf8' });
      expect(inUse.status).toBe(1);
      expect(inUse.stderr).toContain(`cannot serve metrics on 127.0.0.1:${busy} (EADDRINUSE)`);
    } finally {
      blocker.close();
    }
    const csv = join(work, 'rate.json');
    writeFileSync(join(work, 'rate.csv'), 'x,y\n1,0\n');
    writeFileSync(csv, JSON.stringify({ source: { type: 'csv', path: 'rate.csv' }, model: { family: 'vb-logit-online' }, metrics: false }));
    const rate = spawnSync(process.execPath, [cli, 'run', '--config', csv, '--rate', '100'], { cwd: work, encoding: 'utf8' });
    expect(rate.status).toBe(1);
    expect(rate.stderr).toContain('--rate paces a synthetic source; this pipeline reads csv');
    const both = spawnSync(process.execPath, [cli, 'run', '--config', config, '--metrics-port', '0', '--no-metrics'], { cwd: work, encoding: 'utf8' });
    expect(both.status).toBe(1);
    expect(both.stderr).toContain('--metrics-port and --no-metrics contradict each other');
    const quiet = spawnSync(process.execPath, [cli, 'run', '--config', config, '--no-metrics'], { cwd: work, encoding: 'utf8' });
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toMatch(/^vbstream run: synthetic logistic stream/);
  });
});

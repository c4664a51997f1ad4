import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { watch } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileFingerprint } from '../../connectors/file/file-fingerprint.js';
import { encodeSnapshotEvent } from '../../src/core/encode-snapshot-event.js';
import { restoreSnapshotEvent } from '../../src/restore-snapshot-event.js';
import { killIfRunning } from '../helpers/kill-if-running.js';
import { repoRoot } from '../helpers/reference.js';

const cli = join(repoRoot, 'dist', 'cli', 'vbstream.js');
const work = mkdtempSync(join(tmpdir(), 'vbstream-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PROGRESS = /^\s+[\d,]+\s+[\d,]+\s+0\.\d{4}\s+0\.\d{4}/m;

/** Starts `vbstream run` in `cwd`, sends SIGINT once a progress line with scores has appeared, and resolves with the outcome. */
function runUntilProgressThenInterrupt(cwd: string, args: string[] = []): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'run', ...args], { cwd });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!sent && PROGRESS.test(stdout)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function latestSnapshot(dir: string, family = 'adf-logit') {
  const files = readdirSync(dir).filter((f) => f.endsWith('.vbsnap')).sort();
  const path = join(dir, files.at(-1)!);
  return { path, ...restoreSnapshotEvent(new Uint8Array(readFileSync(path)), path, { family }) };
}

describe('vbstream run (end to end, as a child process)', () => {
  it('npm start is `vbstream run`', () => {
    expect(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts.start).toBe('node dist/cli/vbstream.js run');
  });

  it('the embedded default shows progress, and on SIGINT drains, writes a final snapshot and exits 0; --resume continues from it', async () => {
    const cwd = mkdtempSync(join(work, 'default-'));
    const first = await runUntilProgressThenInterrupt(cwd, ['--metrics-port', '0']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.split('\n')[0]).toMatch(/^metrics: http:\/\/127\.0\.0\.1:\d+\/metrics/);
    expect(first.stdout).toMatch(/synthetic logistic stream .* adf-logit \(d=10\) in a worker thread/);
    expect(first.stdout).toMatch(/SIGINT: stopping the source, draining in-flight records, writing a final snapshot/);
    const inModel = Number(/, ([\d,]+) in the model/.exec(first.stdout)![1].replaceAll(',', ''));
    const finalPath = /final snapshot: (.*)$/m.exec(first.stdout)![1];
    const snapshot = latestSnapshot(join(cwd, 'snapshots'));
    expect(snapshot.path).toBe(finalPath);
    expect(snapshot.event.recordsSeen).toBe(inModel);
    expect(snapshot.event.positions).toEqual({ 'synthetic:logistic:d10:seed1': inModel });
    expect(snapshot.model.recordsSeen).toBe(inModel);
    expect(inModel).toBeGreaterThan(0);

    const second = await runUntilProgressThenInterrupt(cwd, ['--resume', '--metrics-port', '0']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`resuming from ${finalPath} (${inModel.toLocaleString('en-US')} records`);
    const resumed = latestSnapshot(join(cwd, 'snapshots'));
    expect(resumed.event.recordsSeen).toBeGreaterThan(inModel);
    expect(resumed.event.positions['synthetic:logistic:d10:seed1']).toBe(resumed.event.recordsSeen);
  });

  it('runs a pipeline from a config file to the end: bad rows aside, predictions and snapshots written', async () => {
    const dir = mkdtempSync(join(work, 'config-'));
    const rows = ['x1,x2,y', ...Array.from({ length: 300 }, (_, i) => `${(i % 7) / 3 - 1},${(i % 5) / 2 - 1},${i % 3 === 0 ? 1 : 0}`)];
    rows.splice(10, 0, '1,oops,1');
    rows.splice(20, 0, '1,2,5');
    writeFileSync(join(dir, 'data.csv'), `${rows.join('\n')}\n`);
    writeFileSync(join(dir, 'pipeline.json'), JSON.stringify({
      source: { type: 'csv', path: 'data.csv' },
      schema: { label: 'y' },
      model: { family: 'vb-logit', options: { maxIter: 50 } },
      minibatch: { size: 32, maxWaitMs: 10 },
      worker: false,
      snapshots: { dir: 'snaps', everyRecords: 100, keep: 2 },
      sinks: { predictions: { type: 'jsonl', path: 'pred.jsonl' }, badRecords: { type: 'jsonl', path: 'bad.jsonl' } },
      metrics: false,
    }));
    const run = spawnSync(process.execPath, [cli, 'run', '--config', join(dir, 'pipeline.json')], { cwd: work, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/done: 300 records .* 2 bad/);
    expect(run.stdout).not.toContain('metrics:');
    const predictions = readFileSync(join(dir, 'pred.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(predictions).toHaveLength(300);
    expect(predictions.every((p) => p.mean > 0 && p.mean < 1 && p.logLoss > 0)).toBe(true);
    const bad = readFileSync(join(dir, 'bad.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).reason);
    expect(bad).toEqual([expect.stringMatching(/not a number .*row 10, column x2, value "oops"/), expect.stringMatching(/binary label must be 0\/1 or -1\/1 \(row 20, column y, value 5\)/)]);
    expect(readdirSync(join(dir, 'snaps'))).toHaveLength(2);
    const path = join(dir, 'snaps', readdirSync(join(dir, 'snaps')).sort().at(-1)!);
    const { event } = restoreSnapshotEvent(new Uint8Array(readFileSync(path)), path, { family: 'vb-logit', dim: 2 });
    expect(event.recordsSeen).toBe(300);
    expect(event.positions).toEqual({ [await fileFingerprint(join(dir, 'data.csv'))]: 302 });
  });

  it('refuses out-of-range values (a 1e200 feature, a label beyond schema.maxAbsInput) in the worker as bad records of their own, learning every other record (issue 26, item 6)', () => {
    const dir = mkdtempSync(join(work, 'range-'));
    const records = Array.from({ length: 200 }, (_, i) => ({ a: (i % 7) / 3 - 1, b: (i % 5) / 2 - 1, y: ((i % 11) - 5) * 100 }));
    records[17].b = 1e200;
    records[60].y = -2e6;
    records[61].y = 1e6;
    writeFileSync(join(dir, 'data.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    writeFileSync(join(dir, 'pipeline.json'), JSON.stringify({
      source: { type: 'jsonl', path: 'data.jsonl' },
      schema: { features: ['a', 'b'], label: 'y', maxAbsInput: 1e6 },
      model: { family: 'vb-linear' },
      minibatch: { size: 50, maxWaitMs: 10 },
      worker: true,
      snapshots: { dir: 'snaps' },
      sinks: { badRecords: { type: 'jsonl', path: 'bad.jsonl' } },
      metrics: false,
    }));
    const run = spawnSync(process.execPath, [cli, 'run', '--config', join(dir, 'pipeline.json')], { cwd: work, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/done: 198 records .* 2 bad/);
    const bad = readFileSync(join(dir, 'bad.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).reason);
    expect(bad).toEqual([
      'feature is out of range: |value| > maxAbsInput (1e+6) (row 18, column 2, value 1e+200)',
      'label is out of range: |value| > maxAbsInput (1e+6) (row 61, column y, value -2000000)',
    ]);
    const path = join(dir, 'snaps', readdirSync(join(dir, 'snaps')).sort().at(-1)!);
    expect(restoreSnapshotEvent(new Uint8Array(readFileSync(path)), path, { family: 'vb-linear', dim: 2 }).event.recordsSeen).toBe(198);
  });

  it('--resume follows the data, not its path: a moved file continues where it stopped, other data is refused (issue 14, item 10)', () => {
    const dir = mkdtempSync(join(work, 'moved-'));
    const rows = (offset: number) => ['x1,x2,y', ...Array.from({ length: 200 }, (_, i) => `${((i + offset) % 7) / 3 - 1},${(i % 5) / 2 - 1},${i % 3 === 0 ? 1 : 0}`)].join('\n');
    const config = (path: string) => JSON.stringify({ source: { type: 'csv', path }, model: { family: 'vb-linear' }, worker: false, metrics: false, snapshots: { dir: 'snaps' } });
    writeFileSync(join(dir, 'a.csv'), `${rows(0)}\n`);
    writeFileSync(join(dir, 'a.json'), config('a.csv'));
    const first = spawnSync(process.execPath, [cli, 'run', '--config', join(dir, 'a.json')], { cwd: work, encoding: 'utf8' });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/done: 200 records/);
    mkdirSync(join(dir, 'moved'));
    writeFileSync(join(dir, 'moved', 'renamed.csv'), `${rows(0)}\n`);
    writeFileSync(join(dir, 'b.json'), config('moved/renamed.csv'));
    const moved = spawnSync(process.execPath, [cli, 'run', '--config', join(dir, 'b.json'), '--resume'], { cwd: work, encoding: 'utf8' });
    expect(moved.stderr).toBe('');
    expect(moved.status).toBe(0);
    expect(moved.stdout).toMatch(/resuming from .* \(200 records/);
    expect(moved.stdout).toMatch(/done: 0 records .* 200 in the model/);
    writeFileSync(join(dir, 'other.csv'), `${rows(3)}\n`);
    writeFileSync(join(dir, 'c.json'), config('other.csv'));
    const other = spawnSync(process.execPath, [cli, 'run', '--config', join(dir, 'c.json'), '--resume'], { cwd: work, encoding: 'utf8' });
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(/snapshot .* was taken reading .*a\.csv \(file:[0-9a-f]{16}\), but this run reads .*other\.csv \(file:[0-9a-f]{16}\), which is other data/);
  });

  it('a SIGKILLed run leaves no temporary snapshot file behind once the next run has started (issue 26, item 16)', async () => {
    const dir = mkdtempSync(join(work, 'killed-'));
    const snaps = join(dir, 'snaps');
    mkdirSync(snaps);
    writeFileSync(join(dir, 'pipeline.json'), JSON.stringify({
      source: { type: 'synthetic', records: 10_000_000, rate: 5000 }, model: { family: 'vb-logit-online' }, worker: false, metrics: false,
      minibatch: { size: 50, maxWaitMs: 10 }, snapshots: { dir: 'snaps', everyRecords: 200 },
    }));
    const watcher = watch(snaps);
    const child = spawn(process.execPath, [cli, 'run', '--config', 'pipeline.json'], { cwd: dir, stdio: 'ignore' });
    try {
      for await (const change of watcher) if (/^snapshot-\d{12}\.vbsnap$/.test(change.filename ?? '')) break;
    } finally {
      await killIfRunning(child);
    }
    // What the kill would leave had it landed inside writeFileAtomic: the killed process's temporary file.
    const leftover = `.snapshot-000000099999.vbsnap.${child.pid}.${Date.now()}.tmp`;
    writeFileSync(join(snaps, leftover), 'partial');
    const next = await runUntilProgressThenInterrupt(dir, ['--config', 'pipeline.json', '--resume']);
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    expect(next.stdout).toMatch(/resuming from .*snapshot-\d{12}\.vbsnap/);
    expect(readdirSync(snaps).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('--resume refuses a snapshot file with a NaN in an array, naming the file, family, array and index, and exits 1 (issue 26, item 15)', () => {
    const dir = mkdtempSync(join(work, 'nan-'));
    writeFileSync(join(dir, 'pipeline.json'), JSON.stringify({ source: { type: 'synthetic', records: 300 }, model: { family: 'vb-logit-online' }, worker: false, metrics: false, snapshots: { dir: 'snaps' } }));
    const first = spawnSync(process.execPath, [cli, 'run', '--config', 'pipeline.json'], { cwd: dir, encoding: 'utf8' });
    expect(first.status).toBe(0);
    const { path, event, meta } = latestSnapshot(join(dir, 'snaps'), 'vb-logit-online');
    const snapshot = event.snapshot;
    const w = snapshot.arrays.w.slice();
    w[2] = Number.NaN;
    writeFileSync(path, encodeSnapshotEvent({ ...event, snapshot: { ...snapshot, arrays: { ...snapshot.arrays, w } } }, meta));
    const resumed = spawnSync(process.execPath, [cli, 'run', '--config', 'pipeline.json', '--resume'], { cwd: dir, encoding: 'utf8' });
    expect(resumed.status).toBe(1);
    expect(resumed.stderr).toContain(path);
    expect(resumed.stderr).toContain('vb-logit-online snapshot refused: "w" must hold finite values at index 2 (value NaN)');
  });

  it('refuses an invalid config with every problem and its path, and exits 1', () => {
    const path = join(work, 'bad.json');
    writeFileSync(path, JSON.stringify({ source: { type: 'kinesis' }, model: { family: 'nope' }, minibatch: { size: 0 }, snapshot: {} }));
    const run = spawnSync(process.execPath, [cli, 'run', '--config', path], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`invalid pipeline configuration (${path})`);
    expect(run.stderr).toMatch(/source\.type: /);
    expect(run.stderr).toMatch(/model\.family: unknown model family "nope"; known: vb-linear/);
    expect(run.stderr).toMatch(/minibatch\.size: Too small/);
    expect(run.stderr).toMatch(/Unrecognized key: "snapshot"/);
    const invalidOption = join(work, 'opt.json');
    writeFileSync(invalidOption, JSON.stringify({ source: { type: 'synthetic', records: 10 }, model: { family: 'vb-logit', options: { tol: -1 } }, worker: false }));
    const refused = spawnSync(process.execPath, [cli, 'run', '--config', invalidOption, '--no-metrics'], { cwd: work, encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/must be a finite positive number \(field tol, value -1\)/);
  });
});

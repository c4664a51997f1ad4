import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotDirectory } from '../../connectors/file/snapshot-directory.js';
import { getFamily } from '../../src/registry.js';
import { killIfRunning } from '../helpers/kill-if-running.js';
import { repoRoot } from '../helpers/reference.js';
import { runVbstream } from '../helpers/run-vbstream.js';
import { logisticData } from '../helpers/synthetic-data.js';
import { waitFor } from '../helpers/wait-for.js';

const dir = mkdtempSync(join(tmpdir(), 'vbstream-serve-cli-'));
let serve: ChildProcess | undefined;
afterAll(async () => {
  await killIfRunning(serve);
  rmSync(dir, { recursive: true, force: true });
});

const post = async (url: string, body: unknown): Promise<{ status: number; json: any }> => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
};

describe('vbstream serve', () => {
  it.each([
    [[], /give --config, or exactly one of --snapshot-dir and --snapshot-topic\nusage: vbstream serve/],
    [['--snapshot-dir', 'a', '--snapshot-topic', 'b'], /exactly one of --snapshot-dir and --snapshot-topic/],
    [['--snapshot-topic', 't', '--model', 'm'], /--snapshot-topic needs --brokers and --model/],
    [['--snapshot-topic', 't', '--model', 'm', '--brokers', '127.0.0.1:1'], /exactly one of --partition <p> .* and --global/],
    [['--snapshot-dir', 'a', '--global'], /pick a key of a Kafka snapshot topic/],
    [['--config', 'missing.json'], /cannot read the pipeline configuration/],
    [['--snapshot-dir', 'a', '--level', '1'], /--level must be between 0 and 1/],
    [['--snapshot-dir', 'a', '--port', '70000'], /--port must be an integer from 0/],
    [['--snapshot-dir', 'a', '--outcomes-topic', 'o'], /--outcomes-topic needs --predictions-topic/],
    [['--snapshot-dir', 'a', '--predictions-topic', 'p'], /--predictions-topic needs --brokers/],
    [['--snapshot-dir', 'a', '--log-producers', '0'], /--log-producers must be an integer ≥ 1/],
    [['--snapshot-dir', 'a', '--family', 'vb-logit-onlin'], /did you mean "vb-logit-online"/],
    [['--snapshot-dir', 'a', '--features', 'a,b', '--dim', '3'], /2 feature names for dim 3/],
  ])('%j exits 1 naming the problem, before it serves', (args, message) => {
    const result = runVbstream('serve', ...args);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(1);
  });

  it('serves the snapshots `vbstream run` writes (config of file sources): named features from the schema, hot swaps, refusals in one line, SIGTERM exits 0', async () => {
    const config = join(dir, 'pipeline.json');
    writeFileSync(config, JSON.stringify({
      source: { type: 'synthetic', kind: 'logistic', dim: 3, records: 3000, seed: 3 },
      schema: { maxAbsInput: 100 },
      model: { family: 'adf-logit' }, worker: false, snapshots: { dir: 'snaps', everyRecords: 1000 }, metrics: false,
    }));
    const run = runVbstream('run', '--config', config);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const store = new SnapshotDirectory(join(dir, 'snaps'));
    const latest = await store.restoreLatest();
    const n = Number(/snapshot-(\d+)/.exec(latest!.path)![1]);

    serve = spawn(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), 'serve', '--config', config, '--port', '0', '--poll-ms', '50', '--instance-id', 'cli'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    serve.stdout?.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    serve.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const lines = (text: string): any[] => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
    const listening = await waitFor(() => lines(stdout).find((line) => line.type === 'listening'), () => `the listening line (stdout: ${stdout}, stderr: ${stderr})`);
    expect(listening).toMatchObject({ instance: 'cli', source: `snapshots in ${join(dir, 'snaps')}` });
    expect(lines(stdout)[0]).toMatchObject({ type: 'posterior', version: `file:${n}`, family: 'adf-logit', dim: 3, records: 3000 });
    const url = `${listening.url}predict`;
    const x = [1, 0.5, -0.25];
    const byPosition = await post(url, { x });
    expect(byPosition.status).toBe(200);
    const expected = latest!.model.predict(Float64Array.from(x));
    expect(byPosition.json).toEqual({ mean: expected.mean, variance: expected.variance, interval: expected.interval(0.9), level: 0.9, version: `file:${n}`, predictionId: 'cli-1' });
    const byName = await post(url, { features: { x2: -0.25, bias: 1, x1: 0.5 } });
    expect(byName.json).toMatchObject({ mean: expected.mean, predictionId: 'cli-2' });
    const outOfRange = await post(url, { x: [1, 500, 0] });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.json.error.location.field).toBe('x[1]');

    const save = async (family: string, records: number): Promise<void> => {
      const data = logisticData(records, 3, records);
      const model = getFamily(family).create(3, {});
      model.update({ x: data.x, y: data.y, n: data.n, d: 3 });
      await store.save({ snapshot: model.snapshot(), recordsSeen: model.recordsSeen, positions: {}, createdAt: new Date().toISOString(), reason: 'records' });
    };
    await save('vb-logit-online', 100);
    await waitFor(() => stderr.includes('"type":"refused"'), () => `the refused line (stderr: ${stderr})`);
    expect(lines(stderr)).toEqual([{ type: 'refused', origin: join(dir, 'snaps', `snapshot-${String(n + 1).padStart(12, '0')}.vbsnap`), reason: 'snapshot is of family "vb-logit-online", this service serves "adf-logit"', field: 'family' }]);
    expect((await post(url, { x })).json.version).toBe(`file:${n}`);
    await save('adf-logit', 200);
    await waitFor(async () => (await post(url, { x })).json.version === `file:${n + 2}`, 'the newer snapshot served');
    expect(lines(stdout).filter((line) => line.type === 'posterior').map((line) => line.version)).toEqual([`file:${n}`, `file:${n + 2}`]);

    const exited = once(serve, 'exit');
    serve.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
    expect(lines(stdout).at(-1)).toEqual({ type: 'stopping', signal: 'SIGTERM' });
    expect(lines(stderr)).toHaveLength(1);
  });
});

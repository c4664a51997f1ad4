import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotDirectory } from '../../connectors/file/snapshot-directory.js';
import { repoRoot } from '../helpers/reference.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';

const dir = mkdtempSync(join(tmpdir(), 'vbstream-scoring-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('real-time-scoring example (as `npm run example:scoring` runs it, built)', () => {
  it('serves its snapshot directory with vbstream/serve, hot-swaps the newer snapshot under load with no failed request, answers with the posterior\'s version and refuses a short row naming the field', async () => {
    const snapshots = join(dir, 'snapshots');
    const run = spawnSync(process.execPath, [join(repoRoot, 'dist/examples/real-time-scoring/main.js'), '--snapshots', snapshots, '--requests', '300', '--concurrency', '4'], { encoding: 'utf8', timeout: PATIENCE_MS });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^serving file:1 \(vb-logit-online, d = 5, 500 records\) at http:\/\/127\.0\.0\.1:\d+\/predict; live page http:\/\/127\.0\.0\.1:\d+\/, metrics /);
    expect(lines[1]).toMatch(/^300 requests from 4 clients in [\d.]+ s: \d+ requests\/s, p50 [\d.]+ ms, p99 [\d.]+ ms, 0 failed$/);
    const answered = Object.fromEntries([...lines[2].matchAll(/(file:\d+) \((\d+)\)/g)].map(([, version, n]) => [version, Number(n)]));
    expect(Object.keys(answered)).toEqual(['file:1', 'file:2']);
    expect(answered['file:1'] + answered['file:2']).toBe(300);

    const answer = JSON.parse(lines[3].replace(/^one answer: /, ''));
    const latest = await new SnapshotDirectory(snapshots).restoreLatest();
    expect(latest!.model.recordsSeen).toBe(20_500);
    const expected = latest!.model.predict(Float64Array.from([1, 0.5, -1, 0.2, 2]));
    expect(answer).toEqual({ mean: expected.mean, variance: expected.variance, interval: expected.interval(0.95), level: 0.95, version: 'file:2', predictionId: expect.stringMatching(/^[0-9a-f]{12}-301$/) });
    const refused = JSON.parse(lines[4].replace(/^a row of 2 features: /, ''));
    expect(refused).toMatchObject({ status: 400, json: { error: { kind: 'shape', location: { field: 'x' }, retriable: false } } });
  });
});

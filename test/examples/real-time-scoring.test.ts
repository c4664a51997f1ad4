import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotDirectory } from '../../connectors/file/snapshot-directory.js';
import { SyntheticGenerator } from '../../connectors/file/synthetic-generator.js';
import { type LoadTestReport, runLoadTest } from '../../examples/real-time-scoring/load-test.js';
import { createScoringServer, ScoringService } from '../../examples/real-time-scoring/scoring-service.js';
import { watchSnapshotDirectory } from '../../examples/real-time-scoring/watch-snapshot-directory.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { getFamily } from '../../src/registry.js';
import { PATIENCE_MS, waitFor } from '../helpers/wait-for.js';
import { listenLocal, postJson } from './http-client.js';

const dim = 3;

describe('real-time-scoring example', () => {
  let dir = '';
  let store: SnapshotDirectory;
  let model: OnlineModel;
  const data = new SyntheticGenerator({ kind: 'logistic', dim, seed: 5 });
  const errors: Error[] = [];
  let service: ScoringService;
  let base = '';
  let server: ReturnType<typeof createScoringServer>;

  const learnAndSave = async (records: number): Promise<void> => {
    const x = new Float64Array(records * dim);
    const y = new Float64Array(records);
    for (let i = 0; i < records; i++) y[i] = data.next(x.subarray(i * dim, (i + 1) * dim));
    model.update({ x, y, n: records, d: dim });
    await store.save({ snapshot: model.snapshot(), recordsSeen: model.recordsSeen, positions: { synthetic: data.generated }, createdAt: new Date().toISOString(), reason: 'records' });
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vbstream-scoring-'));
    store = new SnapshotDirectory(dir, 5);
    model = getFamily('vb-logit-online').create(dim, { priorPrecision: 1 });
    service = new ScoringService(watchSnapshotDirectory(dir, { pollMs: 20, onError: (e) => errors.push(e) }), { level: 0.9, maxRows: 10 });
    server = createScoringServer(service, 2000);
    base = await listenLocal(server);
  });
  afterAll(async () => {
    service.close();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 503 before any snapshot, then scores rows with mean, variance, interval and the model version', async () => {
    expect((await postJson(`${base}/score`, { x: [1, 0, 0] })).status).toBe(503);
    await learnAndSave(300);
    await waitFor(() => service.version() !== undefined, 'the first snapshot');
    const reply = await postJson(`${base}/score`, { rows: [[1, 0.5, -1], [1, -2, 2]] });
    expect(reply.status).toBe(200);
    expect(reply.json.version).toMatchObject({ family: 'vb-logit-online', dim, recordsSeen: 300, sequence: 1 });
    expect(reply.json.predictions).toHaveLength(2);
    reply.json.predictions.forEach((p: { mean: number; variance: number; interval: [number, number] }, i: number) => {
      const expected = model.predict(Float64Array.from(i === 0 ? [1, 0.5, -1] : [1, -2, 2]));
      expect(p.mean).toBeCloseTo(expected.mean, 12);
      expect(p.variance).toBeCloseTo(expected.variance, 12);
      expect(p.interval[0]).toBeLessThan(p.mean);
      expect(p.interval[1]).toBeGreaterThan(p.mean);
    });
  });

  it('refuses bad requests with 400 and a reason, and stays up', async () => {
    const bad: [unknown, RegExp][] = [
      [{ x: [1, 2] }, /x has 2 features, the model has 3/],
      [{ x: [1, 'a', 2] }, /not a finite number.*column 2/],
      [{ x: [1, null, 2] }, /not a finite number/],
      ['{"x": [1, NaN, 2]}', /not valid JSON/],
      [{ rows: [[1, 2, 3], [1, 2]] }, /rows\[1\] has 2 features/],
      [{ rows: new Array(11).fill([1, 2, 3]) }, /at most 10 rows/],
      [{ rows: [] }, /non-empty/],
      [[1, 2, 3], /JSON object/],
      [{ x: new Array(1000).fill(1) }, /exceeds the limit of 2000/],
    ];
    for (const [body, reason] of bad) {
      const reply = await postJson(`${base}/score`, body);
      expect(reply.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(reply.json.error).toMatch(reason);
    }
    expect((await postJson(`${base}/score`, { x: [1, 0, 0] })).status).toBe(200);
  });

  it('hot-swaps a newer snapshot under load without failing a request', async () => {
    // The newer snapshot is learned and saved when the tenth request is made, and the load goes on,
    // in runs of 100 requests, until a request is answered by it, however slowly the save lands.
    let made = 0;
    let swap: Promise<void> | undefined;
    const body = () => {
      if (++made === 10) swap = learnAndSave(2000);
      return { x: [1, 0.3, -0.2] };
    };
    const reports: LoadTestReport[] = [];
    await waitFor(async () => {
      reports.push(await runLoadTest(`${base}/score`, body, { requests: 100, concurrency: 4, maxMs: PATIENCE_MS }));
      return reports.some((r) => r.sequences.includes(2));
    }, 'a request answered by the newer snapshot');
    await swap;
    const total = (field: 'requests' | 'ok' | 'failed') => reports.reduce((sum, r) => sum + r[field], 0);
    expect({ requests: total('requests'), ok: total('ok'), failed: total('failed') }).toEqual({ requests: 100 * reports.length, ok: 100 * reports.length, failed: 0 });
    expect([...new Set(reports.flatMap((r) => r.sequences))].sort()).toEqual([1, 2]);
    for (const report of reports) expect(report.p99Ms).toBeGreaterThanOrEqual(report.p50Ms);
    expect(service.version()).toMatchObject({ sequence: 2, recordsSeen: 2300 });
  });

  it('keeps serving the previous model when a newer snapshot is corrupt', async () => {
    await writeFile(join(dir, 'snapshot-000000000003.vbsnap'), 'not a snapshot');
    await waitFor(() => errors.length > 0, 'the corrupt snapshot reported');
    expect(errors[0].message).toMatch(/snapshot-000000000003/);
    const reply = await postJson(`${base}/score`, { x: [1, 0, 0] });
    expect(reply.status).toBe(200);
    expect(reply.json.version.sequence).toBe(2);
  });
});
